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
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { TurnSettings } from '../shared/turn-types';

export function turnActivities(settings: TurnSettings) {
  const llm = proxyActivities<Pick<Activities, 'llmStep' | 'routeTurn'>>({
    startToCloseTimeout: `${settings.llmStartToCloseSeconds}s`,
    heartbeatTimeout: `${settings.llmHeartbeatTimeoutSeconds}s`,
    // The first retry comes soon: after a worker crash the heartbeat timeout has already cost
    // seconds (SIGKILL → retried step ≈ 3 s + this). Seven attempts keep the ~30 s a provider
    // outage is ridden out; a provider's own Retry-After overrides the schedule (nextRetryDelay).
    retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 7, nonRetryableErrorTypes: ['LlmBadRequest'] },
  });
  const router = proxyActivities<Pick<Activities, 'routeTurn'>>({
    startToCloseTimeout: '60s',
    heartbeatTimeout: `${settings.storeHeartbeatTimeoutSeconds}s`,
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumAttempts: 3 },
  });
  const store = proxyActivities<Omit<Activities, 'llmStep' | 'routeTurn'>>({
    startToCloseTimeout: '60s',
    heartbeatTimeout: `${settings.storeHeartbeatTimeoutSeconds}s`,
    retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 30 },
  });
  // proxyActivities returns a Proxy: its functions must be reached by name, not spread.
  return { llm, router, store };
}

export type TurnActivities = ReturnType<typeof turnActivities>;
