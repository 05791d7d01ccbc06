/**
 * update_project and the two control tools. Control tools only validate and record: the
 * workflow decides what a handoff or a clarification does to the turn.
 */
import type { ToolArgs } from '../../core/model/tool-schemas';
import { agentHasWriteTools } from '../../core/model/tool-schemas';
import { CompareAndSetExhausted, casLost, casWritten, compareAndSet } from '../../db/compare-and-set';
import { readProjectState, writeProjectState } from '../../db/project-state';
import { mergeNotes, NOTES_BUDGET_CHARS } from './project-notes';
import { type BoardTask, missingUnits } from '../../core/book/task-board-rules';
import { liveBodyUnits } from '../turn/task-board';
import { failure, type ToolContext, type ToolExecution } from './types';

/**
 * The model's task board, with what the stored board recorded for each task (`doneUnits`,
 * `progress`) carried over by id or, failing that, by the same title. A task the model marks
 * done is checked: its artifact, or every unit of its range, must exist with body text.
 */
async function reviseTasks(
  ctx: ToolContext,
  previous: BoardTask[],
  tasks: NonNullable<ToolArgs<'update_project'>['tasks']>,
) {
  const byId = new Map(previous.map((t) => [t.id, t]));
  const byTitle = new Map(previous.map((t) => [t.title.trim(), t]));
  const unverifiedDone: string[] = [];
  const missing: Record<string, number[]> = {};
  let live: Set<number> | null = null;
  const out = [];
  for (const t of tasks) {
    const prior = byId.get(t.id) ?? byTitle.get(t.title.trim());
    if (t.status === 'done' && t.artifact) {
      const exists = await ctx.models.File.exists({
        projectId: ctx.projectId,
        title: t.artifact,
        deletedAt: null,
        words: { $gt: 0 },
      });
      if (!exists) unverifiedDone.push(t.id);
    } else if (t.status === 'done') {
      live ??= await liveBodyUnits(ctx.models, ctx.projectId);
      const gaps = missingUnits(t.title, live);
      if (gaps.length) {
        unverifiedDone.push(t.id);
        missing[t.id] = gaps;
      }
    }
    out.push({ ...t, doneUnits: prior?.doneUnits ?? undefined, progress: prior?.progress ?? undefined });
  }
  return { tasks: out, unverifiedDone, missing };
}

/**
 * update_project. Notes and the task board are read, merged and written back; a job and
 * other turns write the same project, so the write is a compare-and-set on the project's
 * revision (src/db/project-state.ts: atomic on FerretDB v1 too).
 * Losing the race every time is an error result, never `ok:true` with nothing saved.
 */
export async function updateProject(ctx: ToolContext, args: ToolArgs<'update_project'>): Promise<ToolExecution> {
  try {
    return await compareAndSet(`project ${ctx.projectId}`, async () => {
      const read = await readProjectState(ctx.models, ctx.projectId);
      if (!read) return casWritten(failure('update_project', 'not_found', 'This project no longer exists.'));
      const project = read.value;
      const set: Parameters<typeof writeProjectState>[3] = {};
      const report: Record<string, unknown> = {};
      for (const k of ['summary', 'style'] as const) if (args[k] !== undefined) set[k] = args[k];
      if (args.notes !== undefined || args.proposals !== undefined) {
        const merged = mergeNotes(project.notes, {
          notes: args.notes,
          proposals: args.proposals,
          authorQuotes: args.author_quotes ?? [],
          authorMessage: ctx.authorMessage,
        });
        // Over budget, nothing at all is written: a half-applied update would be worse than none.
        if (merged.text.length > NOTES_BUDGET_CHARS)
          return casWritten(
            failure(
              'update_project',
              'notes_over_budget',
              `Notes and proposals would take ${merged.text.length} characters; they share ${NOTES_BUDGET_CHARS}. Nothing was saved: shorten or drop entries and try again.`,
              {
                chars: merged.text.length,
                budget: NOTES_BUDGET_CHARS,
              },
            ),
          );
        set.notes = merged.text;
        if (merged.recordedAsProposals.length) report.notes_recorded_as_proposals = merged.recordedAsProposals;
        if (merged.confirmedNow.length) report.proposals_confirmed = merged.confirmedNow;
      }
      if (args.tasks) {
        const board = await reviseTasks(ctx, project.tasks, args.tasks);
        set.tasks = board.tasks;
        if (board.unverifiedDone.length) report.unverified_done = board.unverifiedDone;
        if (Object.keys(board.missing).length) report.missing_units = board.missing;
      }
      if (Object.keys(set).length) {
        if (!(await writeProjectState(ctx.models, ctx.projectId, read, set))) return casLost;
      }
      return casWritten<ToolExecution>({
        body: { ok: true, updated: Object.keys(set), ...report },
        outcome: { name: 'update_project', ok: true, op: 'project' },
        events: [],
      });
    });
  } catch (err) {
    if (!(err instanceof CompareAndSetExhausted)) throw err;
    return failure(
      'update_project',
      'concurrent_update',
      'The project kept changing while this update was being saved; nothing was saved. Try again.',
    );
  }
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
