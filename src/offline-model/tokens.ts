/**
 * Token-level helpers: how text is cut into streamed pieces, how usage is counted, and
 * the request hash that keeps ids deterministic.
 */
import { createHash } from 'node:crypto';
import { countTokens } from 'gpt-tokenizer';
import { LRUCache } from 'lru-cache';
import { countInBoundedRuns } from '../shared/token-runs';
import type { ChatCompletionRequest, ChatMessage } from './types';

const CJK = '\\u3000-\\u303f\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\u3040-\\u30ff\\uac00-\\ud7af\\uff00-\\uffef';
/**
 * A piece is leading whitespace plus one CJK character or a run of up to 12 other
 * non-space characters; trailing whitespace is its own piece. Every character belongs to
 * exactly one piece, so the pieces concatenate back to the input.
 */
const PIECE = new RegExp(`\\s*(?:[${CJK}]|[^\\s${CJK}]{1,12})|\\s+`, 'gu');

/** Cuts text into roughly word-sized pieces whose concatenation is exactly `text`. */
export function splitPieces(text: string): string[] {
  return text.match(PIECE) ?? [];
}

/**
 * Counts already made, by text. A request repeats most of the one before (the same
 * instructions, tool list and project material, one message more), and the offline model
 * counts every prompt on the cores the engine it serves runs on.
 */
const counted = new LRUCache<string, number>({
  max: 4096,
  maxSize: 16_000_000,
  sizeCalculation: (_n, text) => text.length || 1,
});

/** Counts tokens with the o200k tokenizer; special-token strings in text are counted as text. */
export function tokenCount(text: string): number {
  if (!text) return 0;
  const known = counted.get(text);
  if (known !== undefined) return known;
  const n = countInBoundedRuns(text, (t) => countTokens(t, { disallowedSpecial: new Set() }));
  if (text.length > 64) counted.set(text, n);
  return n;
}

/** Plain text of a message's content (string, or the text parts of an array). */
export function messageText(message: Pick<ChatMessage, 'content'>): string {
  const c = message.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
  return '';
}

/** Prompt tokens the way providers roughly count them: a few per message plus the text. */
export function countPromptTokens(body: ChatCompletionRequest): number {
  let total = 3;
  for (const m of body.messages) {
    total += 4 + tokenCount(messageText(m));
    for (const call of m.tool_calls ?? [])
      total += tokenCount(call.function.name) + tokenCount(call.function.arguments ?? '');
  }
  if (body.tools?.length) total += tokenCount(JSON.stringify(body.tools));
  return total;
}

/** Completion tokens of an answer: reasoning, content and every tool call. */
export function countCompletionTokens(reply: {
  content: string;
  reasoning: string;
  toolCalls: { name: string; arguments: string }[];
}): number {
  let total = tokenCount(reply.reasoning) + tokenCount(reply.content);
  for (const call of reply.toolCalls) total += 3 + tokenCount(call.name) + tokenCount(call.arguments);
  return total;
}

/** Hex sha256 of the request's conversation (messages and tools), independent of `stream`. */
export function requestHash(body: ChatCompletionRequest): string {
  return createHash('sha256')
    .update(JSON.stringify({ model: body.model ?? null, messages: body.messages, tools: body.tools ?? null }))
    .digest('hex');
}

/** A 32-bit seed from any string, for the persona's deterministic choices. */
export function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32LE(0);
}
