/**
 * The linear run cutter against the regex it replaced (`\S{257}` test, then a split on
 * `(\S{256})`): the same pieces for any text, so token counts do not change.
 */
import fc from 'fast-check';
import { boundedRuns, countInBoundedRuns, encodeInBoundedRuns } from '../../src/shared/token-runs';

function byRegex(text: string): string[] {
  if (!/\S{257}/.test(text)) return text ? [text] : [];
  return text.split(/(\S{256})/).filter(Boolean);
}

const SPACES = [' ', '\n', '\t', '\u00a0', '\u3000', '\u2028', '\ufeff', '\u2003'];
const piece = fc.oneof(
  fc.constantFrom(...SPACES),
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.integer({ min: 200, max: 700 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 250, max: 520 }).map((n) => '中'.repeat(n)),
  fc.constant('y'.repeat(256)),
);

describe('boundedRuns', () => {
  it('cuts every text the way the regex split did', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(boundedRuns(text)).toEqual(byRegex(text));
      }),
      { numRuns: 400 },
    );
  });

  it('leaves text without a run over 256 whole, runs of exactly 256 included', () => {
    const text = `${'a'.repeat(256)} ${'b'.repeat(10)}`;
    expect(boundedRuns(text)).toEqual([text]);
    expect(boundedRuns('')).toEqual([]);
  });

  it('cuts a long run from its start in pieces of 256, its rest joined to what follows', () => {
    const text = `hi ${'z'.repeat(600)} end`;
    expect(boundedRuns(text)).toEqual(['hi ', 'z'.repeat(256), 'z'.repeat(256), `${'z'.repeat(88)} end`]);
  });

  it('counts and encodes piece by piece', () => {
    const text = `${'q'.repeat(300)} tail`;
    expect(countInBoundedRuns(text, (p) => p.length)).toBe(text.length);
    expect(countInBoundedRuns(text, () => 1)).toBe(2);
    expect(encodeInBoundedRuns(text, (p) => [p.length])).toEqual([256, 49]);
    expect(encodeInBoundedRuns('short', (p) => [p.length])).toEqual([5]);
  });
});
