/**
 * The offline model's stand-in for a provider's prompt prefix cache, so tests and benchmarks
 * see cached-token numbers that behave like real ones: a request's cached tokens are the
 * longest start it shares with a recent request (its tools, then its messages in order),
 * counted in whole 64-token blocks as DeepSeek does, and nothing below one block.
 */
import type { ChatCompletionRequest } from './types';
import { messageText } from './tokens';

const BLOCK = 64;

/** The request's prompt as one text, in the order a provider caches it: tools, then messages. */
export function promptText(body: ChatCompletionRequest): string {
  const parts = [body.tools?.length ? JSON.stringify(body.tools) : ''];
  for (const m of body.messages) {
    parts.push(`<${m.role}>${messageText(m)}`);
    for (const call of m.tool_calls ?? []) parts.push(`<call ${call.function.name}>${call.function.arguments ?? ''}`);
  }
  return parts.join('\n');
}

/** Compared in blocks of falling size (native string comparisons), then character by character. */
const COMPARE_BLOCKS = [4096, 256, 16];

export function sharedPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  // Prompts share long starts (tens of thousands of characters, by design): a character loop
  // over each of the 64 recent prompts cost the offline model tens of milliseconds of CPU per
  // request, on the cores the engine under test runs on. Short prompts (a few KB, the most
  // common) went through the character loop whole: 2-3 % of the offline model's CPU under 50
  // concurrent turns. The smaller blocks leave at most 15 characters to it.
  for (const block of COMPARE_BLOCKS) {
    while (i + block <= n && a.slice(i, i + block) === b.slice(i, i + block)) i += block;
  }
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

export class PrefixCache {
  private readonly recent: string[] = [];

  constructor(private readonly size = 64) {}

  /** Cached prompt tokens for this request (at most `promptTokens`), then remembers it. */
  cachedTokens(body: ChatCompletionRequest, promptTokens: number): number {
    return this.observe(body)(promptTokens);
  }

  /**
   * Compares the request with the recent ones and remembers it, as it arrives (requests are
   * cached in the order they come); the returned function turns the shared start into cached
   * tokens once the prompt's tokens are counted, which can wait until the usage goes out.
   */
  observe(body: ChatCompletionRequest): (promptTokens: number) => number {
    const text = promptText(body);
    let best = 0;
    for (const earlier of this.recent) best = Math.max(best, sharedPrefixLength(text, earlier));
    this.recent.push(text);
    if (this.recent.length > this.size) this.recent.shift();
    // The shared share of the prompt's tokens, by characters: no second tokenisation of a
    // long prompt on the model's hot path (the offline model shares the CPU in benchmarks).
    return (promptTokens) =>
      best === 0 ? 0 : Math.min(Math.floor((promptTokens * best) / text.length / BLOCK) * BLOCK, promptTokens);
  }
}
