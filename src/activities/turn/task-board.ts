/**
 * The task board at the end of an author's turn. Reads what this turn really wrote from the
 * version history — not what the model said it wrote — and applies {@link finalizeBoard}.
 * Called from finalizeTurn; idempotent, so a retried finalize computes and writes the same board.
 */
import { casLost, casWritten, compareAndSet } from '../../db/compare-and-set';
import { type ProjectState, readProjectState, writeProjectState } from '../../db/project-state';
import type { Revision } from '../../db/revision-claims';
import type { Models } from '../../db/models';
import { BODY_FILE_TYPES, isBodyFileType } from '../../core/domain';
import { finalizeBoard, titleUnits } from '../../core/book/task-board-rules';

/** Units of every live body file with text in the project. */
export async function liveBodyUnits(models: Models, projectId: string): Promise<Set<number>> {
  const files = await models.File.find({
    projectId,
    deletedAt: null,
    type: { $in: BODY_FILE_TYPES },
    words: { $gt: 0 },
  })
    .select({ title: 1 })
    .lean();
  return new Set(files.flatMap((f) => titleUnits(f.title) ?? []));
}

/**
 * Closes in-progress tasks from the files this turn wrote. Job chapter turns are left
 * alone (the job keeps its own task); a turn that wrote nothing changes nothing. The turn
 * is finalize's own read of it. `boardRead` is the project's state when the caller started
 * reading it already (finalize, beside its other reads); any read will do, as the write is a
 * compare-and-set that reads again when the board moved since.
 */
export async function finalizeTaskBoard(
  models: Models,
  turn: { turnId: string; projectId: string; jobId?: string | null },
  boardRead?: Promise<Revision<ProjectState> | null>,
): Promise<void> {
  if (turn.jobId) return;
  const { turnId } = turn;
  // Most turns have no task in progress: nothing to close, and no need to look through versions.
  let first = await (boardRead ?? readProjectState(models, turn.projectId));
  if (!first || !first.value.tasks.some((t) => t.status === 'in_progress')) return;
  const fileIds = [
    ...new Set(
      (await models.FileVersion.find({ turnId, author: 'ai' }).select({ fileId: 1 }).lean()).map((v) => v.fileId),
    ),
  ];
  if (!fileIds.length) return;
  const written = (
    await models.File.find({ _id: { $in: fileIds }, deletedAt: null, words: { $gt: 0 } })
      .select({ title: 1, type: 1 })
      .lean()
  ).map((f) => ({
    title: f.title,
    body: isBodyFileType(f.type),
  }));
  await compareAndSet(`task board of project ${turn.projectId}`, async () => {
    // The first attempt works from the read above; a retry after a lost race reads again.
    const read = first ?? (await readProjectState(models, turn.projectId));
    first = null;
    if (!read || !read.value.tasks.some((t) => t.status === 'in_progress')) return casWritten(null);
    const board = finalizeBoard(read.value.tasks, { written, liveUnits: await liveBodyUnits(models, turn.projectId) });
    if (!board.changed) return casWritten(null);
    return (await writeProjectState(models, turn.projectId, read, { tasks: board.tasks })) ? casWritten(null) : casLost;
  });
}
