/**
 * What a job reads from and writes to the project: which draft file is chapter N, which
 * chapters the outline covers, and the job's task on the project task board. A chapter
 * counts as written only when a live draft file for it has body text (seed 001: the task
 * board marks done only what exists as files with body text).
 */
import { numberRuns } from '../core/author-words';
import { casLost, casWritten, compareAndSet } from '../db/compare-and-set';
import { readProjectState, writeProjectState } from '../db/project-state';
import type { Models } from '../db/models';
import { BODY_FILE_TYPES } from '../core/domain';
import { chapterOf, outlineLines } from '../core/outline';

export { chapterOf };

export interface ChapterFile {
  id: string;
  title: string;
  words: number;
  updatedAt: Date;
  createdByTurnId: string | null;
}

/** Live body files (draft/script) of the project, keyed by the chapter their title names. */
export async function chapterFiles(models: Models, projectId: string): Promise<Map<number, ChapterFile[]>> {
  const files = await models.File.find({ projectId, type: { $in: BODY_FILE_TYPES }, deletedAt: null })
    .select({ title: 1, words: 1, updatedAt: 1, createdByTurnId: 1 })
    .lean();
  const byChapter = new Map<number, ChapterFile[]>();
  for (const f of files) {
    const n = chapterOf(f.title);
    if (n === null) continue;
    const list = byChapter.get(n) ?? [];
    list.push({ id: String(f._id), title: f.title, words: f.words, updatedAt: f.updatedAt, createdByTurnId: f.createdByTurnId ?? null });
    byChapter.set(n, list);
  }
  return byChapter;
}

/**
 * The file that is chapter N: with body text, preferring one the given turns created, then
 * the most recently updated (a revision rewrites in place, so it stays the same file).
 */
export function pickChapterFile(candidates: ChapterFile[] | undefined, turnIds: string[] = []): ChapterFile | null {
  const written = (candidates ?? []).filter((f) => f.words > 0);
  if (!written.length) return null;
  const ours = written.filter((f) => f.createdByTurnId && turnIds.includes(f.createdByTurnId));
  const pool = ours.length ? ours : written;
  return [...pool].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())[0]!;
}

/** Any live file for chapter N, written or not (a failed attempt may have left one). */
export function anyChapterFile(candidates: ChapterFile[] | undefined): ChapterFile | null {
  return pickChapterFile(candidates) ?? (candidates?.[0] ?? null);
}

export interface OutlineCoverage {
  /** Chapter → its outline line (first one found, newest outline first). */
  entries: Map<number, string>;
  outlineIds: string[];
}

/** Outline entries (lines that start with a chapter number), across every live outline file, newest first. */
export async function outlineCoverage(models: Models, projectId: string): Promise<OutlineCoverage> {
  const outlines = await models.File.find({ projectId, type: 'outline', deletedAt: null }).sort({ updatedAt: -1 }).select({ content: 1 }).lean();
  return { entries: outlineLines(outlines.map((o) => o.content)), outlineIds: outlines.map((o) => String(o._id)) };
}

export function missingChapters(coverage: OutlineCoverage, from: number, to: number): number[] {
  const missing: number[] = [];
  for (let n = from; n <= to; n++) if (!coverage.entries.has(n)) missing.push(n);
  return missing;
}

/** "1–3, 7, 9–12": compact ranges for messages. */
export function describeRanges(ns: number[], max = 12): string {
  const parts = numberRuns(ns);
  return parts.length > max ? `${parts.slice(0, max).join(', ')}, …` : parts.join(', ');
}

export const jobTaskId = (jobId: string): string => `job-${jobId}`;

/**
 * Records the job's range on the project task board: `doneUnits` are the chapters in the
 * range that exist as draft files with body text — whoever wrote them — and the task is
 * `done` only when all of them do. FerretDB v1 has neither transactions nor the positional
 * `$` update, so the array is replaced with a compare-and-set on the project's revision
 * (src/db/project-state.ts): a concurrent update_project from a turn is retried over, never
 * silently overwritten.
 */
export async function updateJobTask(
  models: Models,
  job: { jobId: string; projectId: string; from: number; to: number },
  doneUnits: number[],
  note = '',
): Promise<void> {
  const total = job.to - job.from + 1;
  const task = {
    id: jobTaskId(job.jobId),
    title: `Chapters ${job.from}–${job.to} (job ${job.jobId.slice(-6)}, one chapter per turn)`,
    status: (doneUnits.length >= total ? 'done' : 'in_progress') as 'done' | 'in_progress',
    doneUnits,
    progress: `${doneUnits.length}/${total} chapters written${note ? `; ${note}` : ''}`,
  };
  // Exhaustion throws CompareAndSetExhausted: the activity fails and Temporal retries it.
  await compareAndSet(`task board of project ${job.projectId}`, async () => {
    const read = await readProjectState(models, job.projectId);
    if (!read) return casWritten(undefined);
    const tasks = read.value.tasks.filter((t) => t.id !== task.id);
    const at = read.value.tasks.findIndex((t) => t.id === task.id);
    tasks.splice(at >= 0 ? at : tasks.length, 0, task);
    return (await writeProjectState(models, job.projectId, read, { tasks })) ? casWritten(undefined) : casLost;
  }, { attempts: 8 });
}
