/**
 * Activity options, chosen per kind of work:
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
 * - The router's one model call runs as a local activity too, in the workflow task that
 *   opened the turn: its answer comes back inside that task, so the first agent's step is
 *   scheduled without a dispatch through the server and a workflow task of its own. Under 50
 *   turns at once that was a sixth of the Temporal server's CPU in the opening burst. It is
 *   short (a routing JSON, not streamed, nothing shown) and idempotent (its usage record has a
 *   fixed id), and a call cut by a dead worker is asked again by the worker that retries the
 *   task, as an interrupted router call always was.
 */
import { type ActivityInterfaceFor, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { TurnSettings } from '../core/turn-types';
import { FailureType } from '../core/failure-types';

/** The short, idempotent activities a turn may run as local activities. */
export type ShortActivity =
  'announceTurn' | 'prepareTurn' | 'answerNoise' | 'executeTool' | 'releaseHeldText' | 'finalizeTurn';

export function turnActivities(settings: TurnSettings, opts: { local?: boolean } = {}) {
  const llm = proxyActivities<Pick<Activities, 'llmStep'>>({
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
  });
  const router = proxyLocalActivities<Pick<Activities, 'routeTurn'>>({
    startToCloseTimeout: '60s',
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumAttempts: 3 },
  });
  const store = proxyActivities<Omit<Activities, 'llmStep' | 'routeTurn'>>({
    startToCloseTimeout: '60s',
    heartbeatTimeout: `${settings.storeHeartbeatTimeoutSeconds}s`,
    retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 30 },
  });
  const local = proxyLocalActivities<Pick<Activities, ShortActivity>>({
    startToCloseTimeout: '60s',
    // The same schedule as `store`; backoffs stay below the local retry threshold (1 min), so
    // retries happen in the worker while the workflow task heartbeats.
    retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 30 },
  });
  // Only `summary` is passed at call sites, which both kinds of proxy accept.
  const short = (opts.local ? local : store) as Pick<ActivityInterfaceFor<Activities>, ShortActivity>;
  // proxyActivities returns a Proxy: its functions must be reached by name, not spread.
  return { llm, router, store, short };
}

export type TurnActivities = ReturnType<typeof turnActivities>;
