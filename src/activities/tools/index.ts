/**
 * The tool activity: one call per tool call the model made. Idempotent by
 * `turnId:step:toolCallId` (unique in ToolExecution): a retry returns the stored result
 * and re-publishes its events under the same stream ids, which Redis deduplicates.
 */
import { Context } from '@temporalio/activity';
import { AGENT_TOOLS, FILE_WRITE_TOOLS, READ_ONLY_REFUSED_TOOLS, type ToolArgs, type ToolName, toolArgSchemas } from '../../agents/tool-schemas';
import { type AnyEventDraft, draft } from '../../events/contract';
import { isDuplicateKey } from '../../db/models';
import type { ToolInput, ToolOutcome } from '../../shared/turn-types';
import type { ActivityDeps } from '../deps';
import { publisherFor } from '../publish';
import { createFile, deleteFile, editFile, queryFiles } from './file-tools';
import { handoffToAgent, requestClarification, updateProject } from './project-tools';
import { parallelExecuteSerial } from './parallel';
import { loadSkill, readSkillResource } from './skill-tools';
import { skillRequestLimits } from '../../skills/limits';
import { failure, type ToolContext, type ToolExecution } from './types';

export const toolKey = (turnId: string, step: number, toolCallId: string): string => `${turnId}:${step}:${toolCallId}`;

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
      const stepDoc = await models.AgentStep.findById(`${input.turnId}:${input.step}`).lean();
      const call = stepDoc?.toolCalls.find((c) => c.id === input.toolCallId);
      if (!stepDoc || !call) throw new Error(`tool call ${key} not found in the step transcript`);
      const attempt = Context.current().info.attempt;
      const envelope = { turnId: input.turnId, agent: input.agent, step: input.step, attempt };
      const stamp = (d: AnyEventDraft): AnyEventDraft => ({ ...d, ...envelope });

      let execution: ToolExecution;
      const stored = await models.ToolExecution.findOne({ key }).lean();
      if (stored) {
        execution = stored.result as ToolExecution;
      } else {
        const turn = await models.Turn.findById(input.turnId).lean();
        if (!turn) throw new Error(`turn ${input.turnId} not found`);
        const ctx: ToolContext = {
          models,
          turnId: input.turnId,
          projectId: turn.projectId,
          ownerId: turn.ownerId,
          agent: input.agent,
          authorMessage: turn.message,
          key,
          event: stamp,
          skillLimits: skillRequestLimits(deps.config),
        };
        execution = await run(input, ctx, { name: call.name ?? '', arguments: call.arguments ?? '' });
        deps.faults?.hit('tool.after_write', { name: call.name, agent: input.agent, step: input.step });
        try {
          await models.ToolExecution.create({ key, turnId: input.turnId, name: call.name, result: execution });
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          execution = ((await models.ToolExecution.findOne({ key }).lean())?.result as ToolExecution | undefined) ?? execution;
        }
      }
      // The transcript gets the result once, however often this runs.
      await models.AgentStep.updateOne(
        { _id: stepDoc._id, 'toolResults.toolCallId': { $ne: input.toolCallId } },
        { $push: { toolResults: { toolCallId: input.toolCallId, content: JSON.stringify(execution.body) } } },
      );
      const body = execution.body as Record<string, unknown>;
      await publisher.publish([
        stamp(
          draft(
            'tool_result',
            {
              name: execution.outcome.name,
              ok: execution.outcome.ok,
              errorType: execution.outcome.errorType,
              message: execution.outcome.message,
              result: cardResult(body),
            },
            { toolCallId: input.toolCallId },
          ),
        ),
        ...execution.events.map(stamp),
      ]);
      return execution.outcome;
    },
  };
}
