/**
 * Resuming a model answer from its partial text: a retried LLM step whose earlier
 * attempt streamed text asks the model to go on from that text instead of answering anew.
 * Pure: the request shape for each strategy, and the trimming of what a model repeats.
 *
 * - `prefix`: DeepSeek's chat prefix completion — the partial as the last assistant message
 *   with `prefix: true`; the model continues it.
 * - `continue_final_message`: vLLM's (and Hugging Face chat templates') flag — the partial as
 *   the last assistant message, continued instead of closed.
 * - `instruction`: any OpenAI-compatible endpoint — the partial as an assistant message, then
 *   a short user instruction to continue from its last character. Models often restart a
 *   little before the cut, so the overlap is removed ({@link OverlapTrimmer}).
 * - `off`: never resume; the step starts over (`step_retry`).
 */
export const CONTINUATION_STRATEGIES = ['auto', 'prefix', 'continue_final_message', 'instruction', 'off'] as const;
export type ContinuationSetting = (typeof CONTINUATION_STRATEGIES)[number];
export type ContinuationStrategy = Exclude<ContinuationSetting, 'auto'>;

/**
 * The user message of the `instruction` strategy. The offline model recognises it by this
 * exact text (it plays a model that was asked to continue).
 */
export const CONTINUE_INSTRUCTION =
  'Your previous answer above was cut off mid-stream. Continue it exactly from its last character: ' +
  'do not repeat anything already written, add no preamble, and keep the same format (close an open <file> block as you normally would).';

/**
 * `auto`: DeepSeek's API takes an assistant prefix; for any other endpoint the instruction
 * works everywhere (vLLM's flag is chosen explicitly, since a vLLM server cannot be told
 * apart from another OpenAI-compatible one by its address).
 */
export function resolveContinuation(setting: ContinuationSetting, baseUrl: string | undefined): ContinuationStrategy {
  if (setting !== 'auto') return setting;
  return baseUrl && /deepseek/i.test(baseUrl) ? 'prefix' : 'instruction';
}

/** A message this module adds to a request (the caller's own message type is kept as it is). */
export interface ContinuationMessage {
  role: 'assistant' | 'user';
  content: string;
  /** DeepSeek's chat prefix completion: continue this assistant message. */
  prefix?: true;
}

export interface ContinuationRequest<M> {
  messages: (M | ContinuationMessage)[];
  /** Request body fields besides the messages (vLLM's flags). */
  body: Record<string, unknown>;
}

/** The request that asks the model to continue `partial`, the start of its own answer to `messages`. */
export function continuationRequest<M>(
  strategy: Exclude<ContinuationStrategy, 'off'>,
  messages: M[],
  partial: string,
): ContinuationRequest<M> {
  if (strategy === 'prefix') {
    // DeepSeek reads `prefix` on the last assistant message; the SDK passes it through.
    return { messages: [...messages, { role: 'assistant', content: partial, prefix: true }], body: {} };
  }
  if (strategy === 'continue_final_message') {
    return {
      messages: [...messages, { role: 'assistant', content: partial }],
      body: { continue_final_message: true, add_generation_prompt: false },
    };
  }
  return {
    messages: [...messages, { role: 'assistant', content: partial }, { role: 'user', content: CONTINUE_INSTRUCTION }],
    body: {},
  };
}

/**
 * What a continuation must repeat before it counts as a restart rather than chance: 8
 * characters, or 4 of Chinese (each carries about a word).
 */
export const MIN_OVERLAP_CHARS = 8;
const MIN_OVERLAP_CJK_CHARS = 4;
const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
const longEnough = (s: string): boolean =>
  s.length >= MIN_OVERLAP_CHARS || (s.length >= MIN_OVERLAP_CJK_CHARS && CJK.test(s));
/** How far back from the cut a model is expected to restart. */
export const OVERLAP_WINDOW_CHARS = 400;

/**
 * Removes the text a continuation repeats from the end of the partial. The continuation's
 * first characters are held only while they could still be such a repetition (they occur in
 * the partial's last {@link OVERLAP_WINDOW_CHARS}); once they cannot, the repeated start is
 * dropped — if long enough ({@link MIN_OVERLAP_CHARS}) that a word merely recurring at the
 * seam is kept — and the rest flows through.
 */
export class OverlapTrimmer {
  private pending = '';
  private decided = false;
  private readonly tail: string;

  constructor(partial: string) {
    this.tail = partial.slice(-OVERLAP_WINDOW_CHARS);
  }

  /** Characters removed as a repetition (known once decided). */
  trimmed = 0;

  /** The part of `text` to keep; '' while undecided. */
  push(text: string): string {
    if (this.decided) return text;
    this.pending += text;
    if (this.pending.length < OVERLAP_WINDOW_CHARS && this.tail.includes(this.pending)) return '';
    return this.decide();
  }

  /** What is still held at the end of the continuation. */
  end(): string {
    return this.decided ? '' : this.decide();
  }

  /**
   * The shortest start of the continuation that the partial ends with (and long enough to be
   * a repeat, not chance) is removed. In prose only one length fits; in text that repeats
   * itself (a refrain, a sentence written ten times) several do, and every longer one would
   * cut the author's text: the shortest can at worst show a few words twice, never lose any.
   */
  private decide(): string {
    this.decided = true;
    const max = Math.min(this.pending.length, this.tail.length);
    let k = 1;
    while (k <= max && !(longEnough(this.pending.slice(0, k)) && this.tail.endsWith(this.pending.slice(0, k)))) k += 1;
    this.trimmed = k > max ? 0 : k;
    const kept = this.pending.slice(this.trimmed);
    this.pending = '';
    return kept;
  }
}
