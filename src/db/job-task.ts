/**
 * Writes a job's item on the project's task board (core/job/job-task.ts builds it). FerretDB v1 has
 * neither transactions nor the positional `$` update, so the array is replaced with a
 * compare-and-set on the project's revision (./project-state.ts): a concurrent update_project
 * from a turn is retried over, never silently overwritten. The item keeps its place on the board.
 */
import type { JobTask } from '../core/job/job-task';
import { casLost, casWritten, compareAndSet } from './compare-and-set';
import type { Models } from './models';
import { readProjectState, type StoredTask, writeProjectState } from './project-state';

/**
 * Puts the job's item on the board: `build` gets the item as it is now (null when the board
 * has none) and returns the new one, or null to leave the board as it is. It may run more than
 * once (a lost race reads again).
 * @throws CompareAndSetExhausted when the board kept changing (the caller retries).
 */
export async function writeJobTask(
  models: Models,
  projectId: string,
  taskId: string,
  build: (current: StoredTask | null) => JobTask | null,
): Promise<void> {
  await compareAndSet(
    `task board of project ${projectId}`,
    async () => {
      const read = await readProjectState(models, projectId);
      if (!read) return casWritten(undefined);
      const at = read.value.tasks.findIndex((t) => t.id === taskId);
      const next = build(at >= 0 ? read.value.tasks[at]! : null);
      if (!next) return casWritten(undefined);
      const tasks = read.value.tasks.filter((t) => t.id !== taskId);
      tasks.splice(at >= 0 ? at : tasks.length, 0, next);
      return (await writeProjectState(models, projectId, read, { tasks })) ? casWritten(undefined) : casLost;
    },
    { attempts: 8 },
  );
}
