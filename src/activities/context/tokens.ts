/**
 * Token counting for prompt budgets. Special-token strings in author text ("<|endoftext|>")
 * are counted as plain text, never rejected: an author's chapter must not crash a step.
 */
import { decode, encode } from 'gpt-tokenizer';
import { countInBoundedRuns, encodeInBoundedRuns } from '../../shared/token-runs';
import type { LRUCache } from 'lru-cache';

const PLAIN = { disallowedSpecial: new Set<string>() };

// Chinese prose has no spaces: one chapter is one unbroken run, which BPE encodes in quadratic
// time; counting and encoding in bounded runs keeps a long Chinese book linear (src/shared/token-runs.ts).
export const countTokens = (text: string): number =>
  text ? countInBoundedRuns(text, (t) => encode(t, PLAIN).length) : 0;

/** Entries the worker's stable counts keep; past it the oldest is dropped. */
const STABLE_COUNTS_MAX = 5000;

/**
 * Counts for texts that never change once written (a step's transcript, a tool result),
 * remembered by a caller-chosen key in `stableCounts`, the worker's (worker-caches.ts), so a
 * run's growing tool loop is not re-tokenised at every step. In memory only and bounded: a
 * fresh worker simply counts again.
 */
export function countStable(stableCounts: Map<string, number>, key: string, text: string): number {
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

/** Texts at least this long are measured once per worker (a book's files); shorter ones each time. */
export const SHARED_MEASURE_MIN_CHARS = 1000;

/**
 * The text measured, from an earlier assembly in this worker when it saw the same text: long
 * texts are kept in `measuredTexts`, the worker's (worker-caches.ts), shared by every assembly.
 */
export function measureShared(measuredTexts: LRUCache<string, Measured>, text: string): Measured {
  if (text.length < SHARED_MEASURE_MIN_CHARS) return new Measured(text);
  let m = measuredTexts.get(text);
  if (!m) measuredTexts.set(text, (m = new Measured(text)));
  return m;
}
