/**
 * How a turn ends: next-step suggestions, then one `finalizeTurn` activity that saves the
 * assistant message, publishes held text and the terminal events, and releases the session.
 * Every way out of the loop — a decision, an interrupt, an activity that gave up — becomes
 * one `TurnEnd` first.
 */
import { ActivityFailure, CancellationScope, isCancellation, log, upsertSearchAttributes } from '@temporalio/workflow';
import type { FinalizeInput, TurnOutcome } from '../core/turn/turn-types';
import { SA } from '../core/turn/messages';
import type { TurnActivities } from './activities-proxy';
import { activityError, isActivityFailure } from './activity-errors';
import { Interrupted } from './agent-run';
import type { Decision } from './decide';
import { offerSuggestions } from './suggestions';
import type { TurnRunState } from './turn-state';

export type TurnEnd = Pick<FinalizeInput, 'status' | 'stopReason' | 'stopMessage' | 'resume' | 'error'>;

export const COMPLETED: TurnEnd = {
  status: 'completed',
  stopReason: null,
  stopMessage: null,
  resume: null,
  error: null,
};

export function endOf(decision: Exclude<Decision, { action: 'run' }>): TurnEnd {
  if (decision.action === 'complete') return COMPLETED;
  return {
    status: decision.status,
    stopReason: decision.reason,
    stopMessage: decision.message,
    resume: decision.resume,
    error: decision.errorCode ? { code: decision.errorCode, message: decision.message } : null,
  };
}

/** An interrupt, a cancellation or an activity that gave up ends the turn; anything else is a bug (rethrown). */
export function endOnError(st: TurnRunState, err: unknown): TurnEnd | null {
  if (err instanceof Interrupted || isCancellation(err)) {
    st.apply({ type: 'runCut', outcome: 'interrupted' });
    return {
      status: 'interrupted',
      stopReason: 'interrupted',
      stopMessage: 'Stopped by the author.',
      resume: null,
      error: null,
    };
  }
  // A local activity's failure (activity-errors.ts) counts too.
  if (err instanceof ActivityFailure || isActivityFailure(err)) {
    st.apply({ type: 'runCut', outcome: 'failed' });
    // An activity gave up after its retries (or was rejected as a bad request): the turn
    // fails visibly, with what was saved so far kept.
    const cause = activityError(err);
    log.error('turn failed', { turnId: st.input.turnId, error: err.message, cause: cause?.message });
    return {
      status: 'failed',
      stopReason: null,
      stopMessage: null,
      resume: st.agent ? { agent: st.agent, remaining: [...st.remaining] } : null,
      error: { code: 'activity_failed', message: cause?.message ?? err.message },
    };
  }
  return null;
}

export async function finalizeTurn(st: TurnRunState, acts: TurnActivities, end: TurnEnd): Promise<TurnOutcome> {
  const { input } = st;
  await offerSuggestions(input, end.status, st.language);
  st.apply({ type: 'ended', status: end.status });
  upsertSearchAttributes([{ key: SA.TurnStatus, value: end.status }]);
  // Finalizing must happen even when the workflow itself is being cancelled.
  const finalized = await CancellationScope.nonCancellable(() =>
    acts.short.finalizeTurn({
      ...end,
      turnId: input.turnId,
      slot: st.nextSlot(),
      runs: [...st.runs],
      routing: st.routing,
      deferredStops: [...st.blockedHandoffs],
      releaseHeldRuns: [...st.releaseAtFinalize],
      lastStep: st.step,
      ...(st.language ? { language: st.language } : {}),
      sessionId: input.sessionId,
    }),
  );
  const rolledBack = finalized.rolledBack ?? [];
  return {
    status: end.status,
    stopReason: end.stopReason,
    agents: st.runs.map((r) => r.agent),
    filesWritten: st.delivered
      .filter((d) => !rolledBack.includes(d.fileId))
      .map((d) => ({ fileId: d.fileId, title: d.title, type: d.type, bodyWords: d.bodyWords })),
    bodyWords: st.bodyWords,
    usage: { ...st.usage },
  };
}
