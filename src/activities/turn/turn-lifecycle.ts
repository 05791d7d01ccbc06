/**
 * activities/turn/: a turn's own activities around the model step. Its opening
 * (turn-opening.ts); its start and the reads ahead of routing (turn-prepare.ts,
 * session-messages.ts, router-input.ts); the router's model call (router.ts); approvals
 * (approvals.ts); and its end: its records read back (turn-reads.ts), the task board
 * (task-board.ts), next-step suggestions (suggestions.ts) and the record of what the author saw
 * (turn-view-record.ts). This file is the entry: the start and the end the worker registers;
 * finalize is turn-finalize.ts, the reply's record it writes turn-record.ts.
 */
/**
 * Turn lifecycle activities: load what the workflow needs to route (turn-prepare.ts), release
 * held chat text, and finalize (turn-finalize.ts). Each is idempotent: finalize run twice
 * writes the same documents once.
 */
import type { WorkAgent } from '../../core/plans';
import { draft, type AnyEventDraft } from '../../core/events';
import type { FinalizeInput, FinalizeResult } from '../../core/turn/turn-types';
import type { ActivityDeps } from '../deps';
import { publisherFor } from '../stream/publish';
import { createTurnPrepareActivities } from './turn-prepare';
import { finalizeTurn } from './turn-finalize';

/** The turn's activities the worker registers: its start (turn-prepare.ts) and its end. */
export function createTurnLifecycleActivities(deps: ActivityDeps) {
  return { ...createTurnPrepareActivities(deps), ...createTurnEndActivities(deps) };
}

/** The end of a turn: held chat text released, and the turn's record finalized. */
function createTurnEndActivities(deps: ActivityDeps) {
  return {
    /** Publishes held chat text after all (no review followed): one run, or several at once. */
    async releaseHeldText(input: ReleaseHeldTextInput): Promise<void> {
      return releaseHeldText(deps, input);
    },

    async finalizeTurn(input: FinalizeInput): Promise<FinalizeResult> {
      return finalizeTurn(deps, input);
    },
  };
}

type ReleaseHeldTextInput = { turnId: string; runs: number[]; slot: number; agent: WorkAgent };

/** The held text of the runs' steps, published in step order. */
async function releaseHeldText(deps: ActivityDeps, input: ReleaseHeldTextInput): Promise<void> {
  const steps = await deps.models.AgentStep.find({ turnId: input.turnId, run: { $in: input.runs } })
    .sort({ step: 1 })
    .lean();
  // Only the held steps: earlier steps of the same run already streamed live.
  const events: AnyEventDraft[] = steps
    .filter((s) => s.held && s.text)
    .map((s) =>
      draft(
        'content',
        { delta: s.text },
        { turnId: input.turnId, agent: s.agent as WorkAgent, step: s.step, attempt: s.attempt },
      ),
    );
  await publisherFor(deps, 'turn', input.turnId, input.slot).publish(events);
}
