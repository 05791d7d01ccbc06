/**
 * Tool calls: one per call the model made, run by the LLM step itself or, for what the step
 * leaves (after a failed call, a call the author must approve), by the executeTool activity. Idempotent by `turnId:step:toolCallId`
 * (unique in ToolExecution): a rerun returns the stored result and re-publishes its events
 * under the same stream ids, which Redis deduplicates.
 */
import { Context } from '@temporalio/activity';
import {
  FILE_WRITE_TOOLS,
  READ_ONLY_REFUSED_TOOLS,
  type ToolArgs,
  type ToolName,
  toolArgSchemas,
  toolRefusal,
} from '../../core/model/tool-schemas';
import { type AnyEventDraft, draft, refusalOf } from '../../core/events';
import { idFromKey, insertOnce } from '../../db/models';
import type { ToolInput, ToolOutcome } from '../../core/turn/turn-types';
import type { ActivityDeps } from '../deps';
import { notFound } from '../failures';
import { publisherFor } from '../stream/publish';
import { createFile, editFile } from './file-tools';
import { deleteFile } from './delete-file';
import { queryFiles } from './query-files';
import { handoffToAgent, requestClarification, updateProject } from './project-tools';
import { setImportance } from './importance';
import { parallelExecuteSerial } from './parallel';
import { loadSkill, readSkillResource } from './skill-tools';
import type { EarlySiblingCounts } from './sibling-counts';
import { toolContextFor, type ToolTurn } from './tool-context';
import type { StreamPublisher } from '../../streams/redis-streams';
import { failure, invalidArguments, type ToolContext, type ToolExecution } from './types';
import { stepId } from '../../core/turn/record-ids';

export const toolKey = (turnId: string, step: number, toolCallId: string): string => `${turnId}:${step}:${toolCallId}`;

/** The stored execution's `_id`, derived from its key so a retry finds it by `_id`. */
export const toolExecutionId = (key: string): string => idFromKey(`tool-execution:${key}`);

/** The part of a result worth showing on a tool card (never a whole file). */
function cardResult(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === 'ok' || k === 'error_type' || k === 'message') continue;
    if (k === 'content') out.contentChars = typeof v === 'string' ? v.length : 0;
    else if (k === 'results' && Array.isArray(v))
      out.results = v.map((r: { id: string; title: string }) => ({ id: r.id, title: r.title }));
    else out[k] = v;
  }
  return out;
}

/** Each tool's implementation; arguments arrive already validated by its zod schema. */
const TOOLS: { [N in ToolName]: (ctx: ToolContext, args: ToolArgs<N>) => Promise<ToolExecution> | ToolExecution } = {
  create_file: createFile,
  edit_file: editFile,
  delete_file: deleteFile,
  set_importance: setImportance,
  query_files: queryFiles,
  update_project: updateProject,
  handoff_to_agent: handoffToAgent,
  request_clarification: requestClarification,
  load_skill: loadSkill,
  read_skill_resource: readSkillResource,
  // The turn workflow fans a batch out as parallel activities (./parallel.ts); this entry runs it in one.
  parallel_execute: parallelExecuteSerial,
};

async function dispatch(ctx: ToolContext, name: ToolName, args: unknown): Promise<ToolExecution> {
  return (TOOLS[name] as (ctx: ToolContext, args: unknown) => Promise<ToolExecution> | ToolExecution)(ctx, args);
}

/** Checks the call against the agent's tools, its arguments and the turn's flags, then runs it. */
async function run(
  input: ToolInput,
  ctx: ToolContext,
  call: { name: string; arguments: string },
): Promise<ToolExecution> {
  const name = call.name as ToolName;
  const refused = toolRefusal(input.agent, call.name);
  if (refused) return failure(call.name, refused.errorType, refused.message);
  let raw: unknown;
  try {
    raw = call.arguments.trim() ? JSON.parse(call.arguments) : {};
  } catch {
    return failure(name, 'invalid_arguments', 'Arguments are not valid JSON.');
  }
  const parsed = toolArgSchemas[name].safeParse(raw);
  if (!parsed.success) return invalidArguments(name, parsed.error.issues);
  if (READ_ONLY_REFUSED_TOOLS.includes(name) && input.flags.readOnly)
    return failure(
      name,
      'read_only_request',
      'The author asked for no file changes in this turn: answer without writing.',
    );
  if (FILE_WRITE_TOOLS.includes(name) && input.flags.clarifyFirst)
    return failure(name, 'clarify_first', 'Ask the author what exactly to change before editing anything.');
  // On a clarify-first turn the writer asks; handing the vague request on would skip that.
  if (name === 'handoff_to_agent' && input.flags.clarifyFirst)
    return failure(name, 'clarify_first', 'Hand-offs wait until the author says what to change: ask them now.');
  return dispatch(ctx, name, parsed.data);
}

export interface ToolCallToPerform {
  /** The call as the model made it (stored in the step's transcript). */
  call: { name: string; arguments: string };
  /** Its stored execution, if an earlier attempt ran it (then it is not run again). */
  stored: { result: unknown } | null;
  /** The step's transcript already has this call's result. */
  resultInTranscript: boolean;
  /** The turn (needed only to run the call; a stored execution needs none). */
  turn: ToolTurn | null;
  /** Where its cards go; a rerun publishes them under the same stream ids (Redis drops duplicates). */
  publisher: StreamPublisher;
  attempt: number;
  /** Folder counts the LLM step started reading while the model made its calls (sibling-counts.ts). */
  siblingCounts?: EarlySiblingCounts;
  /** Settles once the step's answer is on record: nothing of the call is written before (ToolContext.answerRecorded). */
  answerRecorded?: Promise<unknown>;
}

/**
 * One tool call of a stored step, idempotent by `turnId:step:toolCallId`: runs it (or takes
 * the execution an earlier attempt stored), stores the execution, appends the result to the
 * step's transcript and publishes its cards. Used by the executeTool activity and, in turns
 * by the LLM step right after the model's answer.
 */
export async function performToolCall(
  deps: ActivityDeps,
  input: ToolInput,
  p: ToolCallToPerform,
): Promise<ToolOutcome> {
  const { models } = deps;
  const key = toolKey(input.turnId, input.step, input.toolCallId);
  const envelope = { turnId: input.turnId, agent: input.agent, step: input.step, attempt: p.attempt };
  const stamp = (d: AnyEventDraft): AnyEventDraft => ({ ...d, ...envelope });

  let execution: ToolExecution;
  if (p.stored) {
    execution = p.stored.result as ToolExecution;
  } else {
    if (!p.turn) throw notFound('Turn', input.turnId);
    // Only create_file reads ahead of the answer's record (it waits for it before it writes).
    if (p.call.name !== 'create_file') await p.answerRecorded;
    const ctx = toolContextFor(deps, p.turn, input, key, stamp, p.siblingCounts, p.answerRecorded);
    execution = await run(input, ctx, p.call);
    // A create_file call refused before it ran (arguments, read-only turn) did not wait: its execution is recorded after the answer too.
    await p.answerRecorded;
    // A call waiting for the author's approval leaves no trace: the workflow asks, then runs it
    // again with the decision, and that run's result is the one recorded and shown.
    if (execution.outcome.errorType === 'approval_required') return execution.outcome;
    deps.faults?.hit('tool.after_write', { name: p.call.name, agent: input.agent, step: input.step });
    const inserted = await insertOnce(models.ToolExecution, {
      _id: toolExecutionId(key),
      key,
      turnId: input.turnId,
      name: p.call.name,
      result: execution,
    });
    // Stored first by a concurrent attempt, or before executions were keyed by _id: the
    // unique `key` index caught it; its result is the one the model gets.
    if (!inserted)
      execution =
        ((await models.ToolExecution.findOne({ key }).lean())?.result as ToolExecution | undefined) ?? execution;
  }
  const body = execution.body as Record<string, unknown>;
  // The transcript gets the result once, however often this runs (a retry finds it in the
  // step it read); the cards are idempotent by stream id. Neither waits for the other: a
  // retry repeats both. The update filters on `_id` alone, so two attempts racing may both
  // append: the prompt builder takes a call's first result, and both carry the one stored execution.
  const pushed = p.resultInTranscript
    ? Promise.resolve()
    : models.AgentStep.updateOne(
        { _id: stepId(input.turnId, input.step) },
        { $push: { toolResults: { toolCallId: input.toolCallId, content: JSON.stringify(execution.body) } } },
      ).exec();
  const published = p.publisher.publish([
    stamp(
      draft(
        'tool_result',
        {
          name: execution.outcome.name,
          ok: execution.outcome.ok,
          errorType: execution.outcome.errorType,
          message: execution.outcome.message,
          result: cardResult(body),
          refusal: execution.outcome.ok ? undefined : refusalOf(execution.outcome.errorType),
        },
        { toolCallId: input.toolCallId },
      ),
    ),
    ...execution.events.map(stamp),
  ]);
  await Promise.all([pushed, published]);
  return execution.outcome;
}

export function createToolActivities(deps: ActivityDeps) {
  const { models } = deps;
  return {
    async executeTool(input: ToolInput): Promise<ToolOutcome> {
      const key = toolKey(input.turnId, input.step, input.toolCallId);
      // Three independent reads in one round trip, each by `_id` (the index FerretDB v1 uses).
      const [stepDoc, stored, turn] = await Promise.all([
        models.AgentStep.findById(stepId(input.turnId, input.step)).lean(),
        models.ToolExecution.findById(toolExecutionId(key)).lean(),
        models.Turn.findById(input.turnId).lean(),
      ]);
      const call = stepDoc?.toolCalls.find((c) => c.id === input.toolCallId);
      if (!stepDoc || !call) throw notFound('ToolCall', key, 'in the step transcript');
      return performToolCall(deps, input, {
        call: { name: call.name ?? '', arguments: call.arguments ?? '' },
        stored,
        resultInTranscript: stepDoc.toolResults.some((r) => r.toolCallId === input.toolCallId),
        turn,
        publisher: publisherFor(deps, 'turn', input.turnId, input.slot),
        attempt: Context.current().info.attempt,
      });
    },
  };
}
