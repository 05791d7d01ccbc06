/**
 * activities/step/: the LLM step, one agent step's model call and all it does inside that one
 * activity: the messages it sends (agent-messages.ts; what follows the author's message,
 * prompt-tail.ts; review-evidence.ts for the reviewer), the streamed answer (llm-stream.ts,
 * watched for stalls by stream-idle.ts), the checkpoint a retried attempt goes on from
 * (step-partial.ts), provider errors sorted into retryable or not (llm-errors.ts, which the
 * router uses too), the `<file>` body saved (capture.ts), the answer put on record
 * (step-record.ts) and the tool calls run (step-tools.ts). This file is the activity itself:
 * its attempt, opening and continuation.
 */
/**
 * The LLM step activity: one streamed model call for one agent step.
 *
 * - Streams tokens to the turn's Redis stream as they arrive (llm-stream.ts: chat text as
 *   `content`, `<file>` bodies as `file_content`), heartbeating with the stream position so
 *   Temporal notices a dead worker within the heartbeat timeout.
 * - Passes the activity's cancellation signal to the request: an interrupt stops the model.
 * - On attempt > 1 goes on from the text the earlier attempt streamed (`step_resumed`), or
 *   starts over (`step_retry`: clients drop what STEP_RETRY_VOIDS names of that step, and
 *   keep the rest, which is never sent twice); step-partial.ts.
 * - Saves the step's transcript in MongoDB and returns only compact facts to the workflow
 *   (step-record.ts).
 */
import { heartbeatPace, heartbeatWhile } from '../heartbeat';
import { Context } from '@temporalio/activity';
import { REVIEW_CONTENT_MARKER } from '../../core/model/markers';
import { type AnyEventDraft, draft } from '../../core/events';
import { STEP_RETRY_STANDS, STEP_RETRY_VOIDS } from '../../core/step-retry';
import type { LlmStepInput, LlmStepResult } from '../../core/turn/turn-types';
import { buildAgentMessages } from './agent-messages';
import type { ActivityDeps } from '../deps';
import { publisherFor } from '../stream/publish';
import { type StepBeat, streamAnswer } from './llm-stream';
import { reviewContent } from './review-evidence';
import { resumeStep } from './step-tools';
import { EarlySiblingCounts } from '../tools/sibling-counts';
import { resolveContinuation } from '../../core/model/continuation';
import { earlierAttempt, StepCheckpoint } from './step-partial';
import { recordStep, type StepAttempt } from './step-record';

export function createLlmActivities(deps: ActivityDeps) {
  const pace = heartbeatPace(deps);
  return {
    /** One model call, heartbeating from its start with where it is (the stream position, or its tool calls). */
    llmStep(input: LlmStepInput): Promise<LlmStepResult> {
      const beat: StepBeat = { chars: 0, tools: false };
      return heartbeatWhile(
        Context.current(),
        pace,
        () => ({ step: input.step, ...beat }),
        () => runStep(deps, input, beat),
      );
    },
  };
}

/** One attempt: go on from a recorded answer, or open, stream the answer and record it. */
async function runStep(deps: ActivityDeps, input: LlmStepInput, beat: StepBeat): Promise<LlmStepResult> {
  const ctx = Context.current();
  const attempt = ctx.info.attempt;
  const envelope = { turnId: input.turnId, agent: input.agent, step: input.step, attempt };
  const publisher = publisherFor(deps, 'turn', input.turnId, input.slot);
  const stamp = (d: AnyEventDraft): AnyEventDraft => ({ ...d, ...envelope });

  const firstOfRun = input.prelude.some((e) => e.type === 'agent_selected');
  deps.faults?.hit('llm.start', { agent: input.agent, run: input.run, kind: input.runKind, firstOfRun, attempt });
  // A retried step whose answer is on record (it was running its tool calls) goes on from there.
  if (attempt > 1 && input.runTools) {
    beat.tools = true;
    const resumed = await resumeStep(deps, input, publisher, attempt, ctx.cancellationSignal);
    if (resumed) return resumed;
  }
  const step: StepAttempt = {
    input,
    attempt,
    signal: ctx.cancellationSignal,
    publisher,
    stamp,
    beat,
    ...(await continuation(deps, input, attempt)),
  };
  const opened = await openStep(deps, step);
  // A create_file call's folder count, read while the call streams (sibling-counts.ts).
  const siblingCounts = new EarlySiblingCounts(deps.models, opened.turn.projectId);
  const answer = await streamAnswer(deps, { ...step, ...opened, siblingCounts });
  // A context this step built was stored while the model answered; nothing of the answer
  // (transcript, file, tool call) goes on record before it is.
  await opened.storeContext();
  return recordStep(deps, step, opened, answer, siblingCounts);
}

/**
 * The opening events go out while the prompt is built (Redis and MongoDB in parallel);
 * both are done before the first streamed event, so the order on the stream is unchanged.
 */
async function openStep(deps: ActivityDeps, { input, attempt, publisher, stamp, resume }: StepAttempt) {
  const { config } = deps;
  const opened = (async () => {
    await publisher.publish(input.prelude.map((d) => ({ ...d, attempt })));
    if (attempt > 1) {
      await publisher.continueAfterExisting();
      await publisher.publish([stamp(retryEvent(input.step, attempt, resume?.text ?? null))]);
    }
  })();
  // The turn's context is assembled once (by its first step) and read back here.
  const expanded = expandPacket(deps, input);
  const prompt = buildAgentMessages(
    deps.models,
    deps.caches,
    input,
    {
      contextTokens: config.AGENT_CONTEXT_TOKEN_BUDGET,
      historyTokens: config.AGENT_CHAT_HISTORY_TOKEN_BUDGET,
      ledgerCeiling: config.PROMPT_TOKEN_LEDGER_CEILING,
      workingSetMaxFiles: config.AGENT_WORKING_SET_MAX_FILES,
      workingSetMaxChars: config.AGENT_WORKING_SET_MAX_CHARS,
    },
    expanded,
  );
  const [, packet, { messages, owner: turn, toolTurn, language, storeContext }] = await Promise.all([
    opened,
    expanded,
    prompt,
  ]);
  return { packet, messages, turn, toolTurn, language, storeContext };
}

/**
 * How this attempt starts (step-partial.ts): a first attempt checkpoints its text from the
 * start; a retry goes on from what an earlier attempt streamed, or starts over when there is
 * nothing to go on from (or it was inside a tool call). `LLM_CONTINUATION=off`: no checkpoint.
 */
async function continuation(
  deps: ActivityDeps,
  input: LlmStepInput,
  attempt: number,
): Promise<Pick<StepAttempt, 'checkpoint' | 'resume'>> {
  const { config, redis } = deps;
  const strategy = resolveContinuation(config.LLM_CONTINUATION, config.OPENAI_BASE_URL);
  if (strategy === 'off') return { checkpoint: null, resume: null };
  const key = { prefix: config.REDIS_KEY_PREFIX, turnId: input.turnId, step: input.step };
  // Kept while a retry may still come: the step's own time limit, then as long as the stream.
  const ttl = config.LLM_STEP_TIMEOUT_SECONDS + config.STREAM_TTL_SECONDS;
  if (attempt === 1) return { checkpoint: new StepCheckpoint(redis, key, attempt, ttl, ''), resume: null };
  const earlier = await earlierAttempt(redis, key, attempt);
  const text = earlier.resume ? earlier.text : '';
  const checkpoint = new StepCheckpoint(redis, key, attempt, ttl, text);
  // On record before the attempt announces itself, so a third attempt reads where this one starts.
  await checkpoint.begin(text);
  return { checkpoint, resume: earlier.resume ? { text, strategy } : null };
}

/** A retried step's first event: go on from the kept text, or drop the earlier attempt's. */
function retryEvent(step: number, attempt: number, kept: string | null): AnyEventDraft {
  return kept
    ? draft('step_resumed', {
        step,
        attempt,
        keptChars: kept.length,
        message: 'The previous attempt of this step was interrupted; its text is kept and the step goes on from there.',
      })
    : draft('step_retry', { attempt, message: STEP_RETRY_MESSAGE });
}

/** What a client does on `step_retry`, said from the contract's lists (a client reading it follows the contract). */
const STEP_RETRY_MESSAGE =
  `The previous attempt of this step was interrupted and the step starts over: drop its ${STEP_RETRY_VOIDS.join(', ')} ` +
  `events so far; its ${STEP_RETRY_STANDS.join(', ')} events stand and are not sent again.`;

/**
 * The run's packet as the model sees it: the first step expands the review-content marker
 * from MongoDB (the same on a retry: the files do not change while the reviewer reads).
 * Later steps of the run get the packet the first step stored (buildAgentMessages reads
 * it from the run's steps), so it stays in view after tool calls and the prefix is stable.
 */
async function expandPacket(deps: ActivityDeps, input: LlmStepInput): Promise<string | null> {
  if (!input.packet || !input.packet.includes(REVIEW_CONTENT_MARKER)) return input.packet;
  // The fact check's lines are in the session's language (the draft's when an older history has none).
  const content = await reviewContent(deps.models, input.turnId, deps.config.REVIEW_EVIDENCE_MAX_CHARS, {
    budgetMs: deps.config.FACT_CHECK_BUDGET_MS,
    ...(input.language ? { language: input.language } : {}),
    ...(input.projectId ? { projectId: input.projectId } : {}),
  });
  return input.packet.replace(REVIEW_CONTENT_MARKER, () => `${REVIEW_CONTENT_MARKER}\n${content}`);
}
