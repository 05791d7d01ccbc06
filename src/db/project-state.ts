/**
 * The project's agent-written state — summary, style, notes and the task board — under
 * revision claims (./revision-claims.ts). update_project, the job's task and the turn-end
 * board finalize all read-modify-write it concurrently; every write goes through here, with
 * the full state, so any apply or roll-forward leaves the four fields consistent.
 */
import type { Models } from './models';
import { readRevision, type Revision, writeRevision } from './revision-claims';

/** One task of the board as stored (models.ts `taskSchema`). */
export interface StoredTask {
  id: string;
  title: string;
  status: 'todo' | 'in_progress' | 'done';
  artifact?: string | null;
  doneUnits?: number[] | null;
  progress?: string | null;
}

export interface ProjectState {
  summary: string;
  style: string;
  notes: string;
  tasks: StoredTask[];
}

const STATE_FIELDS = ['summary', 'style', 'notes', 'tasks'] as const;

/** The project's current state and revision, or null when the project does not exist. */
export async function readProjectState(models: Models, projectId: string): Promise<Revision<ProjectState> | null> {
  const read = await readRevision<ProjectState>(models, models.Project, projectId, STATE_FIELDS);
  if (!read) return null;
  const v = read.value;
  return {
    ...read,
    value: { summary: v.summary ?? '', style: v.style ?? '', notes: v.notes ?? '', tasks: v.tasks ?? [] },
  };
}

/**
 * Writes `changes` over the state that was read, as the next revision.
 * @returns false when another writer changed the project since `read` (nothing written: read again).
 */
export async function writeProjectState(
  models: Models,
  projectId: string,
  read: Revision<ProjectState>,
  changes: Partial<ProjectState>,
): Promise<boolean> {
  return writeRevision<ProjectState>(models, models.Project, projectId, read, { ...read.value, ...changes });
}
