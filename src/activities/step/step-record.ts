/**
 * A step's answer on record: its transcript (AgentStep), its usage record, its closing events
 * (tool cards, usage, the save of a captured `<file>` body) less what an earlier attempt
 * already published, and, for a step that runs its tool calls, the calls once the answer is
 * on record. The step's opening and its stream are llm.ts and llm-stream.ts.
 */
import type OpenAI from 'openai';
import { endsWithQuestion, lastQuestion, planUnits } from '../../core/model/file-stream';
import { type AnyEventDraft, draft, type StreamEvent, type UsageData } from '../../core/events';
import { countWords, tail } from '../../core/text';
import type { LlmStepInput, LlmStepResult, ToolOutcome } from '../../core/turn/turn-types';
import type { StepPrompt } from './agent-messages';
import { countTokens } from '../context';
import type { ActivityDeps } from '../deps';
import type { CountingPublisher } from '../stream/publish';
import type { AssembledCall, StepBeat, StreamedAnswer } from './llm-stream';
import { priced, providerUsage, recordUsage } from '../usage';
import { stepId, usageId } from '../../core/turn/record-ids';
import { saveCapture, stepCaptureKey } from './capture';
import { readToolTurn, runStepTools, runsToolsInStep } from './step-tools';
import { quiet } from '../../core/quiet';
import type { EarlySiblingCounts } from '../tools/sibling-counts';
import type { ContinuationStrategy } from '../../core/model/continuation';
import type { StepCheckpoint } from './step-partial';

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

/** A tool call in one line, for Temporal UI and logs: "create_file 第3章". */
function toolSummary(name: string, raw: string): string {
  try {
    const a = JSON.parse(raw || '{}') as Record<string, unknown>;
    const target = a.title ?? a.agent ?? a.query ?? a.id ?? a.operation ?? '';
    return `${name}${target ? ` ${String(target).slice(0, 60)}` : ''}`;
  } catch {
    return name;
  }
}

/** What one attempt of a step shares between its phases. */
export interface StepAttempt {
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

/** What the step's opening hands its record: the packet it showed, the prompt it sent, whose turn it is. */
export type OpenedStep = Pick<StepPrompt, 'messages' | 'toolTurn'> & {
  packet: string | null;
  turn: StepPrompt['owner'];
};

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
export async function recordStep(
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

async function saveStepCapture(deps: ActivityDeps, input: LlmStepInput, fileId: string, body: string, attempt: number) {
  const c = { turnId: input.turnId, step: input.step, agent: input.agent, fileId, body };
  await deps.faults?.pause?.('llm.before_capture_save', { fileId, turnId: input.turnId });
  const saved = await saveCapture(deps.models, { ...c, writeKey: await stepCaptureKey(deps.models, c, attempt) });
  deps.faults?.hit('llm.after_capture', { agent: input.agent, run: input.run, kind: input.runKind, attempt });
  return saved;
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
