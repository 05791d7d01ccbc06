/**
 * The tool activity: one call per tool call the model made. Idempotent by
 * `turnId:step:toolCallId` (unique in ToolExecution): a retry returns the stored result
 * and re-publishes its events under the same stream ids, which Redis deduplicates.
 */
import { Context } from '@temporalio/activity';
import { AGENT_TOOLS, FILE_WRITE_TOOLS, READ_ONLY_REFUSED_TOOLS, type ToolArgs, type ToolName, toolArgSchemas } from '../../agents/tool-schemas';
import { type AnyEventDraft, draft, refusalOf } from '../../events/contract';
import { idFromKey, isDuplicateKey } from '../../db/models';
import type { ToolInput, ToolOutcome } from '../../shared/turn-types';
import type { ActivityDeps } from '../deps';
import { notFound } from '../failures';
import { publisherFor } from '../publish';
import { createFile, deleteFile, editFile, queryFiles } from './file-tools';
import { handoffToAgent, requestClarification, updateProject } from './project-tools';
import { setImportance } from './importance';
import { parallelExecuteSerial } from './parallel';
import { loadSkill, readSkillResource } from './skill-tools';
import { toolContextFor } from './tool-context';
import { failure, type ToolContext, type ToolExecution } from './types';
import { stepId } from '../record-ids';

export const toolKey = (turnId: string, step: number, toolCallId: string): string => `${turnId}:${step}:${toolCallId}`;

/** The stored execution's `_id`, derived from its key so a retry finds it by `_id`. */
export const toolExecutionId = (key: string): string => idFromKey(`tool-execution:${key}`);

/** The part of a result worth showing on a tool card (never a whole file). */
function cardResult(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === 'ok' || k === 'error_type' || k === 'message') continue;
    if (k === 'content') out.contentChars = typeof v === 'string' ? v.length : 0;
    else if (k === 'results' && Array.isArray(v)) out.results = v.map((r: { id: string; title: string }) => ({ id: r.id, title: r.title }));
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

export function createToolActivities(deps: ActivityDeps) {
  const { models } = deps;

  async function run(input: ToolInput, ctx: ToolContext, call: { name: string; arguments: string }): Promise<ToolExecution> {
    const name = call.name as ToolName;
    if (!(AGENT_TOOLS[input.agent] as readonly string[]).includes(call.name))
      return failure(call.name, 'tool_not_found', `${input.agent} has no tool "${call.name}". Available: ${AGENT_TOOLS[input.agent].join(', ')}.`);
    let raw: unknown;
    try {
      raw = call.arguments.trim() ? JSON.parse(call.arguments) : {};
    } catch {
      return failure(name, 'invalid_arguments', 'Arguments are not valid JSON.');
    }
    const parsed = toolArgSchemas[name].safeParse(raw);
    if (!parsed.success)
      return failure(name, 'invalid_arguments', parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
    if (READ_ONLY_REFUSED_TOOLS.includes(name) && input.flags.readOnly)
      return failure(name, 'read_only_request', 'The author asked for no file changes in this turn: answer without writing.');
    if (FILE_WRITE_TOOLS.includes(name) && input.flags.clarifyFirst)
      return failure(name, 'clarify_first', 'Ask the author what exactly to change before editing anything.');
    // On a clarify-first turn the writer asks; handing the vague request on would skip that.
    if (name === 'handoff_to_agent' && input.flags.clarifyFirst)
      return failure(name, 'clarify_first', 'Hand-offs wait until the author says what to change: ask them now.');
    return dispatch(ctx, name, parsed.data);
  }

  return {
    async executeTool(input: ToolInput): Promise<ToolOutcome> {
      const key = toolKey(input.turnId, input.step, input.toolCallId);
      const publisher = publisherFor(deps, 'turn', input.turnId, input.slot);
      // Three independent reads in one round trip, each by `_id`: the only lookup FerretDB v1
      // answers without reading the whole collection (bench/turn-kit/explain.ts).
      const [stepDoc, stored, turn] = await Promise.all([
        models.AgentStep.findById(stepId(input.turnId, input.step)).lean(),
        models.ToolExecution.findById(toolExecutionId(key)).lean(),
        models.Turn.findById(input.turnId).lean(),
      ]);
      const call = stepDoc?.toolCalls.find((c) => c.id === input.toolCallId);
      if (!stepDoc || !call) throw notFound('ToolCall', key, 'in the step transcript');
      const attempt = Context.current().info.attempt;
      const envelope = { turnId: input.turnId, agent: input.agent, step: input.step, attempt };
      const stamp = (d: AnyEventDraft): AnyEventDraft => ({ ...d, ...envelope });

      let execution: ToolExecution;
      if (stored) {
        execution = stored.result as ToolExecution;
      } else {
        if (!turn) throw notFound('Turn', input.turnId);
        const ctx = toolContextFor(deps, turn, input, key, stamp);
        execution = await run(input, ctx, { name: call.name ?? '', arguments: call.arguments ?? '' });
        deps.faults?.hit('tool.after_write', { name: call.name, agent: input.agent, step: input.step });
        try {
          await models.ToolExecution.create({ _id: toolExecutionId(key), key, turnId: input.turnId, name: call.name, result: execution });
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          // Stored first by a concurrent attempt, or before executions were keyed by _id: the
          // unique `key` index caught it; its result is the one the model gets.
          execution = ((await models.ToolExecution.findOne({ key }).lean())?.result as ToolExecution | undefined) ?? execution;
        }
      }
      const body = execution.body as Record<string, unknown>;
      // The transcript gets the result once, however often this runs (a retry finds it in the
      // step it read); the cards are idempotent by stream id. Neither waits for the other: a
      // retry repeats both. The update filters on `_id` alone — a condition beside it makes
      // FerretDB v1 read every turn's steps — so two attempts racing may both append: the
      // prompt builder takes a call's first result, and both carry the one stored execution.
      const pushed = stepDoc.toolResults.some((r) => r.toolCallId === input.toolCallId)
        ? Promise.resolve()
        : models.AgentStep.updateOne({ _id: stepDoc._id }, { $push: { toolResults: { toolCallId: input.toolCallId, content: JSON.stringify(execution.body) } } }).exec();
      const published = publisher.publish([
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
    },
  };
}
