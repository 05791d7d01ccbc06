/**
 * What a job reads from and writes to the project: which draft file is chapter N, which
 * chapters the outline covers, and the job's task on the project task board. A chapter
 * counts as written only when a live draft file for it has body text (the task
 * board marks done only what exists as files with body text).
 */
import { numberRuns } from '../../core/author-words';
import { jobTask, jobTaskId } from '../../core/job/job-task';
import { writeJobTask } from '../../db/job-task';
import type { Models } from '../../db/models';
import { BODY_FILE_TYPES, type JobStatus } from '../../core/domain';
import { chapterOf, outlineLines } from '../../core/book/outline';

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
    list.push({
      id: String(f._id),
      title: f.title,
      words: f.words,
      updatedAt: f.updatedAt,
      createdByTurnId: f.createdByTurnId ?? null,
    });
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
  return pickChapterFile(candidates) ?? candidates?.[0] ?? null;
}

export interface OutlineCoverage {
  /** Chapter → its outline line (first one found, newest outline first). */
  entries: Map<number, string>;
  outlineIds: string[];
}

/** Outline entries (lines that start with a chapter number), across every live outline file, newest first. */
export async function outlineCoverage(models: Models, projectId: string): Promise<OutlineCoverage> {
  const outlines = await models.File.find({ projectId, type: 'outline', deletedAt: null })
    .sort({ updatedAt: -1 })
    .select({ content: 1 })
    .lean();
  return { entries: outlineLines(outlines.map((o) => o.content)), outlineIds: outlines.map((o) => String(o._id)) };
}

export function missingChapters(coverage: OutlineCoverage, from: number, to: number): number[] {
  const missing: number[] = [];
  for (let n = from; n <= to; n++) if (!coverage.entries.has(n)) missing.push(n);
  return missing;
}

/** "1–3, 7, 9–12" ("1–3、7、9–12" in Chinese): compact ranges for messages. */
export function describeRanges(ns: number[], max = 12, lang: 'en' | 'zh' = 'en'): string {
  const parts = numberRuns(ns);
  const sep = lang === 'zh' ? '、' : ', ';
  return parts.length > max ? `${parts.slice(0, max).join(sep)}${sep}…` : parts.join(sep);
}

export { jobTaskId };

/** The job as its board item needs it. */
export interface JobOnBoard {
  jobId: string;
  projectId: string;
  from: number;
  to: number;
  language?: string | null;
}

/**
 * Records the job on the project task board (core/job/job-task.ts): its range, the chapters that
 * exist as draft files with body text (`doneUnits`, whoever wrote them), and a status that
 * follows the job's — so a cancelled or failed job never stays "in progress".
 */
export async function updateJobTask(
  models: Models,
  job: JobOnBoard,
  doneUnits: number[],
  status: JobStatus = 'running',
  failedChapter: number | null = null,
): Promise<void> {
  const task = jobTask({ ...job, status, failedChapter, doneUnits });
  // Exhaustion throws CompareAndSetExhausted: the activity fails and Temporal retries it.
  await writeJobTask(models, job.projectId, task.id, () => task);
}
