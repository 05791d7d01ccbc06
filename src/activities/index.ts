/**
 * Every activity the worker registers, built from injected dependencies
 * (samples-typescript `activities-dependency-injection`). Workflows import the
 * `Activities` type only.
 *
 * The activities live in rooms by what they serve: turn/ (a turn's opening, start, routing,
 * approvals and end), step/ (the LLM step: the model call, its stream, its tool calls), job/
 * (a job's records, files and summary), stream/ (events onto Redis streams and session feeds),
 * tools/ (the agents' tools), context/ (what a step is shown) and reading/ (the word
 * segmenter). At this level: this registry, the injected dependencies (deps.ts), the worker's
 * caches (worker-caches.ts), and what every room uses (failures.ts, usage.ts, heartbeat.ts,
 * open-count.ts, early-reads.ts).
 */
import { Context } from '@temporalio/activity';
import { createApprovalActivities } from './turn/approvals';
import { heartbeatPace, heartbeatWhile, type HeartbeatPace } from './heartbeat';
import { createJobCommandActivities } from './job/job-commands';
import type { ActivityDeps } from './deps';
import { createJobRecordActivities } from './job/jobs';
import { createJobTurnActivities } from './job/job-turns';
import { createLlmActivities } from './step/llm';
import { createPublishActivities } from './stream/publish';
import { createRouterActivities } from './turn/router';
import { createSuggestionActivities } from './turn/suggestions';
import { createToolActivities } from './tools';
import { createParallelActivities } from './tools/parallel';
import { createTurnLifecycleActivities } from './turn/turn-lifecycle';
import { createTurnOpeningActivities } from './turn/turn-opening';
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
    ...heartbeating(createJobTurnActivities(deps)),
    ...heartbeating(createJobRecordActivities(deps)),
    ...heartbeating(createApprovalActivities(deps)),
    ...heartbeating(createJobCommandActivities(deps)),
  };
}

export type Activities = ReturnType<typeof createActivities>;
export type { ActivityDeps };
