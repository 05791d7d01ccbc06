/**
 * The one heartbeat timer of an activity: every second while it runs, with what `details`
 * says at that moment (the LLM step: its stream position, or that it is running its tool
 * calls). Its heartbeat timeout then means "the worker died", not "the work was slow", and
 * the heartbeat response is how an interrupt (cancellation) reaches the activity. A timer,
 * not a beat per chunk: the SDK sends at most one per throttle interval anyway, and each call
 * encodes its details. Local activities do not heartbeat (the workflow task's timeout covers them).
 */
import type { Context } from '@temporalio/activity';
import { OpenCount } from './open-count';

/** The beat of an activity while its worker's beats fit the budget. */
export const BASE_BEAT_MS = 1000;
/** The widest beat under load: a 3 s heartbeat timeout still sees one every 2 s at most. */
export const MAX_BEAT_MS = 2000;

/**
 * The heartbeats one worker's activities send, together. Each beat is a call to the Temporal
 * server that writes the activity's state (RecordActivityTaskHeartbeat): under 50 streaming
 * turns on one worker, 50 a second were about a fifth of the dev server's CPU and a tenth of
 * the whole machine's over the batch (bench:turn --concurrency 50). So the worker's running
 * activities together beat at most `beatsPerSecond` times a second (`HEARTBEATS_PER_SECOND`):
 * up to that many activities keep the 1 s beat, and past it every activity's beat widens
 * evenly, never past {@link MAX_BEAT_MS} nor two thirds of its heartbeat timeout, so a dead
 * worker is noticed as soon as before. What waits longer under load is a cancellation's way
 * back to a running step (it comes with a heartbeat's answer): the turn itself stops at once
 * (the workflow does not wait for the step), the step's model request up to a second later.
 */
export class HeartbeatLoad extends OpenCount {
  get activities(): number {
    return this.open;
  }

  /** The beat of an activity whose heartbeat timeout is `timeoutMs` (undefined: none set). */
  beatMs(beatsPerSecond: number, timeoutMs: number | undefined): number {
    const ceiling = timeoutMs ? Math.max(BASE_BEAT_MS, Math.min(MAX_BEAT_MS, (2 * timeoutMs) / 3)) : BASE_BEAT_MS;
    return Math.min(ceiling, Math.max(BASE_BEAT_MS, (this.open * 1000) / beatsPerSecond));
  }
}

/** The worker's heartbeat load and budget (`HEARTBEATS_PER_SECOND`). */
export interface HeartbeatPace {
  load: HeartbeatLoad;
  beatsPerSecond: number;
}

/** The worker's heartbeat load with its budget, shared by every activity it builds. */
export function heartbeatPace(deps: {
  caches: { heartbeatLoad: HeartbeatLoad };
  config: { HEARTBEATS_PER_SECOND: number };
}): HeartbeatPace {
  return { load: deps.caches.heartbeatLoad, beatsPerSecond: deps.config.HEARTBEATS_PER_SECOND };
}

export async function heartbeatWhile<T>(
  ctx: Context,
  pace: HeartbeatPace,
  details: () => unknown,
  fn: () => Promise<T>,
): Promise<T> {
  if (ctx.info.isLocal) return fn();
  const { load, beatsPerSecond } = pace;
  const leave = load.enter();
  let timer: NodeJS.Timeout | null = null;
  // Re-armed after each beat, so the beat follows the worker's load as it changes.
  const arm = () => {
    timer = setTimeout(
      () => {
        ctx.heartbeat(details());
        arm();
      },
      load.beatMs(beatsPerSecond, ctx.info.heartbeatTimeoutMs),
    );
  };
  arm();
  try {
    return await fn();
  } finally {
    if (timer) clearTimeout(timer);
    leave();
  }
}
