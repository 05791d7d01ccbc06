/**
 * The one heartbeat timer of an activity: every second while it runs, with what `details`
 * says at that moment (the LLM step: its stream position, or that it is running its tool
 * calls). Its heartbeat timeout then means "the worker died", not "the work was slow", and
 * the heartbeat response is how an interrupt (cancellation) reaches the activity. A timer,
 * not a beat per chunk: the SDK sends at most one per throttle interval anyway, and each call
 * encodes its details. Local activities do not heartbeat (the workflow task's timeout covers them).
 */
import type { Context } from '@temporalio/activity';

export async function heartbeatWhile<T>(ctx: Context, details: () => unknown, fn: () => Promise<T>): Promise<T> {
  if (ctx.info.isLocal) return fn();
  const timer = setInterval(() => ctx.heartbeat(details()), 1000);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}
