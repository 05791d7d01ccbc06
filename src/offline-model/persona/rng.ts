/**
 * Seeded randomness for the persona: the same request always yields the same text, yet
 * different chapters and requests read differently.
 */

/** mulberry32: tiny, fast, good enough for choosing sentences. Returns floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A deterministic Fisher–Yates shuffle (a copy). */
export function shuffled<T>(items: readonly T[], rand: () => number): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Draws items without repeats until the bag is empty, then reshuffles — so a template
 * comes back only after all the others were used, as a writer avoids repeating a phrase.
 */
export class ShuffleBag<T> {
  private bag: T[] = [];
  private last: T | undefined;

  constructor(
    private readonly items: readonly T[],
    private readonly rand: () => number,
  ) {}

  next(): T {
    if (this.bag.length === 0) {
      this.bag = shuffled(this.items, this.rand);
      // Avoid the same item twice in a row across a reshuffle.
      if (this.bag.length > 1 && this.bag[this.bag.length - 1] === this.last) this.bag.unshift(this.bag.pop() as T);
    }
    this.last = this.bag.pop() as T;
    return this.last;
  }
}

/** One item chosen by the generator. */
export function pick<T>(items: readonly T[], rand: () => number): T {
  return items[Math.floor(rand() * items.length)];
}
