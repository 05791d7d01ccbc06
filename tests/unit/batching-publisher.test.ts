import { draft, type AnyEventDraft } from '../../src/core/events';
import {
  BatchingPublisher,
  DEFAULT_LINGER_MS,
  MAX_LINGER_MS,
  StreamLoad,
} from '../../src/activities/stream/batching-publisher';
import type { StreamPublisher } from '../../src/streams/redis-streams';

/** Records each XADD batch instead of writing to Redis. */
function recorder(delayMs = 0): { publisher: StreamPublisher; batches: AnyEventDraft[][] } {
  const batches: AnyEventDraft[][] = [];
  const publisher = {
    publish: async (events: AnyEventDraft[]) => {
      batches.push(structuredClone(events));
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      return [];
    },
  } as unknown as StreamPublisher;
  return { publisher, batches };
}

const content = (delta: string) => draft('content', { delta }, { turnId: 't', agent: 'writer', step: 1, attempt: 1 });
const fileDelta = (fileId: string, delta: string) =>
  draft('file_content', { fileId, delta }, { turnId: 't', agent: 'writer', step: 1, attempt: 1 });
const deltas = (b: AnyEventDraft[]) => b.map((e) => (e.data as { delta: string }).delta);

describe('BatchingPublisher', () => {
  it('sends the first token after a quiet spell at once (time to first token is not delayed)', async () => {
    const { publisher, batches } = recorder();
    const out = new BatchingPublisher(publisher, { lingerMs: 5000 });
    out.add(content('Once'));
    await new Promise((r) => setImmediate(r));
    expect(batches).toHaveLength(1);
    expect(deltas(batches[0]!)).toEqual(['Once']);
    await out.flush();
  });

  it('gathers the tokens of one window into one XADD batch, merged into one event', async () => {
    // A fake clock: on a loaded machine a real 10 ms sleep can outlast the 40 ms window.
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const { publisher, batches } = recorder();
      const out = new BatchingPublisher(publisher, { lingerMs: 40, now: () => Date.now() });
      out.add(content('A'));
      await new Promise((r) => setImmediate(r));
      for (const t of [' quiet', ' harbour', ' town']) out.add(content(t));
      await jest.advanceTimersByTimeAsync(39);
      // Still inside the window: nothing more went out.
      expect(batches).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(batches).toHaveLength(2);
      expect(deltas(batches[1]!)).toEqual([' quiet harbour town']);
      await out.flush();
    } finally {
      jest.useRealTimers();
    }
  });

  it('flush publishes everything at once without waiting out the window', async () => {
    const { publisher, batches } = recorder();
    const out = new BatchingPublisher(publisher, { lingerMs: 5000 });
    out.add(content('A'));
    out.add(content('B'));
    await new Promise((r) => setImmediate(r));
    out.add(content('C'));
    const t0 = performance.now();
    await out.flush();
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(batches.flatMap(deltas).join('')).toBe('ABC');
  });

  it('keeps the order of events and never merges deltas of different files', async () => {
    const { publisher, batches } = recorder(5);
    const out = new BatchingPublisher(publisher, { lingerMs: 10 });
    const sent = [
      content('Here'),
      fileDelta('f1', 'one'),
      fileDelta('f1', ' two'),
      fileDelta('f2', 'other'),
      content(' done'),
    ];
    for (const e of sent) out.add(e);
    await out.flush();
    const events = batches.flat();
    expect(events.map((e) => e.type)).toEqual(['content', 'file_content', 'file_content', 'content']);
    expect(events.map((e) => (e.data as { delta: string }).delta)).toEqual(['Here', 'one two', 'other', ' done']);
  });

  it('rethrows a failed publish from flush', async () => {
    const publisher = { publish: async () => Promise.reject(new Error('redis down')) } as unknown as StreamPublisher;
    const out = new BatchingPublisher(publisher, { lingerMs: 0 });
    out.add(content('x'));
    await expect(out.flush()).rejects.toThrow('redis down');
  });

  it('widens its window while the worker has more streams open than its batch budget covers', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const load = new StreamLoad();
      const leaves = Array.from({ length: 50 }, () => load.enter());
      const { publisher, batches } = recorder();
      // 50 streams sharing 400 batches a second: one batch per stream every 125 ms.
      const out = new BatchingPublisher(publisher, { lingerMs: () => load.lingerMs(400), now: () => Date.now() });
      out.add(content('A'));
      await new Promise((r) => setImmediate(r));
      out.add(content(' B'));
      await jest.advanceTimersByTimeAsync(124);
      expect(batches).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(batches).toHaveLength(2);
      // The streams end: the next window is the default one again.
      for (const leave of leaves.slice(1)) leave();
      out.add(content(' C'));
      await jest.advanceTimersByTimeAsync(DEFAULT_LINGER_MS);
      expect(batches.flatMap(deltas).join('')).toBe('A B C');
      await out.flush();
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('StreamLoad', () => {
  it('keeps the default window up to the budget, then shares the budget evenly, up to the widest window', () => {
    const load = new StreamLoad();
    const leaves = Array.from({ length: 20 }, () => load.enter());
    expect(load.lingerMs(400)).toBe(DEFAULT_LINGER_MS);
    leaves.push(...Array.from({ length: 30 }, () => load.enter()));
    expect(load.lingerMs(400)).toBe(125);
    expect(load.lingerMs(50)).toBe(MAX_LINGER_MS);
  });

  it('counts a stream once however often it leaves', () => {
    const load = new StreamLoad();
    const leave = load.enter();
    load.enter();
    leave();
    leave();
    expect(load.streams).toBe(1);
  });
});
