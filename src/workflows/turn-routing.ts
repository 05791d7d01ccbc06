/**
 * The turn's first choice: what needs no model is answered
 * here — noise gets a friendly question, run control ("pause the job", "进度怎么样") is
 * done and reported, "no thanks" to an offered step is acknowledged — and everything else
 * gets its routing: forced (job chapters), ROUTER_STRATEGY=off, the rule-based pre-route,
 * or the router model (with a fallback plan if it is unavailable).
 */
import { getExternalWorkflowHandle, isCancellation, log } from '@temporalio/workflow';
import type { PreparedTurn, TurnInput } from '../core/turn/turn-types';
import {
  commandApplies,
  type JobCommandAction,
  jobCommandReply,
  jobQuestionOf,
  jobQuestionReply,
} from '../core/words/job-commands';
import { type MessageReading, readMessage, recordedSegmenter } from '../core/words/reading';
import { pauseJobSignal, resumeJobSignal } from '../core/job/job-messages';
import { cutScope, fallbackRouting, type RoutingDecision, writerAloneRouting } from '../core/plans';
import { applyConfirmationGuard, isNoiseMessage, preRoute } from '../core/words/routing';
import { jobCommandFor } from '../core/turn/routing-choice';
import type { TurnActivities } from './activities-proxy';
import { COMPLETED, type TurnEnd } from './turn-end';
import type { TurnRunState } from './turn-state';

/**
 * The reads prepareTurn starts for what follows routing: the context's, unless the message is
 * noise (no agent run takes them); the router's, unless no router call can follow (a job's
 * chapter turns come routed, ROUTER_STRATEGY=off skips it).
 */
export function readsToPrefetch(input: TurnInput): { context: boolean; router: boolean } {
  const noise = isNoiseMessage(input.message);
  return { context: !noise, router: !noise && !input.jobId && input.settings.routerStrategy !== 'off' };
}

/**
 * Chooses the turn's routing (applied as the `routed` change), or answers the author without a
 * model and says how the turn ends.
 */
export async function routeOrAnswer(
  st: TurnRunState,
  acts: TurnActivities,
  prepared: PreparedTurn,
): Promise<TurnEnd | null> {
  const { input } = st;
  const { message } = input;
  if (!input.forcedRouting && isNoiseMessage(message)) {
    const question = await acts.short.answerNoise({ turnId: input.turnId, slot: st.nextSlot() });
    return {
      status: 'awaiting_author',
      stopReason: 'clarification_requested',
      stopMessage: question,
      resume: null,
      error: null,
    };
  }
  // The message as every rule reads it: its words as the preparation segmented them.
  const reading = readMessage(message, recordedSegmenter(prepared.wordEnds ?? []));
  const control = !input.forcedRouting && !input.jobId ? await controlJob(st, acts, prepared, reading) : null;
  if (control) return control;
  const routing =
    input.forcedRouting ??
    routerOff(input, message) ??
    preRoute(reading, prepared.previous) ??
    // The preparation asked the router already when these rules leave the routing to it.
    prepared.routing ??
    (await routeWithFallback(acts, input.turnId, prepared.routerError));
  const guarded = applyConfirmationGuard(routing, message, prepared.previous);
  st.apply({ type: 'routed', routing: guarded });
  // "不用了" / "no thanks" to an offered step: acknowledged without a model, nothing written.
  if (guarded.source === 'decline_offer') {
    await acts.short.answerNoise({ turnId: input.turnId, slot: st.nextSlot(), kind: 'declined' });
    return COMPLETED;
  }
  return null;
}

/**
 * Run control from chat, answered without a model: an order ("pause the job") is carried out; a
 * yes to the job command the previous turn asked about runs it; a message that would control the
 * job but gives no order ("can you pause the job?", "stop the job") is asked about in one line,
 * and the next plain yes runs it. Null when the message is about something else.
 */
async function controlJob(
  st: TurnRunState,
  acts: TurnActivities,
  prepared: PreparedTurn,
  reading: MessageReading,
): Promise<TurnEnd | null> {
  const { input } = st;
  const language = st.language ?? 'en';
  const command = jobCommandFor(reading, prepared.previous);
  if (command) {
    const lookup = await acts.store.findJobForCommand({ turnId: input.turnId, jobId: command.jobId });
    const signalled =
      lookup.job && command.action !== 'status' && commandApplies(command.action, lookup.job.status)
        ? await signalJob(lookup.job.workflowId, command.action)
        : false;
    const text = jobCommandReply(command, lookup, language, signalled);
    await acts.short.answerNoise({ turnId: input.turnId, slot: st.nextSlot(), kind: 'direct', text });
    return COMPLETED;
  }
  const question = jobQuestionOf(reading);
  if (!question) return null;
  const lookup = await acts.store.findJobForCommand({ turnId: input.turnId, jobId: question.jobId });
  if (!lookup.job || (question.action !== 'stop' && !commandApplies(question.action, lookup.job.status))) return null;
  const text = jobQuestionReply(question, lookup.job, language);
  await acts.short.answerNoise({
    turnId: input.turnId,
    slot: st.nextSlot(),
    kind: 'direct',
    text,
    offer: { kind: 'job', action: question.action, jobId: lookup.job.id },
  });
  return {
    status: 'awaiting_author',
    stopReason: 'clarification_requested',
    stopMessage: text,
    resume: null,
    error: null,
  };
}

/** ROUTER_STRATEGY=off: every turn starts with the writer, no router call and no pre-routing. */
function routerOff(input: TurnInput, message: string): RoutingDecision | null {
  if (input.settings.routerStrategy !== 'off') return null;
  return writerAloneRouting('router_off', cutScope(message.replace(/\s+/g, ' ')), [
    'ROUTER_STRATEGY=off: the writer starts every turn',
  ]);
}

async function routeWithFallback(
  acts: TurnActivities,
  turnId: string,
  preparationFailed: string | undefined,
): Promise<RoutingDecision> {
  try {
    // A call the preparation made and lost was the first attempt: the rest are left.
    return await acts.router(preparationFailed ? 1 : 0).routeTurn({ turnId });
  } catch (err) {
    if (isCancellation(err)) throw err;
    return fallbackRouting(`router unavailable: ${(err as Error).message}`);
  }
}

/** Signals the job's workflow (it may have ended meanwhile: then false, and the reply says how to go on). */
async function signalJob(workflowId: string, action: Exclude<JobCommandAction, 'status'>): Promise<boolean> {
  const job = getExternalWorkflowHandle(workflowId);
  try {
    if (action === 'pause') await job.signal(pauseJobSignal);
    else if (action === 'resume') await job.signal(resumeJobSignal);
    else await job.cancel();
    return true;
  } catch (err) {
    log.warn('could not signal the job', { workflowId, action, error: (err as Error).message });
    return false;
  }
}
