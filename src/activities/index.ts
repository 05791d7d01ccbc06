/**
 * Every activity the worker registers, built from injected dependencies
 * (samples-typescript `activities-dependency-injection`). Workflows import the
 * `Activities` type only.
 */
import { Context } from '@temporalio/activity';
import { createApprovalActivities } from './approvals';
import { heartbeatPace, heartbeatWhile, type HeartbeatPace } from './heartbeat';
import { createJobCommandActivities } from './job-commands';
import type { ActivityDeps } from './deps';
import { createJobActivities } from './jobs';
import { createLlmActivities } from './llm';
import { createPublishActivities } from './publish';
import { createRouterActivities } from './router';
import { createSuggestionActivities } from './suggestions';
import { createToolActivities } from './tools';
import { createParallelActivities } from './tools/parallel';
import { createTurnLifecycleActivities } from './turn-lifecycle';
import { createTurnOpeningActivities } from './turn-opening';
import { createWorkerCaches, type WorkerCaches } from './worker-caches';

/**
 * Heartbeats every second (wider under load) while a short activity runs (heartbeat.ts): a
 * killed worker is noticed in seconds while a slow MongoDB write may still take as long as it needs.
 */
function withHeartbeat<A extends unknown[], R>(
  pace: HeartbeatPace,
  fn: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return (...args: A) =>
    heartbeatWhile(
      Context.current(),
      pace,
      () => undefined,
      () => fn(...args),
    );
}

/**
 * The worker's activities, with one set of caches made here for all of them: created with
 * the activities and dropped with them (worker-caches.ts).
 */
export function createActivities(services: Omit<ActivityDeps, 'caches'>, caches: WorkerCaches = createWorkerCaches()) {
  const deps: ActivityDeps = { ...services, caches };
  const pace = heartbeatPace(deps);
  const heartbeating = <T extends Record<string, (...args: never[]) => Promise<unknown>>>(activities: T): T =>
    Object.fromEntries(Object.entries(activities).map(([name, fn]) => [name, withHeartbeat(pace, fn)])) as T;
  return {
    ...heartbeating(createTurnLifecycleActivities(deps)),
    ...heartbeating(createTurnOpeningActivities(deps)),
    ...heartbeating(createRouterActivities(deps)),
    // The LLM step heartbeats itself from its start, with its stream position (llm.ts).
    ...createLlmActivities(deps),
    ...heartbeating(createToolActivities(deps)),
    ...heartbeating(createParallelActivities(deps)),
    ...heartbeating(createSuggestionActivities(deps)),
    ...heartbeating(createPublishActivities(deps)),
    ...heartbeating(createJobActivities(deps)),
    ...heartbeating(createApprovalActivities(deps)),
    ...heartbeating(createJobCommandActivities(deps)),
  };
}

export type Activities = ReturnType<typeof createActivities>;
export type { ActivityDeps };
