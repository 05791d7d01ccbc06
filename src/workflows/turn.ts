/**
 * The turn workflow: route, run agents, decide after each run, finalize.
 * Deterministic: every side effect is an activity; the manuscript never passes through
 * history (activities exchange ids and compact facts; text stays in MongoDB and Redis).
 */
import {
  ActivityFailure,
  CancellationScope,
  getExternalWorkflowHandle,
  isCancellation,
  setHandler,
  upsertSearchAttributes,
  log,
} from '@temporalio/workflow';
import { draft } from '../core/events';
import { quiet } from '../core/quiet';
import type { FinalizeInput, FinalizeResult, TurnInput, TurnOutcome } from '../core/turn-types';
import { turnActivities } from './activities-proxy';
import { activityError, isActivityFailure } from './activity-errors';
import { Interrupted, runAgent, type RunRequest } from './agent-run';
import { decideAfterRun, type Decision } from './decide';
import { decideApprovalUpdate, interruptSignal, SA, stateQuery, steerSignal } from '../core/messages';
import { buildPacket } from './packets';
import { cutScope, fallbackRouting, type RoutingDecision, type WorkAgent, writerAloneRouting } from '../core/plans';
import { applyConfirmationGuard, isNoiseMessage, preRoute, requestAsksForPlan } from '../core/routing';
import { TurnRunState } from './turn-state';
import { commandApplies, type JobCommandAction, jobCommandOf, jobCommandReply } from '../core/job-commands';
import { cancelJobSignal, pauseJobSignal, resumeJobSignal } from '../core/job-messages';
import { offerSuggestions } from './suggestions';

export async function turnWorkflow(input: TurnInput): Promise<TurnOutcome> {
  const st = new TurnRunState(input);
  const acts = turnActivities(input.settings, { local: true });
  let activeScope: CancellationScope | null = null;

  setHandler(stateQuery, () => st.snapshot());
  setHandler(steerSignal, ({ message }) => {
    st.steering.push(message.slice(0, 4000));
  });
  setHandler(interruptSignal, () => {
    st.interruptRequested = true;
    activeScope?.cancel();
  });
  // The author's answer to the pending approval; any other id was decided or expired (409 at the API).
  setHandler(
    decideApprovalUpdate,
    ({ approvalId, decision }) => {
      st.approvalAnswer = decision;
      return { approvalId, decision };
    },
    {
      validator: ({ approvalId, decision }) => {
        if (decision !== 'approve' && decision !== 'deny') throw new Error(`decision must be approve or deny, not ${String(decision)}`);
        if (!st.pendingApproval || st.pendingApproval.approvalId !== approvalId || st.approvalAnswer !== null)
          throw new Error(`approval ${approvalId} is not pending: it was decided or it expired`);
      },
    },
  );

  const finalize = async (f: Omit<FinalizeInput, 'turnId' | 'slot' | 'runs' | 'routing' | 'deferredStops' | 'releaseHeldRuns' | 'lastStep' | 'sessionId'>): Promise<TurnOutcome> => {
    await offerSuggestions(input, f.status, st.language);
    st.status = f.status;
    upsertSearchAttributes([{ key: SA.TurnStatus, value: f.status }]);
    // Finalizing must happen even when the workflow itself is being cancelled.
    const finalized = await CancellationScope.nonCancellable(() =>
      acts.short.finalizeTurn({
        ...f,
        turnId: input.turnId,
        slot: st.nextSlot(),
        runs: st.runs,
        routing: st.routing,
        deferredStops: st.blockedHandoffs,
        releaseHeldRuns: st.releaseAtFinalize,
        lastStep: st.step,
        ...(st.language ? { language: st.language } : {}),
        sessionId: input.sessionId,
      }),
    );
    return {
      status: f.status,
      stopReason: f.stopReason,
      agents: st.runs.map((r) => r.agent),
      // Older histories recorded finalize without a result.
      filesWritten: st.delivered
        .filter((d) => !(finalized as FinalizeResult | undefined)?.rolledBack?.includes(d.fileId))
        .map((d) => ({ fileId: d.fileId, title: d.title, type: d.type, bodyWords: d.bodyWords })),
      bodyWords: st.bodyWords,
      usage: { ...st.usage },
    };
  };

  try {
    // Seed 004: the first event goes out before any model call, so clients never see silence.
    // Awaited after prepareTurn; a turn cancelled meanwhile leaves through the catch below without
    // awaiting it, and its rejection must not count as unhandled (that failed the workflow task
    // over and over, so the turn never finalized).
    const announced = quiet(acts.short.announceTurn({ turnId: input.turnId, sessionId: input.sessionId, slot: st.nextSlot() }));
    // The announcement and the turn's reads run side by side (turn_started has the first slot).
    const prepared = await acts.short.prepareTurn({
      turnId: input.turnId,
      sessionId: input.sessionId,
      projectId: input.projectId,
      ...(input.openingSeq ? { openingSeq: input.openingSeq } : {}),
    });
    await announced;
    st.language = prepared.language;
    // Seed 004 L1: noise ("???", "…") gets a friendly question and no agent work.
    if (!input.forcedRouting && isNoiseMessage(prepared.message)) {
      const question = await acts.short.answerNoise({ turnId: input.turnId, slot: st.nextSlot() });
      return await finalize({ status: 'awaiting_author', stopReason: 'clarification_requested', stopMessage: question, resume: null, error: null });
    }
    // Seed 004 L1: "pause the job", "进度怎么样" are run control, answered without a model.
    const command = !input.forcedRouting && !input.jobId ? jobCommandOf(prepared.message) : null;
    if (command) {
      const lookup = await acts.store.findJobForCommand({ turnId: input.turnId, jobId: command.jobId });
      const signalled = lookup.job && command.action !== 'status' && commandApplies(command.action, lookup.job.status) ? await signalJob(lookup.job.workflowId, command.action) : false;
      const text = jobCommandReply(command, lookup, st.language ?? 'en', signalled);
      await acts.short.answerNoise({ turnId: input.turnId, slot: st.nextSlot(), kind: 'direct', text });
      return await finalize({ status: 'completed', stopReason: null, stopMessage: null, resume: null, error: null });
    }
    st.routing = input.forcedRouting ?? routerOff(input, prepared.message) ?? preRoute(prepared.message, prepared.previous) ?? (await routeWithFallback(acts, input.turnId));
    st.routing = applyConfirmationGuard(st.routing, prepared.message, prepared.previous);
    // "不用了" / "no thanks" to an offered step: acknowledged without a model, nothing written.
    if (st.routing.source === 'decline_offer') {
      await acts.short.answerNoise({ turnId: input.turnId, slot: st.nextSlot(), kind: 'declined' });
      return await finalize({ status: 'completed', stopReason: null, stopMessage: null, resume: null, error: null });
    }
    st.remaining = [...st.routing.workflow_agents];
    upsertSearchAttributes([{ key: SA.WorkflowPlan, value: st.routing.workflow_plan }]);

    let next: { agent: WorkAgent; kind: RunRequest['kind']; note: string; writerQuestion?: string | null } = {
      agent: st.routing.current_agent,
      kind: 'initial',
      note: '',
    };
    const from: { agent: WorkAgent | null } = { agent: null };
    for (;;) {
      st.run += 1;
      st.agent = next.agent;
      upsertSearchAttributes([{ key: SA.CurrentAgent, value: next.agent }]);
      if (from.agent && next.kind !== 'initial')
        st.prelude.push(
          draft('handoff', { from: from.agent, to: next.agent, kind: handoffKind(next.kind), reason: next.note.split('\n')[0]!.slice(0, 300) }, { turnId: input.turnId }),
        );
      st.prelude.push(
        draft('agent_selected', { agent: next.agent, reason: next.kind === 'initial' ? `routing: ${st.routing.source}` : next.kind, plan: st.routing.workflow_plan, run: st.run }, { turnId: input.turnId, agent: next.agent }),
      );
      if (next.agent === 'quality_reviewer' && next.kind === 'review_gate') st.bodyWordsReviewed = st.bodyWords;
      if (next.agent === 'quality_reviewer' && (next.kind === 'review_gate' || next.kind === 'explicit')) st.reviewRounds += 1;
      st.currentKind = next.kind;
      const packet =
        next.kind === 'initial'
          ? null
          : buildPacket({
              from: from.agent ?? next.agent,
              to: next.agent,
              kind: next.kind,
              scope: st.routing.scope,
              note: next.note,
              delivered: st.delivered,
              review:
                next.kind === 'review_gate'
                  ? { bodyWords: st.bodyWords, lengthRequirements: prepared.lengthRequirements, writerQuestion: next.writerQuestion ?? null }
                  : undefined,
            });
      const facts = await runAgent(st, { agent: next.agent, kind: next.kind, packet }, { acts, setActiveScope: (s) => (activeScope = s) });
      if (next.kind === 'planner_repair') st.plannerRepairDone = true;

      const maxReviewRounds = input.settings.maxReviewRounds ?? DEFAULT_REVIEW_MAX_ROUNDS;
      const { decision, blockedHandoff, droppedHandoff } = decideAfterRun(facts, {
        routing: st.routing,
        remaining: st.remaining,
        runsSoFar: st.run,
        maxRuns: input.settings.maxAgentRuns,
        bodyWordsThisTurn: st.bodyWords,
        bodyWordsReviewed: st.bodyWordsReviewed,
        reviewThreshold: input.settings.reviewWordThreshold,
        plannerRepairDone: st.plannerRepairDone,
        requestAsksForPlan: requestAsksForPlan(prepared.message),
        wroteOutline: st.wroteOutline,
        emptyFileRepair: facts.emptyFile != null && !st.routing.read_only,
        repairedFileIds: st.repairedFileIds,
        carried: st.carried,
        reviewRounds: st.reviewRounds,
        maxReviewRounds: st.reviewRounds >= maxReviewRounds ? maxReviewRounds : null,
        language: prepared.language,
      });
      if (next.kind === 'empty_file_repair') st.carried = null;
      if (decision.action === 'run' && decision.repair) {
        // The correction round writes into the same file: it is pending again for the body.
        st.repairedFileIds.push(decision.repair.fileId);
        st.carried = decision.repair.carried;
        st.pendingFileId = decision.repair.fileId;
        st.pendingFileIsBody = st.emptyFile?.isBody ?? false;
      }
      if (blockedHandoff) st.blockedHandoffs.push({ reason: 'read_only_handoff_blocked', message: blockedHandoff.message });
      if (droppedHandoff) log.info('explicit handoff dropped on a clarify-first turn', { turnId: input.turnId });
      st.runs.push({ run: st.run, agent: next.agent, kind: next.kind, outcome: outcomeLabel(decision), textDropped: false });
      await settleHeldText(st, acts, decision);

      if (decision.action === 'run') {
        from.agent = next.agent;
        st.remaining = decision.remaining;
        next = { agent: decision.agent, kind: decision.kind, note: decision.note, writerQuestion: decision.writerQuestion };
        continue;
      }
      if (decision.action === 'complete') return await finalize({ status: 'completed', stopReason: null, stopMessage: null, resume: null, error: null });
      return await finalize({
        status: decision.status,
        stopReason: decision.reason,
        stopMessage: decision.message,
        resume: decision.resume,
        error: decision.errorCode ? { code: decision.errorCode, message: decision.message } : null,
      });
    }
  } catch (err) {
    if (err instanceof Interrupted || isCancellation(err)) {
      keepRunInFlight(st, 'interrupted');
      return finalize({ status: 'interrupted', stopReason: 'interrupted', stopMessage: 'Stopped by the author.', resume: null, error: null });
    }
    // A local activity's failure (activity-errors.ts) counts too.
    if (err instanceof ActivityFailure || isActivityFailure(err)) {
      keepRunInFlight(st, 'failed');
      // An activity gave up after its retries (or was rejected as a bad request): the turn
      // fails visibly, with what was saved so far kept.
      const cause = activityError(err);
      log.error('turn failed', { turnId: input.turnId, error: err.message, cause: cause?.message });
      return finalize({
        status: 'failed',
        stopReason: null,
        stopMessage: null,
        resume: st.agent ? { agent: st.agent, remaining: st.remaining } : null,
        error: { code: 'activity_failed', message: cause?.message ?? err.message },
      });
    }
    throw err;
  }
}

/** Default of REVIEW_MAX_ROUNDS for turns whose settings predate it. */
const DEFAULT_REVIEW_MAX_ROUNDS = 2;

/**
 * A turn that fails or is interrupted mid-run still records that run, so its text (held or
 * streamed) is saved in the assistant message, and releases held writer text instead of
 * losing it: nothing follows that could replace it.
 */
function keepRunInFlight(st: TurnRunState, outcome: 'interrupted' | 'failed'): void {
  if (st.agent && st.run > 0 && !st.runs.some((r) => r.run === st.run))
    st.runs.push({ run: st.run, agent: st.agent, kind: st.currentKind, outcome, textDropped: false });
  st.releaseAtFinalize = [...new Set([...st.releaseAtFinalize, ...st.heldRuns])];
  st.heldRuns = [];
}

/** ROUTER_STRATEGY=off (seed 001 router "off"): every turn starts with the writer, no router call and no pre-routing. */
function routerOff(input: TurnInput, message: string): RoutingDecision | null {
  if (input.settings.routerStrategy !== 'off') return null;
  return writerAloneRouting('router_off', cutScope(message.replace(/\s+/g, ' ')), ['ROUTER_STRATEGY=off: the writer starts every turn']);
}

async function routeWithFallback(acts: ReturnType<typeof turnActivities>, turnId: string): Promise<RoutingDecision> {
  try {
    return await acts.router.routeTurn({ turnId });
  } catch (err) {
    if (isCancellation(err)) throw err;
    return fallbackRouting(`router unavailable: ${(err as Error).message}`);
  }
}

function handoffKind(kind: RunRequest['kind']): 'explicit' | 'planned' | 'review_gate' | 'continuation' | 'planner_repair' | 'empty_file_repair' {
  if (kind === 'writer_after_question') return 'planned';
  if (kind === 'initial') return 'planned';
  return kind;
}

function outcomeLabel(d: Decision): string {
  if (d.action === 'run') return `→ ${d.agent} (${d.kind})`;
  if (d.action === 'complete') return 'complete';
  return d.reason;
}

/**
 * Writer summary hold (seed 001 CHAT_HOLD): a writer's closing text is held while a review
 * may follow. Handing to the reviewer drops it (the reviewer writes the one summary);
 * anything else releases it before the next event.
 */
async function settleHeldText(st: TurnRunState, acts: ReturnType<typeof turnActivities>, d: Decision): Promise<void> {
  if (st.heldRuns.length === 0) return;
  // The writer goes on (continuation or empty-file correction): its text stays held.
  if (d.action === 'run' && (d.kind === 'continuation' || d.kind === 'empty_file_repair') && d.agent === 'writer') return;
  const drop = d.action === 'run' && d.agent === 'quality_reviewer';
  // Released text is text the author has seen; dropped text never was.
  if (!drop) st.shownText ||= st.heldText;
  st.heldText = false;
  if (!drop && d.action !== 'run') {
    // The turn ends next: finalize publishes the held text, saving an activity round trip.
    st.releaseAtFinalize = [...st.heldRuns];
    st.heldRuns = [];
    return;
  }
  if (drop) {
    for (const rec of st.runs) if (st.heldRuns.includes(rec.run)) rec.textDropped = true;
  } else {
    // One activity for every held run.
    await acts.short.releaseHeldText({ turnId: st.input.turnId, runs: [...st.heldRuns], slot: st.nextSlot(), agent: 'writer' });
  }
  st.heldRuns = [];
}

/** Signals the job's workflow (it may have ended meanwhile: then false, and the reply says how to go on). */
async function signalJob(workflowId: string, action: Exclude<JobCommandAction, 'status'>): Promise<boolean> {
  const job = getExternalWorkflowHandle(workflowId);
  try {
    if (action === 'pause') await job.signal(pauseJobSignal);
    else if (action === 'resume') await job.signal(resumeJobSignal);
    else await job.signal(cancelJobSignal, { reason: 'cancelled from chat' });
    return true;
  } catch (err) {
    log.warn('could not signal the job', { workflowId, action, error: (err as Error).message });
    return false;
  }
}
