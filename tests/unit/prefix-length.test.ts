import fc from 'fast-check';
import { sharedPrefixLength } from '../../src/offline-model/prefix-cache';

/** The definition: characters compared one by one. */
function naive(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

describe('sharedPrefixLength (the offline model’s prefix cache)', () => {
  it('finds the same shared start as comparing character by character, at any length and cut', () => {
    // Two texts that share a start of any length (across the 4096/256/16 block edges) and then differ.
    const pair = fc.tuple(
      fc.string({ unit: 'grapheme', maxLength: 9000 }),
      fc.string({ maxLength: 300 }),
      fc.string({ maxLength: 300 }),
    );
    fc.assert(
      fc.property(pair, ([start, x, y]) => {
        expect(sharedPrefixLength(start + x, start + y)).toBe(naive(start + x, start + y));
      }),
      { numRuns: 300 },
    );
  });

  it('stops at a difference just past a block edge', () => {
    const start = 'a'.repeat(4096 + 256 + 16 + 3);
    expect(sharedPrefixLength(`${start}x`, `${start}y`)).toBe(start.length);
    expect(sharedPrefixLength(start, `${start}tail`)).toBe(start.length);
  });
});
