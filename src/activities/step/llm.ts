/**
 * activities/step/: the LLM step, one agent step's model call and all it does inside that one
 * activity: the messages it sends (agent-messages.ts, with review-evidence.ts for the
 * reviewer), the streamed answer (llm-stream.ts, watched for stalls by stream-idle.ts), the
 * checkpoint a retried attempt goes on from (step-partial.ts), provider errors sorted into
 * retryable or not (llm-errors.ts, which the router uses too), the `<file>` body saved
 * (capture.ts) and the tool calls run (step-tools.ts). This file is the activity itself.
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
 * - Saves the step's transcript in MongoDB and returns only compact facts to the workflow.
 */
import { heartbeatPace, heartbeatWhile } from '../heartbeat';
import { Context } from '@temporalio/activity';
import type OpenAI from 'openai';
import { REVIEW_CONTENT_MARKER } from '../../core/model/markers';
import { endsWithQuestion, lastQuestion, planUnits } from '../../core/model/file-stream';
import { type AnyEventDraft, draft, type StreamEvent, type UsageData } from '../../core/events';
import { STEP_RETRY_STANDS, STEP_RETRY_VOIDS } from '../../core/step-retry';
import { countWords, tail } from '../../core/text';
import type { LlmStepInput, LlmStepResult, ToolOutcome } from '../../core/turn/turn-types';
import { buildAgentMessages } from './agent-messages';
import { countTokens } from '../context';
import type { ActivityDeps } from '../deps';
import { type CountingPublisher, publisherFor } from '../stream/publish';
import { type AssembledCall, type StepBeat, streamAnswer, type StreamedAnswer } from './llm-stream';
import { priced, providerUsage, recordUsage } from '../usage';
import { reviewContent } from './review-evidence';
import { stepId, usageId } from '../../core/turn/record-ids';
import { saveCapture, stepCaptureKey } from './capture';
import { readToolTurn, resumeStep, runStepTools, runsToolsInStep } from './step-tools';
import { quiet } from '../../core/quiet';
import { EarlySiblingCounts } from '../tools/sibling-counts';
import { type ContinuationStrategy, resolveContinuation } from '../../core/model/continuation';
import { earlierAttempt, StepCheckpoint } from './step-partial';

/** Shortens long string arguments for a tool card; the full call stays in MongoDB. */
function cardArguments(raw: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw || '{}');
  } catch {
    return { _raw: raw.slice(0, 200) };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { _value: parsed };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(parsed))
    out[k] = typeof v === 'string' && v.length > 300 ? `${v.slice(0, 300)}… [${v.length} chars]` : v;
  return out;
}

export function toolSummary(name: string, raw: string): string {
  try {
    const a = JSON.parse(raw || '{}') as Record<string, unknown>;
    const target = a.title ?? a.agent ?? a.query ?? a.id ?? a.operation ?? '';
    return `${name}${target ? ` ${String(target).slice(0, 60)}` : ''}`;
  } catch {
    return name;
  }
}

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

/** What one attempt of a step shares between its phases. */
interface StepAttempt {
  input: LlmStepInput;
  attempt: number;
  signal: AbortSignal;
  publisher: CountingPublisher;
  stamp: (d: AnyEventDraft) => AnyEventDraft;
  beat: StepBeat;
  /** This attempt's text checkpoint, and the text an earlier attempt streamed to go on from. */
  checkpoint: StepCheckpoint | null;
  resume: { text: string; strategy: Exclude<ContinuationStrategy, 'off'> } | null;
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

type OpenedStep = Awaited<ReturnType<typeof openStep>>;

/** The answer's tool calls (those with a name), each with an id of its own. */
function namedToolCalls(input: LlmStepInput, calls: AssembledCall[]): AssembledCall[] {
  const toolCalls = calls.filter((c) => c.name);
  toolCalls.forEach((c, i) => (c.id ||= `call_${input.step}_${i}`));
  // Each call is executed and answered on its own, keyed by its id: a model that gives two
  // calls one id (seen from real models) would have the second answered with the first's
  // outcome, and never run. Later duplicates get an id of their own, which the transcript,
  // the cards and the next request's history all use.
  const seen = new Set<string>();
  for (const [i, c] of toolCalls.entries()) {
    if (seen.has(c.id)) c.id = `${c.id}__${i}`;
    seen.add(c.id);
  }
  return toolCalls;
}

type Capture = { fileId: string; body: string; closed: boolean };

/** What the step's answer leaves to put on record, shared by its two endings. */
interface StepEnding {
  toolCalls: AssembledCall[];
  usageData: UsageData;
  /** The captured body's save, started already (null: nothing captured). */
  saving: ReturnType<typeof saveStepCapture> | null;
  /** Writes the step's transcript (with `extra` fields). */
  store: (extra?: object) => Promise<unknown>;
  usageRecorded: Promise<unknown>;
  result: (saved: ToolOutcome | null) => LlmStepResult;
}

/** The step's transcript as stored. */
function stepDocument(
  { input, attempt }: StepAttempt,
  opened: OpenedStep,
  answer: StreamedAnswer,
  toolCalls: AssembledCall[],
  capture: Capture | null,
) {
  return {
    _id: stepId(input.turnId, input.step),
    turnId: input.turnId,
    run: input.run,
    step: input.step,
    agent: input.agent,
    text: answer.chatText,
    held: input.holdChat,
    packet: input.packet ? opened.packet : null,
    rawContent: answer.rawContent,
    toolCalls,
    toolResults: [],
    captured: capture ? [{ fileId: capture.fileId, closed: capture.closed }] : [],
    attempt,
  };
}

/** The compact facts the workflow gets of the step. */
function stepResult(
  answer: StreamedAnswer,
  toolCalls: AssembledCall[],
  capture: Capture | null,
  usageData: UsageData,
  saved: ToolOutcome | null,
): LlmStepResult {
  const { processor, chatText } = answer;
  return {
    toolCalls: toolCalls.map((c) => ({ id: c.id, name: c.name, summary: toolSummary(c.name, c.arguments) })),
    textChars: chatText.length,
    textTail: tail(chatText, 600),
    endsWithQuestion: toolCalls.length === 0 && endsWithQuestion(chatText),
    question: toolCalls.length === 0 ? lastQuestion(chatText) : null,
    planUnits: planUnits(chatText),
    endsOnFileBlock: processor.endsOnFileBlock,
    capture: capture
      ? { fileId: capture.fileId, closed: capture.closed, chars: capture.body.length, words: countWords(capture.body) }
      : null,
    ...(saved ? { saved } : {}),
    usage: usageData,
    finishReason: answer.finishReason,
  };
}

/** The step's closing events: its tool cards, its usage and the save, less what an earlier attempt published. */
async function endEvents(
  { attempt, publisher, stamp }: StepAttempt,
  { toolCalls, usageData }: StepEnding,
  saved: { event: AnyEventDraft } | null,
): Promise<AnyEventDraft[]> {
  const events = [
    ...toolCalls.map((c) =>
      stamp(
        draft(
          'tool_call',
          { name: c.name, arguments: cardArguments(c.arguments), summary: toolSummary(c.name, c.arguments) },
          { toolCallId: c.id },
        ),
      ),
    ),
    stamp(draft('usage', usageData)),
    ...(saved ? [stamp(saved.event)] : []),
  ];
  return attempt > 1 ? notYetPublished(events, await publisher.slotEvents()) : events;
}

/**
 * The answer on record: its transcript, usage and closing events, the captured file body,
 * and — for a step that runs its tool calls — the calls, after the answer is recorded.
 */
async function recordStep(
  deps: ActivityDeps,
  step: StepAttempt,
  opened: OpenedStep,
  answer: StreamedAnswer,
  siblingCounts: EarlySiblingCounts,
): Promise<LlmStepResult> {
  const { models, config } = deps;
  const { input, attempt } = step;
  const { processor } = answer;
  const toolCalls = namedToolCalls(input, answer.calls);
  const usageData: UsageData = answer.usage
    ? providerUsage(config.meta.prices, answer.usage, config.OPENAI_MODEL)
    : priced(config.meta.prices, estimateUsage(opened.messages, answer.rawContent, toolCalls, config.OPENAI_MODEL));

  const capture =
    input.pendingFileId && (processor.body || processor.closed)
      ? { fileId: input.pendingFileId, body: processor.body, closed: processor.closed }
      : null;
  // The step saves the captured body itself (capture.ts); the step's copy is then not needed.
  const saving = capture ? saveStepCapture(deps, input, capture.fileId, capture.body, attempt) : null;
  const stepDoc = stepDocument(step, opened, answer, toolCalls, capture);
  const store = (extra: object = {}) =>
    models.AgentStep.replaceOne({ _id: stepDoc._id }, { ...stepDoc, ...extra }, { upsert: true }).exec();
  // Quiet: a step that runs tool calls awaits it only at its end.
  const usageRecorded = quiet(
    recordUsage(
      models,
      usageId(input.turnId, input.step),
      input.turnId,
      opened.turn,
      input.agent,
      input.step,
      usageData,
    ),
  );
  const result = (saved: ToolOutcome | null): LlmStepResult => stepResult(answer, toolCalls, capture, usageData, saved);
  const ending: StepEnding = { toolCalls, usageData, saving, store, usageRecorded, result };
  if (runsToolsInStep(input, toolCalls)) return recordThenRunTools(deps, step, opened, ending, siblingCounts);
  return recordAnswer(deps, step, ending);
}

/** A step that runs its tool calls: the answer on record, its events out, then the calls. */
async function recordThenRunTools(
  deps: ActivityDeps,
  step: StepAttempt,
  opened: OpenedStep,
  ending: StepEnding,
  siblingCounts: EarlySiblingCounts,
): Promise<LlmStepResult> {
  const { input, attempt, publisher } = step;
  const { toolCalls, saving, store, usageRecorded, result } = ending;
  // The calls' turn comes with the step's context; a context without it is read from the
  // Turn, overlapping the recording below. Quiet: not unhandled if recording fails first;
  // runStepTools awaits it.
  const toolTurn = quiet(opened.toolTurn ? Promise.resolve(opened.toolTurn) : readToolTurn(deps, input.turnId));
  // The answer goes on record, after its events, before any call runs (step-tools.ts).
  // The usage record lands beside them, not before: a retry that finds the answer on
  // record writes it again (resumeStep; one record per call however often it runs).
  const saved = await saving;
  await publisher.publish(await endEvents(step, ending, saved));
  const recorded = result(saved?.outcome ?? null);
  // A create_file call reads (the pending file) while the answer goes on record, and
  // writes only once it is. Quiet: awaited below, and by the calls.
  const answerRecorded = quiet(store({ result: recorded, toolEventsFrom: publisher.count }));
  step.beat.tools = true;
  const toolOutcomes = await runStepTools(deps, input, toolCalls, publisher, attempt, step.signal, null, {
    turn: toolTurn,
    siblingCounts,
    answerRecorded,
  });
  await Promise.all([answerRecorded, usageRecorded, publisher.settle()]);
  return { ...recorded, toolOutcomes };
}

/** A step that leaves its tool calls to the workflow (or has none): its transcript, usage and events. */
async function recordAnswer(deps: ActivityDeps, step: StepAttempt, ending: StepEnding): Promise<LlmStepResult> {
  const { input, attempt, publisher } = step;
  const { saving, store, usageRecorded, result } = ending;
  // The transcript, the usage record and the events are independent idempotent writes:
  // together. The slot's last count goes on record before the step ends (during the
  // stream it lags up to a second).
  const reported = (async () => {
    const saved = await saving;
    await publisher.publish(await endEvents(step, ending, saved));
    deps.faults?.hit('llm.after_end_events', { agent: input.agent, run: input.run, kind: input.runKind, attempt });
    await publisher.settle();
    return saved?.outcome ?? null;
  })();
  const [, , saved] = await Promise.all([store(), usageRecorded, reported]);
  return result(saved);
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

/**
 * A step's closing events its earlier attempt already published: an attempt that saved the
 * chapter and reported it, then never completed (its worker died, or Temporal did not take
 * the completion during an outage), is retried; the retry finds the same version on record,
 * and must not report that save again, nor the step's usage. These kinds stand across a
 * `step_retry` (STEP_RETRY_STANDS): clients keep them, so a second copy would count twice. A
 * save is known by its version, usage by the step (one per step), a tool card by its call id.
 */
function notYetPublished(events: AnyEventDraft[], published: StreamEvent[]): AnyEventDraft[] {
  const key = (e: Pick<StreamEvent, 'type' | 'data' | 'toolCallId'>): string | null => {
    if (e.type === 'usage') return 'usage';
    if (e.type === 'file_created' || e.type === 'file_updated')
      return `${e.type}:${(e.data as { versionId: string }).versionId}`;
    if (e.type === 'tool_call') return `tool_call:${e.toolCallId ?? ''}`;
    return null;
  };
  const seen = new Set(published.map(key).filter((k) => k !== null));
  return events.filter((e) => !seen.has(key(e as StreamEvent) ?? ''));
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

async function saveStepCapture(deps: ActivityDeps, input: LlmStepInput, fileId: string, body: string, attempt: number) {
  const c = { turnId: input.turnId, step: input.step, agent: input.agent, fileId, body };
  await deps.faults?.pause?.('llm.before_capture_save', { fileId, turnId: input.turnId });
  const saved = await saveCapture(deps.models, { ...c, writeKey: await stepCaptureKey(deps.models, c, attempt) });
  deps.faults?.hit('llm.after_capture', { agent: input.agent, run: input.run, kind: input.runKind, attempt });
  return saved;
}

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
  });
  return input.packet.replace(REVIEW_CONTENT_MARKER, () => `${REVIEW_CONTENT_MARKER}\n${content}`);
}

function estimateUsage(
  messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[],
  output: string,
  calls: AssembledCall[],
  model: string,
): UsageData {
  const prompt = messages.reduce(
    (n, m) => n + 4 + countTokens(typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')),
    0,
  );
  const completion = countTokens(output) + calls.reduce((n, c) => n + countTokens(c.name + c.arguments), 0);
  return {
    promptTokens: prompt,
    completionTokens: completion,
    totalTokens: prompt + completion,
    source: 'estimate',
    model,
  };
}
