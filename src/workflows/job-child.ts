/**
 * Runs one child turn of a job: records its author message (activity), starts workflow
 * `turn-<turnId>` and waits for its outcome. The child runs in its own cancellation scope
 * so `cancel` can stop it; with WAIT_CANCELLATION_COMPLETED the job waits until the turn
 * has finalized as `interrupted` (its LLM activity is cancelled through its heartbeat),
 * so nothing of the chapter in flight is still writing when the job reports cancelled.
 */
import { turnStartOptions } from '../core/turn/turn-start';
import {
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowCancellationType,
  ChildWorkflowFailure,
  isCancellation,
  ParentClosePolicy,
  proxyActivities,
  proxyLocalActivities,
  type ActivityInterfaceFor,
  startChild,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { TurnInput, TurnOutcome } from '../core/turn/turn-types';
import { type JobSettings, type OpenedJobTurn, type OpenJobTurnInput } from '../core/job/job-messages';
import { FailureType } from '../core/failure-types';
import { activityError, isActivityFailure } from './activity-errors';
import { jobLocalOptions, jobOptions } from './activity-options';
import type { JobRunState } from './job-state';
import { type RoutingDecision, writerAloneRouting } from '../core/plans';
import type { turnWorkflow } from './turn';

type JobActivity =
  | 'openJobTurn'
  | 'abandonJobTurn'
  | 'existingChapters'
  | 'jobCost'
  | 'jobOutlineStatus'
  | 'reviewVerdict'
  | 'finishChapter'
  | 'recordJob';

/**
 * Job bookkeeping never gives up: a job should outlive a MongoDB or Redis outage (its options
 * are in activity-options.ts).
 *
 * It runs as local activities (as a turn's bookkeeping does): between two chapters the job made two activity calls, each costing a workflow task and
 * a dispatch through the server (bench:job: ~110 ms between a chapter's end and the next
 * chapter's start). They are idempotent, which a local activity needs. Retries backing off
 * past 2 s become workflow timers, so a pause or cancel is still handled during an outage.
 * Opening a chapter's turn is tried locally once; when the session is busy (an author's turn
 * holds it) the job waits for it as a regular activity, with its heartbeat and Temporal UI entry.
 */
export function jobActivities(settings: JobSettings, opts: { local?: boolean } = {}) {
  const remote = proxyActivities<Pick<Activities, JobActivity>>(jobOptions(settings.turn));
  if (!opts.local) return { ...pick(remote), openJobTurnHere: null };
  const local = proxyLocalActivities<Pick<Activities, JobActivity>>(jobLocalOptions());
  return { ...pick(local), openJobTurn: remote.openJobTurn, openJobTurnHere: local.openJobTurn };
}
export type JobActivities = ReturnType<typeof jobActivities>;

/** A proxy's functions by name (proxies cannot be spread). */
function pick(p: ActivityInterfaceFor<Pick<Activities, JobActivity>>) {
  return {
    openJobTurn: p.openJobTurn,
    abandonJobTurn: p.abandonJobTurn,
    existingChapters: p.existingChapters,
    jobCost: p.jobCost,
    jobOutlineStatus: p.jobOutlineStatus,
    reviewVerdict: p.reviewVerdict,
    finishChapter: p.finishChapter,
    recordJob: p.recordJob,
  };
}

/** Opens the turn: locally first when the job runs local activities, waiting for a busy session remotely. */
async function openTurn(acts: JobActivities, open: OpenJobTurnInput, summary: string): Promise<OpenedJobTurn> {
  if (acts.openJobTurnHere) {
    try {
      return await acts.openJobTurnHere.executeWithOptions({ summary }, [{ ...open, failWhenBusy: true }]);
    } catch (err) {
      const cause = activityError(err);
      if (!(cause instanceof ApplicationFailure && cause.type === FailureType.SessionBusy)) throw err;
    }
  }
  return acts.openJobTurn.executeWithOptions({ summary }, [open]);
}

export type ChildResult =
  | { kind: 'ended'; turnId: string; outcome: TurnOutcome }
  | { kind: 'cancelled'; turnId: string | null }
  | { kind: 'failed'; turnId: string | null; message: string };

export interface ChildRequest {
  open: OpenJobTurnInput;
  routing: RoutingDecision;
  /** Review gate threshold for this turn: 1 forces the review, a huge number turns it off. */
  reviewWordThreshold: number;
  summary: string;
  /** Announces the turn to clients: once its child has started (before it, in jobs older than h14). */
  onTurn(turnId: string): void;
}

export async function runChildTurn(st: JobRunState, acts: JobActivities, req: ChildRequest): Promise<ChildResult> {
  const input = st.input;
  let turnId: string | null = null;
  let started = false;
  try {
    return await CancellationScope.cancellable(async () => {
      const scope = CancellationScope.current();
      st.apply({ type: 'childStarted', scope });
      if (st.cancelRequested) scope.cancel();
      const { kind, chapter, round } = req.open;
      const label =
        kind === 'outline' ? 'outline' : `chapter ${chapter}${kind === 'revision' ? ` revision ${round}` : ''}`;
      const opened = await openTurn(
        acts,
        { ...req.open, sessionId: input.sessionId, projectId: input.projectId },
        `open turn · ${label}`,
      );
      turnId = opened.turnId;
      st.apply({ type: 'turnOpened', turnId });
      const turnInput: TurnInput = {
        turnId,
        sessionId: input.sessionId,
        projectId: input.projectId,
        ownerId: input.ownerId,
        message: opened.message,
        settings: { ...input.settings.turn, reviewWordThreshold: req.reviewWordThreshold },
        forcedRouting: req.routing,
        jobId: input.jobId,
        ...(opened.openingSeq ? { openingSeq: opened.openingSeq } : {}),
      };
      const handle = await startChild<typeof turnWorkflow>('turnWorkflow', {
        ...turnStartOptions(turnInput, req.summary),
        cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
        // An operator terminating the job must not leave a chapter writing on its own.
        parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
      });
      started = true;
      // Announced once the child has started: a workflow task waits for its local activities
      // before it completes, so announcing first held back the child's start (~12 ms a chapter).
      req.onTurn(turnId);
      const outcome = await handle.result();
      return { kind: 'ended' as const, turnId, outcome };
    });
  } catch (err) {
    if (isCancellation(err)) {
      // Recorded but never started: close the turn so the session lock is not held forever.
      if (turnId && !started) await CancellationScope.nonCancellable(() => acts.abandonJobTurn({ turnId: turnId! }));
      return { kind: 'cancelled', turnId };
    }
    if (err instanceof ChildWorkflowFailure || isActivityFailure(err))
      return { kind: 'failed', turnId, message: `${err.message}${err.cause ? `: ${err.cause.message}` : ''}` };
    throw err;
  } finally {
    st.apply({ type: 'childEnded' });
  }
}

/** Forced routing of a chapter turn: the writer alone (the review gate adds the reviewer). */
export function writerRouting(scope: string): RoutingDecision {
  return writerAloneRouting('forced', scope, ['job chapter']);
}

/** Forced routing of the outline turn: the planner alone, no prose. */
export function plannerRouting(scope: string): RoutingDecision {
  return {
    current_agent: 'planner',
    workflow_plan: 'standard',
    workflow_agents: [],
    write_content: false,
    read_only: false,
    scope,
    clarify_first: false,
    source: 'forced',
    notes: ['job outline'],
  };
}
