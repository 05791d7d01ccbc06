/**
 * Every activity option set the workflows schedule with, named by the kind of work it is for.
 * Each is a function returning a fresh object (no option object is shared between proxies);
 * values read from the turn's settings stay read from them.
 *
 * These values travel into every activity the workflows schedule: changing one changes what
 * running workflows do, so a change is a behaviour change, never a refactor.
 *
 * - LLM steps stream for minutes: a long start-to-close, but a short heartbeat timeout so a
 *   killed worker is detected in seconds (the activity heartbeats every second from its start,
 *   and on every chunk).
 *   Bad requests are non-retryable (`LlmBadRequest`); 429 / 5xx / network errors retry.
 * - Tool and bookkeeping activities are short and idempotent: retry generously, so a
 *   MongoDB or Redis blip of a few seconds costs nothing but time. They heartbeat every
 *   second while running (src/activities/index.ts), so their heartbeat timeout detects a
 *   dead worker quickly while start-to-close still bounds genuinely slow work.
 * - Turns started since `h9-local-activities` run the short bookkeeping activities (opening,
 *   tools, file saves, held text, finalize) as local activities: the worker that runs the
 *   workflow task runs them at once and goes on, so a tool call or a save costs no workflow
 *   task and no dispatch through the server (most of a turn's overhead outside the model,
 *   and what grows with concurrent turns). They are idempotent already, which is what a
 *   local activity needs: a worker that dies mid-way has its workflow task retried
 *   elsewhere, and the activity runs again. Local activities do not heartbeat; the workflow
 *   task's own timeout notices a dead worker instead.
 * - The router's one model call runs inside the preparation when the rules leave the routing
 *   to it (turn-prepare.ts), or as a local activity of its own after a failed call there; either
 *   way in the workflow task that opened the turn: its answer comes back inside that task, so
 *   the first agent's step is scheduled without a dispatch through the server and a workflow
 *   task of its own. Under 50
 *   turns at once that was a sixth of the Temporal server's CPU in the opening burst. It is
 *   short (a routing JSON, not streamed, nothing shown) and idempotent (its usage record has a
 *   fixed id), and a call cut by a dead worker is asked again by the worker that retries the
 *   task, as an interrupted router call always was.
 * - Job bookkeeping never gives up: a job should outlive a MongoDB or Redis outage.
 * - Next-step suggestions are optional: one quick retry, then the turn ends without them.
 */
import type { ActivityOptions, LocalActivityOptions, RetryPolicy } from '@temporalio/workflow';
import type { TurnSettings } from '../core/turn/turn-types';
import { FailureType } from '../core/failure-types';

/** Start-to-close of every activity except the LLM step. */
const SHORT_START_TO_CLOSE = '60s';

/** The LLM step (`llmStep`): remote, heartbeating, its timeouts from the turn's settings. */
export function llmStepOptions(
  settings: Pick<TurnSettings, 'llmStartToCloseSeconds' | 'llmHeartbeatTimeoutSeconds'>,
): ActivityOptions {
  return {
    startToCloseTimeout: `${settings.llmStartToCloseSeconds}s`,
    heartbeatTimeout: `${settings.llmHeartbeatTimeoutSeconds}s`,
    // The first retry comes soon: after a worker crash the heartbeat timeout has already cost
    // seconds (SIGKILL → retried step ≈ 3 s + this). Seven attempts keep the ~30 s a provider
    // outage is ridden out; a provider's own Retry-After overrides the schedule (nextRetryDelay).
    retry: {
      initialInterval: '500ms',
      backoffCoefficient: 2,
      maximumInterval: '30s',
      maximumAttempts: 7,
      nonRetryableErrorTypes: [FailureType.LlmBadRequest],
    },
  };
}

/** Attempts of the router's model call before the turn falls back to the writer alone. */
const ROUTER_ATTEMPTS = 3;

/**
 * The router's model call (`routeTurn`): a local activity, three attempts in all. `made`: the
 * attempts already made (the preparation's own call, turn-prepare.ts), which count.
 */
export function routerLocalOptions(made = 0): LocalActivityOptions {
  return {
    startToCloseTimeout: SHORT_START_TO_CLOSE,
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumAttempts: Math.max(1, ROUTER_ATTEMPTS - made) },
  };
}

/** The retry schedule of tool and bookkeeping activities, remote (`store`) or local alike. */
function storeRetry(): RetryPolicy {
  return { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 30 };
}

/** Tool and bookkeeping activities run remotely (`store`): heartbeating, 30 attempts. */
export function storeOptions(settings: Pick<TurnSettings, 'storeHeartbeatTimeoutSeconds'>): ActivityOptions {
  return {
    startToCloseTimeout: SHORT_START_TO_CLOSE,
    heartbeatTimeout: `${settings.storeHeartbeatTimeoutSeconds}s`,
    retry: storeRetry(),
  };
}

/**
 * A turn's short bookkeeping activities run locally: the same schedule as `store`; backoffs
 * stay below the local retry threshold (1 min), so retries happen in the worker while the
 * workflow task heartbeats.
 */
export function bookkeepingLocalOptions(): LocalActivityOptions {
  return {
    startToCloseTimeout: SHORT_START_TO_CLOSE,
    retry: storeRetry(),
  };
}

/**
 * The job's bookkeeping retries without an attempt cap; a missing job, nothing to revise and
 * a busy session (when asked to fail on it) do not retry.
 */
function jobRetry(): RetryPolicy {
  return {
    initialInterval: '500ms',
    backoffCoefficient: 2,
    maximumInterval: '30s',
    nonRetryableErrorTypes: [FailureType.JobNotFound, FailureType.NothingToRevise, FailureType.SessionBusy],
  };
}

/** The job's bookkeeping run remotely: heartbeating, retried without end. */
export function jobOptions(settings: Pick<TurnSettings, 'storeHeartbeatTimeoutSeconds'>): ActivityOptions {
  return {
    startToCloseTimeout: SHORT_START_TO_CLOSE,
    // The activities heartbeat every second: a dead worker is noticed in seconds.
    heartbeatTimeout: `${settings.storeHeartbeatTimeoutSeconds}s`,
    // No attempt cap: openJobTurn also waits here while an author's turn holds the session.
    retry: jobRetry(),
  };
}

/**
 * The job's bookkeeping run locally: retries backing off past 2 s become workflow timers, so
 * a pause or cancel is still handled during an outage.
 */
export function jobLocalOptions(): LocalActivityOptions {
  return {
    startToCloseTimeout: SHORT_START_TO_CLOSE,
    localRetryThreshold: '2s',
    retry: jobRetry(),
  };
}

/** Next-step suggestions (`suggestNextSteps`): remote, heartbeating, two attempts. */
export function suggestionsOptions(settings: Pick<TurnSettings, 'storeHeartbeatTimeoutSeconds'>): ActivityOptions {
  return {
    startToCloseTimeout: SHORT_START_TO_CLOSE,
    heartbeatTimeout: `${settings.storeHeartbeatTimeoutSeconds}s`,
    retry: { initialInterval: '1s', maximumAttempts: 2 },
  };
}
