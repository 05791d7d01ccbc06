/**
 * A worker's activities share a heartbeat budget (heartbeat.ts `HeartbeatLoad`): up to the
 * budget each beats every second; past it every beat widens evenly, never past 2 s nor two
 * thirds of the activity's heartbeat timeout (a dead worker is still noticed in time), and an
 * activity that ends stops counting however it ends.
 */
import type { Context } from '@temporalio/activity';
import { BASE_BEAT_MS, HeartbeatLoad, MAX_BEAT_MS, heartbeatWhile } from '../../src/activities/heartbeat';

/** An activity context that counts its heartbeats. */
function context(beats: unknown[], info: { isLocal?: boolean; heartbeatTimeoutMs?: number } = {}): Context {
  return {
    info: { isLocal: false, heartbeatTimeoutMs: 3000, ...info },
    heartbeat: (d: unknown) => void beats.push(d),
  } as unknown as Context;
}

/** `n` other activities of the worker counted as running. */
function busy(load: HeartbeatLoad, n: number): () => void {
  const leaves = Array.from({ length: n }, () => load.enter());
  return () => leaves.forEach((leave) => leave());
}

describe('HeartbeatLoad', () => {
  it('keeps the 1 s beat within the budget and widens it evenly past it', () => {
    const load = new HeartbeatLoad();
    const free = busy(load, 25);
    expect(load.beatMs(25, 3000)).toBe(BASE_BEAT_MS);
    free();
    busy(load, 40);
    expect(load.beatMs(25, 3000)).toBe(1600);
  });

  it('never beats slower than 2 s, nor than two thirds of the heartbeat timeout', () => {
    const load = new HeartbeatLoad();
    busy(load, 500);
    expect(load.beatMs(25, 3000)).toBe(MAX_BEAT_MS);
    expect(load.beatMs(25, 2400)).toBe(1600);
    // A short timeout keeps the beat it always had; no timeout set: no widening either.
    expect(load.beatMs(25, 900)).toBe(BASE_BEAT_MS);
    expect(load.beatMs(25, undefined)).toBe(BASE_BEAT_MS);
  });
});

describe('heartbeatWhile', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** Runs an activity for `ms` of fake time and returns its heartbeats. */
  async function beatsOver(ms: number, load: HeartbeatLoad, info?: { isLocal?: boolean }) {
    const beats: unknown[] = [];
    let step = 0;
    const run = heartbeatWhile(
      context(beats, info),
      { load, beatsPerSecond: 25 },
      () => ({ step: ++step }),
      () => new Promise((r) => setTimeout(r, ms)),
    );
    await jest.advanceTimersByTimeAsync(ms);
    await run;
    return beats;
  }

  it('beats every second on a quiet worker, with the details of the moment', async () => {
    const beats = await beatsOver(10_500, new HeartbeatLoad());
    expect(beats).toHaveLength(10);
    expect(beats[9]).toEqual({ step: 10 });
  });

  it('beats every 2 s while 50 activities run on the worker, and follows the load as it falls', async () => {
    const load = new HeartbeatLoad();
    const free = busy(load, 49);
    expect(await beatsOver(10_500, load)).toHaveLength(5);
    free();
    expect(await beatsOver(10_500, load)).toHaveLength(10);
  });

  it('counts an activity only while it runs, whether it ends or fails', async () => {
    const load = new HeartbeatLoad();
    await beatsOver(1_000, load);
    const failing = heartbeatWhile(
      context([]),
      { load, beatsPerSecond: 25 },
      () => null,
      () => Promise.reject(new Error('boom')),
    );
    await expect(failing).rejects.toThrow('boom');
    expect(load.activities).toBe(0);
  });

  it('leaves local activities alone (their workflow task covers them)', async () => {
    const load = new HeartbeatLoad();
    expect(await beatsOver(3_500, load, { isLocal: true })).toHaveLength(0);
    expect(load.activities).toBe(0);
  });
});
