import { GapTracker } from '../../src/streams/gaps';

const counts = (o: Record<number, number>) => new Map(Object.entries(o).map(([k, v]) => [Number(k), v]));

describe('GapTracker: events a stream lost are found, never invented', () => {
  test('an intact stream read from the start, in pages, has no gap', () => {
    const g = new GapTracker(counts({ 1: 2, 2: 3, 4: 1 }), null);
    expect(g.check(['1-0', '1-1', '2-0'])).toBe(-1);
    expect(g.check(['2-1', '2-2', '4-0'])).toBe(-1);
    expect(g.missingAtEnd()).toBe(false);
  });

  test('slots that published nothing (no record) are not gaps; without records only holes are found', () => {
    const g = new GapTracker(new Map(), null);
    expect(g.check(['1-0', '3-0', '3-1', '7-0'])).toBe(-1);
    expect(g.missingAtEnd()).toBe(false);
    expect(new GapTracker(new Map(), null).check(['1-0', '1-2'])).toBe(1);
  });

  test('a hole inside a slot (Redis lost events, the publisher numbered on)', () => {
    expect(new GapTracker(counts({ 1: 5 }), null).check(['1-0', '1-1', '1-4'])).toBe(2);
  });

  test('the tail of a slot lost: the next slot starts before the recorded count was reached', () => {
    expect(new GapTracker(counts({ 1: 4, 2: 1 }), null).check(['1-0', '1-1', '2-0'])).toBe(2);
  });

  test('a whole slot lost, in the middle or before the first entry', () => {
    expect(new GapTracker(counts({ 1: 1, 2: 2, 3: 1 }), null).check(['1-0', '3-0'])).toBe(1);
    expect(new GapTracker(counts({ 1: 1, 2: 1 }), null).check(['2-0'])).toBe(0);
  });

  test('the end of the stream lost: records beyond what Redis holds', () => {
    const g = new GapTracker(counts({ 1: 1, 2: 2 }), null);
    expect(g.check(['1-0', '2-0'])).toBe(-1);
    expect(g.missingAtEnd()).toBe(true);
    const h = new GapTracker(counts({ 1: 1, 5: 1 }), null);
    expect(h.check(['1-0'])).toBe(-1);
    expect(h.missingAtEnd()).toBe(true);
  });

  test('a resuming client is checked from its cursor on; what it already has is not its concern', () => {
    // Slot 1 lost events before the cursor: irrelevant to this client.
    const g = new GapTracker(counts({ 1: 9, 2: 2 }), '2-0');
    expect(g.check(['2-1'])).toBe(-1);
    expect(g.missingAtEnd()).toBe(false);
    // But its own slot must continue without a hole, and end at its count.
    expect(new GapTracker(counts({ 2: 4 }), '2-0').check(['2-2'])).toBe(0);
    expect(new GapTracker(counts({ 2: 4, 3: 1 }), '2-1').check(['3-0'])).toBe(0);
  });
});
