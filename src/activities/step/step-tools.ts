/**
 * Tool calls run by the LLM step that asked for them.
 *
 * A separate activity per call cost a workflow task and a local-activity round trip through
 * the worker, plus reading the step back for the call's arguments. The step has them in
 * memory, so it runs the calls itself, in order, right after the model's answer.
 *
 * Crash safety: before the first call writes anything, the step records its answer's facts
 * and where its tool cards begin in its stream slot (`result`, `toolEventsFrom`); a
 * create_file call's reads may go out meanwhile (ToolContext.answerRecorded). A retried step that
 * finds that record does not ask the model again (its answer's calls may already have
 * written files): it runs the same calls, each idempotent by `turnId:step:toolCallId`, and
 * republishes their cards at the same stream positions, which Redis deduplicates. So the
 * author sees no `step_retry` and no card twice, exactly as when the executeTool activity
 * was retried.
 */
import type { ToolOutcome, LlmStepInput, LlmStepResult } from '../../core/turn/turn-types';
import type { ActivityDeps } from '../deps';
import type { CountingPublisher } from '../stream/publish';
import { quiet } from '../../core/quiet';
import { notFound } from '../failures';
import { stepId, usageId } from '../../core/turn/record-ids';
import { recordUsage } from '../usage';
import { performToolCall, toolExecutionId, toolKey } from '../tools';
import type { EarlySiblingCounts } from '../tools/sibling-counts';
import type { ToolTurn } from '../tools/tool-context';

interface StepCall {
  id: string;
  name: string;
  arguments: string;
}

/** The step runs its calls itself when asked to, unless a batch (parallel_execute) is among them. */
export function runsToolsInStep(input: LlmStepInput, calls: StepCall[]): boolean {
  return !!input.runTools && calls.length > 0 && !calls.some((c) => c.name === 'parallel_execute');
}

/**
 * A retried step whose answer is on record: runs (or re-reports) its tool calls and returns
 * the recorded result. Null when there is no record (the model is asked again).
 */
export async function resumeStep(
  deps: ActivityDeps,
  input: LlmStepInput,
  publisher: CountingPublisher,
  attempt: number,
  signal: AbortSignal,
): Promise<LlmStepResult | null> {
  const doc = await deps.models.AgentStep.findById(stepId(input.turnId, input.step)).lean();
  if (!doc || doc.toolEventsFrom == null || !doc.result) return null;
  publisher.resumeAt(doc.toolEventsFrom);
  const calls = doc.toolCalls.map((c) => ({ id: c.id ?? '', name: c.name ?? '', arguments: c.arguments ?? '' }));
  const earlier = { resultsInTranscript: new Set(doc.toolResults.map((r) => r.toolCallId ?? '')) };
  // One read of the turn serves the calls and the usage record. Quiet: runStepTools awaits it first.
  const turn = quiet(readToolTurn(deps, input.turnId));
  const toolOutcomes = await runStepTools(deps, input, calls, publisher, attempt, signal, earlier, { turn });
  const result = doc.result as LlmStepResult;
  await Promise.all([recordUsageAgain(deps, input, result, await turn), publisher.settle()]);
  return { ...result, toolOutcomes };
}

/**
 * The usage record of a step whose answer is on record: the step writes it beside the answer,
 * so a crash may have left the answer without it. Written once however often this runs (usage.ts).
 */
async function recordUsageAgain(
  deps: ActivityDeps,
  input: LlmStepInput,
  result: LlmStepResult,
  turn: StepTurn | null,
): Promise<void> {
  if (!turn) throw notFound('Turn', input.turnId);
  await recordUsage(
    deps.models,
    usageId(input.turnId, input.step),
    input.turnId,
    turn,
    input.agent,
    input.step,
    result.usage,
  );
}

/** What the calls need of the turn, and whose it is (a resumed step's usage record). */
type StepTurn = ToolTurn & { sessionId: string; jobId?: string | null };

/** What the calls need of the turn; the step starts this read while it records its answer. */
export function readToolTurn(deps: ActivityDeps, turnId: string): Promise<StepTurn | null> {
  return deps.models.Turn.findById(turnId)
    .select({ sessionId: 1, projectId: 1, ownerId: 1, jobId: 1, message: 1, focusFileId: 1 })
    .lean()
    .exec();
}

/** Reads the step started for its calls before they run: the turn, and the folder counts (sibling-counts.ts). */
export interface StepToolReads {
  turn?: Promise<ToolTurn | null>;
  siblingCounts?: EarlySiblingCounts;
  /** The step's answer going on record: the calls write only once it has (ToolContext.answerRecorded). */
  answerRecorded?: Promise<unknown>;
}

/**
 * Runs the calls in order: all of them, or up to and including the first failure (the
 * workflow runs the rest one by one, so its failure breaker sees every outcome in order).
 * An interrupt stops it before the next call. `earlier` is set when resuming: only then can
 * a call have a stored execution or a result in the transcript (a first run cannot; a
 * concurrent one is caught by the execution's unique key in performToolCall).
 */
export async function runStepTools(
  deps: ActivityDeps,
  input: LlmStepInput,
  calls: StepCall[],
  publisher: CountingPublisher,
  attempt: number,
  signal: AbortSignal,
  earlier: { resultsInTranscript: Set<string> } | null,
  early: StepToolReads = {},
): Promise<ToolOutcome[]> {
  const { models } = deps;
  const flags = input.runTools!.flags;
  // The turn (for the calls' context) and, when resuming, the executions stored before, by _id in one round.
  const [turn, ...stored] = await Promise.all([
    early.turn ?? readToolTurn(deps, input.turnId),
    ...(earlier
      ? calls.map((c) => models.ToolExecution.findById(toolExecutionId(toolKey(input.turnId, input.step, c.id))).lean())
      : []),
  ]);
  const outcomes: ToolOutcome[] = [];
  for (const [i, call] of calls.entries()) {
    if (signal.aborted) throw signal.reason;
    const outcome = await performToolCall(
      deps,
      {
        turnId: input.turnId,
        run: input.run,
        step: input.step,
        agent: input.agent,
        toolCallId: call.id,
        slot: input.slot,
        flags,
      },
      {
        call,
        stored: stored[i] ?? null,
        resultInTranscript: earlier?.resultsInTranscript.has(call.id) ?? false,
        turn,
        publisher,
        attempt,
        siblingCounts: early.siblingCounts,
        answerRecorded: early.answerRecorded,
      },
    );
    outcomes.push(outcome);
    deps.faults?.hit('llm.after_tool', { name: call.name, agent: input.agent, step: input.step });
    if (!outcome.ok) break;
  }
  return outcomes;
}
