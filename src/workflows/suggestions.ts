/**
 * Next-step suggestions at the end of a turn: one activity just
 * before finalize, so its `suggestions` event lands right before `done`. Skipped when the
 * turn failed (nothing sensible to suggest) or was interrupted (the author said stop), for
 * job chapters (no author is waiting on them), and when SUGGESTIONS_ENABLED is off.
 * Suggestions are optional: their failure never changes how the turn ends.
 */
import { isCancellation, log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { TurnStatus } from '../core/domain';
import type { TurnInput } from '../core/turn/turn-types';
import { suggestionsOptions } from './activity-options';

export async function offerSuggestions(
  input: TurnInput,
  status: TurnStatus,
  language: 'zh' | 'en' | null = null,
): Promise<void> {
  if (status === 'failed' || status === 'interrupted' || !input.settings.suggestionsEnabled || input.jobId) return;
  const { suggestNextSteps } = proxyActivities<Pick<Activities, 'suggestNextSteps'>>(
    suggestionsOptions(input.settings),
  );
  try {
    await suggestNextSteps({ turnId: input.turnId, status, ...(language ? { language } : {}) });
  } catch (err) {
    // Even a cancellation only costs the suggestions: finalize (non-cancellable) must still run.
    log.warn('no next-step suggestions; the turn ends without them', {
      turnId: input.turnId,
      cancelled: isCancellation(err),
      error: (err as Error).message,
    });
  }
}
