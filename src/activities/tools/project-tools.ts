/**
 * update_project and the two control tools. Control tools only validate and record: the
 * workflow decides what a handoff or a clarification does to the turn.
 */
import type { ToolArgs } from '../../agents/tool-schemas';
import { agentHasWriteTools } from '../../agents/tool-schemas';
import type { ToolContext, ToolExecution } from './types';

export async function updateProject(ctx: ToolContext, args: ToolArgs<'update_project'>): Promise<ToolExecution> {
  const set: Record<string, unknown> = {};
  for (const k of ['summary', 'style', 'notes'] as const) if (args[k] !== undefined) set[k] = args[k];
  const unverifiedDone: string[] = [];
  // The task board is read, merged and written back. A job updates the same board, so the
  // write is a compare-and-set on updatedAt, retried on a concurrent change.
  for (let attempt = 0; attempt < 5; attempt++) {
    const project = await ctx.models.Project.findById(ctx.projectId).select({ tasks: 1, updatedAt: 1 }).lean();
    if (args.tasks) {
      const previous = new Map((project?.tasks ?? []).map((t) => [t.id, t]));
      const tasks = [];
      unverifiedDone.length = 0;
      for (const t of args.tasks) {
        const before = previous.get(t.id);
        // A task marked done whose artifact does not exist with body text is reported, not trusted.
        if (t.status === 'done' && t.artifact) {
          const exists = await ctx.models.File.exists({ projectId: ctx.projectId, title: t.artifact, deletedAt: null, words: { $gt: 0 } });
          if (!exists) unverifiedDone.push(t.id);
        }
        tasks.push({ ...t, doneUnits: before?.doneUnits ?? undefined, progress: before?.progress ?? undefined });
      }
      set.tasks = tasks;
    }
    const filter = args.tasks ? { _id: ctx.projectId, updatedAt: project?.updatedAt } : { _id: ctx.projectId };
    const res = await ctx.models.Project.updateOne(filter, { $set: set });
    if (res.matchedCount > 0 || !args.tasks) break;
  }
  return {
    body: { ok: true, updated: Object.keys(set), ...(unverifiedDone.length ? { unverified_done: unverifiedDone } : {}) },
    outcome: { name: 'update_project', ok: true, op: 'project' },
    events: [],
  };
}

export function handoffToAgent(ctx: ToolContext, args: ToolArgs<'handoff_to_agent'>): ToolExecution {
  if (args.agent === ctx.agent)
    return {
      body: { ok: false, error_type: 'invalid_handoff', message: 'You cannot hand off to yourself.' },
      outcome: { name: 'handoff_to_agent', ok: false, errorType: 'invalid_handoff', message: 'self handoff' },
      events: [],
    };
  return {
    body: { ok: true, handed_off_to: args.agent, note: agentHasWriteTools(args.agent) ? undefined : 'read-only agent' },
    outcome: { name: 'handoff_to_agent', ok: true, handoff: { to: args.agent, reason: args.reason, todo: args.todo } },
    events: [],
  };
}

export function requestClarification(_ctx: ToolContext, args: ToolArgs<'request_clarification'>): ToolExecution {
  return {
    body: { ok: true, question: args.question, note: 'The turn stops here until the author answers.' },
    outcome: { name: 'request_clarification', ok: true, clarification: { question: args.question } },
    events: [],
  };
}
