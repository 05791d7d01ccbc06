/**
 * Token counting for prompt budgets. Special-token strings in author text ("<|endoftext|>")
 * are counted as plain text, never rejected: an author's chapter must not crash a step.
 */
import { decode, encode } from 'gpt-tokenizer';
import { LRUCache } from 'lru-cache';
import { countInBoundedRuns, encodeInBoundedRuns } from '../../shared/token-runs';

const PLAIN = { disallowedSpecial: new Set<string>() };

// Chinese prose has no spaces: one chapter is one unbroken run, which BPE encodes in quadratic
// time; counting and encoding in bounded runs keeps a long Chinese book linear (src/shared/token-runs.ts).
export const countTokens = (text: string): number => (text ? countInBoundedRuns(text, (t) => encode(t, PLAIN).length) : 0);

/**
 * Counts for texts that never change once written (a step's transcript, a tool result),
 * remembered by a caller-chosen key so a run's growing tool loop is not re-tokenised at every
 * step. In-process only and bounded: a fresh worker simply counts again.
 */
const stableCounts = new Map<string, number>();
const STABLE_COUNTS_MAX = 5000;

export function countStable(key: string, text: string): number {
  const hit = stableCounts.get(`${key}:${text.length}`);
  if (hit !== undefined) return hit;
  const n = countTokens(text);
  if (stableCounts.size >= STABLE_COUNTS_MAX) stableCounts.delete(stableCounts.keys().next().value!);
  stableCounts.set(`${key}:${text.length}`, n);
  return n;
}

/** Tokens of a chat message as providers roughly count them (the same rule as the offline model's usage). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * A text measured once: its token count and, when it has to be cut, the cut comes from the
 * same encoding (no re-tokenising per probe).
 */
export class Measured {
  private tokens: number[] | null = null;
  readonly count: number;

  constructor(readonly text: string) {
    this.tokens = text ? encodeInBoundedRuns(text, (t) => encode(t, PLAIN)) : [];
    this.count = this.tokens.length;
  }

  /** The longest prefix of at most `max` tokens, cut back to a line or sentence end when one is near. */
  prefix(max: number): string {
    if (max <= 0 || !this.tokens) return '';
    if (max >= this.count) return this.text;
    // A token can end inside a multi-byte character: drop the replacement character that leaves.
    const raw = decode(this.tokens.slice(0, max)).replace(/\uFFFD+$/u, '');
    const cut = Math.max(raw.lastIndexOf('\n'), raw.search(/[。！？.!?][^。！？.!?]*$/u) + 1);
    return cut > raw.length * 0.8 ? raw.slice(0, cut) : raw;
  }
}

/** Texts at least this long are measured once per process (a book's files); shorter ones each time. */
export const SHARED_MEASURE_MIN_CHARS = 1000;

/**
 * Measurements of long texts shared by every assembly in this process, keyed by the text
 * itself, so a hit is exact: a book's files come back unchanged turn after turn, and
 * tokenising 50 chapters again took 20-60 ms of each turn's first step (bench:turn,
 * accumulated). Bounded by size (about 2 bytes per character and 8 per token).
 */
const measuredTexts = new LRUCache<string, Measured>({
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: (m, text) => 2 * text.length + 8 * m.count + 1,
});

/** The text measured, from an earlier assembly in this process when it saw the same text. */
export function measureShared(text: string): Measured {
  if (text.length < SHARED_MEASURE_MIN_CHARS) return new Measured(text);
  let m = measuredTexts.get(text);
  if (!m) measuredTexts.set(text, (m = new Measured(text)));
  return m;
}
