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
 * characters, or 4 of Chinese (each carries about a word). Leading blank lines are no
 * evidence and do not count. A shorter repeat counts only by its form ({@link shortRepeat}).
 */
export const MIN_OVERLAP_CHARS = 8;
const MIN_OVERLAP_CJK_CHARS = 4;
const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
const WORD = /[\p{L}\p{N}]/u;
const longEnough = (overlap: string): boolean => {
  const s = overlap.trimStart();
  return s.length >= MIN_OVERLAP_CHARS || (s.length >= MIN_OVERLAP_CJK_CHARS && CJK.test(s));
};
/** How far back from the cut a model is expected to restart. */
export const OVERLAP_WINDOW_CHARS = 400;

/**
 * A repeat too short for {@link MIN_OVERLAP_CHARS} that is still one by its form; `overlap` is
 * both the end of `kept` and the start of the continuation. Leading blank lines are set aside on
 * both sides: a model that restates its text starts at its first word, not at the blank lines
 * that opened it, so they must not decide whether, or where, the two meet.
 * - Chinese: any overlap with a character in it. The trade-off: a word that doubles a character
 *   (谢谢, 慢慢) cut between the two loses one when the model went straight on; kept, every
 *   restart would show a character twice (大大纲), which is far more common.
 * - Other scripts: the kept text ends inside a word (or on its last letter) and the overlap
 *   starts where a word starts, so the continuation begins with that word again (`the do` →
 *   `door`). Text going straight on from inside a word would have glued a second copy of it on.
 * - The whole kept text (less its leading blank lines) with a letter in it: the model started over.
 */
function shortRepeat(kept: string, overlap: string): boolean {
  const text = overlap.trimStart();
  if (!text) return false;
  if (CJK.test(text)) return true;
  const before = kept.slice(0, kept.length - text.length);
  if (!before.trim()) return WORD.test(text);
  return WORD.test(text[0]!) && !WORD.test(before.at(-1)!) && WORD.test(kept.at(-1)!);
}

/**
 * How many characters at the start of `continuation` repeat the end of `kept`, to be dropped
 * where the two are joined (0: none). `kept` is the text the continuation goes on from (at most
 * its last {@link OVERLAP_WINDOW_CHARS} are looked at), `continuation` the start of the model's
 * answer, long enough to show where its repeat ends.
 *
 * The shortest repeat long enough not to be chance ({@link MIN_OVERLAP_CHARS}) is removed. In
 * prose only one length fits; in text that repeats itself (a refrain, a sentence written ten
 * times) several do, and every longer one would cut the author's text: the shortest can at worst
 * show a few words twice, never lose any. Failing that, the longest short one that is a repeat by
 * its form ({@link shortRepeat}): `他说他` + `他说他要走` is a restart at the first 他, not the last.
 */
export function seamOverlap(kept: string, continuation: string): number {
  const tail = kept.slice(-OVERLAP_WINDOW_CHARS);
  const max = Math.min(continuation.length, tail.length);
  let short = 0;
  for (let k = 1; k <= max; k++) {
    const overlap = continuation.slice(0, k);
    if (!tail.endsWith(overlap)) continue;
    if (longEnough(overlap)) return k;
    if (shortRepeat(kept, overlap)) short = k;
  }
  return short;
}

/**
 * Removes the text a continuation repeats from the end of the partial ({@link seamOverlap}). The
 * continuation's first characters are held only while they could still be such a repetition
 * (they occur in the partial's last {@link OVERLAP_WINDOW_CHARS}); once they cannot, the
 * repeated start is dropped and the rest flows through.
 */
export class OverlapTrimmer {
  private pending = '';
  private decided = false;
  private readonly tail: string;

  constructor(private readonly partial: string) {
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

  private decide(): string {
    this.decided = true;
    this.trimmed = seamOverlap(this.partial, this.pending);
    const kept = this.pending.slice(this.trimmed);
    this.pending = '';
    return kept;
  }
}
