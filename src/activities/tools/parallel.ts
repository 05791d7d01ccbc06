/**
 * `parallel_execute`: a batch of read-only sub-tasks that the turn
 * workflow runs as parallel activities. Three activities, each idempotent:
 *
 * - `prepareParallel` checks the batch and answers how many sub-tasks to start (0: refused);
 * - `runParallelTask` runs sub-task i, stored under `turnId:step:toolCallId#i`;
 * - `finishParallel` gathers the stored sub-results in task order into the one tool result,
 *   writes it to the transcript and publishes the card.
 *
 * Sub-tasks publish nothing: stream ids grow with the workflow's slots, so events from
 * activities finishing out of order would be rejected as duplicates. The batch is refused
 * whole on a read-only turn (`read_only_request`), even when it only reads.
 */
import { Context } from '@temporalio/activity';
import { type PARALLEL_TOOLS, type ToolArgs, toolArgSchemas, toolRefusal } from '../../core/model/tool-schemas';
import { draft } from '../../core/events';
import { insertOnce } from '../../db/models';
import type { ToolInput, ToolOutcome } from '../../core/turn/turn-types';
import type { WorkAgent } from '../../core/plans';
import type { ActivityDeps } from '../deps';
import { publisherFor } from '../stream/publish';
import { queryFiles } from './query-files';
import { loadSkill, readSkillResource } from './skill-tools';
import { toolContextFor } from './tool-context';
import { failure, invalidArguments, type ToolContext, type ToolExecution } from './types';
import { stepId } from '../../core/turn/record-ids';

type ParallelTool = (typeof PARALLEL_TOOLS)[number];
interface SubTask {
  tool: ParallelTool;
  args: unknown;
}

const SUB_TOOLS: { [N in ParallelTool]: (ctx: ToolContext, args: ToolArgs<N>) => Promise<ToolExecution> } = {
  query_files: queryFiles,
  load_skill: loadSkill,
  read_skill_resource: readSkillResource,
};

export const subTaskKey = (key: string, index: number): string => `${key}#${index}`;

/** Every task must be a reader this agent has, with arguments its schema accepts. */
export function checkBatch(
  agent: WorkAgent,
  args: ToolArgs<'parallel_execute'>,
): { ok: true; tasks: SubTask[] } | { ok: false; execution: ToolExecution } {
  const tasks: SubTask[] = [];
  for (const [i, t] of args.tasks.entries()) {
    const refused = toolRefusal(agent, t.tool);
    if (refused)
      return { ok: false, execution: failure('parallel_execute', refused.errorType, `tasks.${i}: ${refused.message}`) };
    const parsed = toolArgSchemas[t.tool].safeParse(t.arguments);
    if (!parsed.success)
      return {
        ok: false,
        execution: invalidArguments('parallel_execute', parsed.error.issues, `tasks.${i}.arguments.`),
      };
    tasks.push({ tool: t.tool, args: parsed.data });
  }
  return { ok: true, tasks };
}

export function runSubTask(ctx: ToolContext, task: SubTask): Promise<ToolExecution> {
  return (SUB_TOOLS[task.tool] as (ctx: ToolContext, args: unknown) => Promise<ToolExecution>)(ctx, task.args);
}

/** The one result the model gets: every sub-result in task order. */
export function combine(tasks: SubTask[], subs: ToolExecution[]): ToolExecution {
  return {
    body: {
      ok: true,
      results: subs.map((s, i) => ({ task: i, tool: tasks[i]!.tool, ...s.body })),
      note: 'One result per task, in the order you gave them; each has its own ok / error_type.',
    },
    outcome: { name: 'parallel_execute', ok: true, subOutcomes: subs.map((s) => s.outcome) },
    events: subs.flatMap((s) => s.events),
  };
}

/** The batch one after another, inside one activity: the dispatch-table entry, for callers that do not fan out. */
export async function parallelExecuteSerial(
  ctx: ToolContext,
  args: ToolArgs<'parallel_execute'>,
): Promise<ToolExecution> {
  const checked = checkBatch(ctx.agent, args);
  if (!checked.ok) return checked.execution;
  const subs: ToolExecution[] = [];
  for (const [i, task] of checked.tasks.entries())
    subs.push(await runSubTask({ ...ctx, key: subTaskKey(ctx.key, i) }, task));
  return combine(checked.tasks, subs);
}

/** What a tool card shows of a batch: per task, the tool, its verdict and its target — never file text. */
function batchCard(body: Record<string, unknown>): Record<string, unknown> {
  const results = Array.isArray(body.results) ? (body.results as Record<string, unknown>[]) : [];
  return {
    tasks: results.map((r) => ({
      tool: r.tool,
      ok: r.ok,
      ...(r.error_type ? { errorType: r.error_type } : {}),
      ...(r.id ? { id: r.id } : {}),
      ...(r.title ? { title: r.title } : {}),
      ...(r.name ? { skill: r.name } : r.skill ? { skill: r.skill } : {}),
      ...(r.path ? { path: r.path } : {}),
      ...(typeof r.content === 'string' ? { contentChars: r.content.length } : {}),
      ...(Array.isArray(r.results) ? { found: r.results.length } : {}),
    })),
  };
}

type BatchCheck = { ok: true; tasks: SubTask[] } | { ok: false; execution: ToolExecution };

/** The call's batch checked exactly as the tool activity checks any call: refusal, JSON, schema, a read-only turn, then each task. */
function checkParallelCall(input: ToolInput, callArguments: string | null | undefined): BatchCheck {
  const refused = toolRefusal(input.agent, 'parallel_execute');
  if (refused) return { ok: false, execution: failure('parallel_execute', refused.errorType, refused.message) };
  let raw: unknown;
  try {
    raw = callArguments?.trim() ? JSON.parse(callArguments) : {};
  } catch {
    return {
      ok: false,
      execution: failure('parallel_execute', 'invalid_arguments', 'Arguments are not valid JSON.'),
    };
  }
  const parsed = toolArgSchemas.parallel_execute.safeParse(raw);
  if (!parsed.success) return { ok: false, execution: invalidArguments('parallel_execute', parsed.error.issues) };
  if (input.flags.readOnly)
    return {
      ok: false,
      execution: failure(
        'parallel_execute',
        'read_only_request',
        'The author asked for no file changes in this turn: parallel_execute is unavailable; call the reading tools one by one.',
      ),
    };
  return checkBatch(input.agent, parsed.data);
}

/** The step's call, the turn, and the batch checked exactly as the tool activity checks any call. */
async function loadBatch(deps: ActivityDeps, input: ToolInput) {
  const { models } = deps;
  const key = `${input.turnId}:${input.step}:${input.toolCallId}`;
  const stepDoc = await models.AgentStep.findById(stepId(input.turnId, input.step)).lean();
  const call = stepDoc?.toolCalls.find((c) => c.id === input.toolCallId);
  if (!stepDoc || !call) throw new Error(`tool call ${key} not found in the step transcript`);
  const turn = await models.Turn.findById(input.turnId).lean();
  if (!turn) throw new Error(`turn ${input.turnId} not found`);
  const checked = checkParallelCall(input, call.arguments);
  const ctx = toolContextFor(deps, turn, input, key, (d) => ({
    ...d,
    turnId: input.turnId,
    agent: input.agent,
    step: input.step,
  }));
  return { key, stepDoc, call, ctx, checked };
}

/** Sub-task `input.index`, run once and stored under its own key; a retry returns what was stored. */
async function runParallelTask(deps: ActivityDeps, input: ToolInput & { index: number }): Promise<ToolOutcome> {
  const { models } = deps;
  const { key, ctx, checked } = await loadBatch(deps, input);
  if (!checked.ok || !checked.tasks[input.index])
    throw new Error(`parallel task ${input.index} of ${key} does not exist`);
  const subKey = subTaskKey(key, input.index);
  const stored = await models.ToolExecution.findOne({ key: subKey }).lean();
  if (stored) return (stored.result as ToolExecution).outcome;
  const task = checked.tasks[input.index]!;
  await deps.faults?.pause?.('tool.parallel_task', { turnId: input.turnId, index: input.index, tool: task.tool });
  let execution = await runSubTask({ ...ctx, key: subKey }, task);
  const inserted = await insertOnce(models.ToolExecution, {
    key: subKey,
    turnId: input.turnId,
    name: task.tool,
    result: execution,
  });
  if (!inserted)
    execution =
      ((await models.ToolExecution.findOne({ key: subKey }).lean())?.result as ToolExecution | undefined) ?? execution;
  return execution.outcome;
}

/** The batch's one result: stored already, or the sub-results combined (the refusal, when refused) and stored once. */
async function batchExecution(
  models: ActivityDeps['models'],
  input: ToolInput,
  key: string,
  checked: BatchCheck,
): Promise<ToolExecution> {
  let execution: ToolExecution;
  const stored = await models.ToolExecution.findOne({ key }).lean();
  if (stored) execution = stored.result as ToolExecution;
  else {
    if (checked.ok) {
      const keys = checked.tasks.map((_, i) => subTaskKey(key, i));
      const found = await models.ToolExecution.find({ key: { $in: keys } }).lean();
      const subs = keys.map((k) => found.find((f) => f.key === k)?.result as ToolExecution | undefined);
      // Every sub-task ran before this is scheduled; a gap is a bug worth a loud retry.
      if (subs.some((s) => !s)) throw new Error(`parallel batch ${key}: a sub-task result is missing`);
      execution = combine(checked.tasks, subs as ToolExecution[]);
    } else execution = checked.execution;
    const inserted = await insertOnce(models.ToolExecution, {
      key,
      turnId: input.turnId,
      name: 'parallel_execute',
      result: execution,
    });
    if (!inserted)
      execution =
        ((await models.ToolExecution.findOne({ key }).lean())?.result as ToolExecution | undefined) ?? execution;
  }
  return execution;
}

/** The batch's card and its sub-tasks' events, on the turn's stream. */
async function publishBatchResult(deps: ActivityDeps, input: ToolInput, execution: ToolExecution): Promise<void> {
  const envelope = {
    turnId: input.turnId,
    agent: input.agent,
    step: input.step,
    attempt: Context.current().info.attempt,
  };
  const body = execution.body as Record<string, unknown>;
  await publisherFor(deps, 'turn', input.turnId, input.slot).publish([
    {
      ...draft(
        'tool_result',
        {
          name: 'parallel_execute',
          ok: execution.outcome.ok,
          errorType: execution.outcome.errorType,
          message: execution.outcome.message,
          result: execution.outcome.ok ? batchCard(body) : {},
        },
        { toolCallId: input.toolCallId },
      ),
      ...envelope,
    },
    ...execution.events.map((e) => ({ ...e, ...envelope })),
  ]);
}

/** The batch's result gathered, written to the step's transcript and published. */
async function finishParallel(deps: ActivityDeps, input: ToolInput): Promise<ToolOutcome> {
  const { models } = deps;
  const { key, stepDoc, checked } = await loadBatch(deps, input);
  const execution = await batchExecution(models, input, key, checked);
  await models.AgentStep.updateOne(
    { _id: stepDoc._id, 'toolResults.toolCallId': { $ne: input.toolCallId } },
    { $push: { toolResults: { toolCallId: input.toolCallId, content: JSON.stringify(execution.body) } } },
  );
  await publishBatchResult(deps, input, execution);
  return execution.outcome;
}

export function createParallelActivities(deps: ActivityDeps) {
  return {
    /** How many sub-tasks to start; 0 when the batch is refused (finishParallel reports why). */
    async prepareParallel(input: ToolInput): Promise<{ count: number }> {
      const { checked } = await loadBatch(deps, input);
      return { count: checked.ok ? checked.tasks.length : 0 };
    },

    async runParallelTask(input: ToolInput & { index: number }): Promise<ToolOutcome> {
      return runParallelTask(deps, input);
    },

    async finishParallel(input: ToolInput): Promise<ToolOutcome> {
      return finishParallel(deps, input);
    },
  };
}
