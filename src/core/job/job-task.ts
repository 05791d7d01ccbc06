/**
 * A job's item on the project's task board, as agents read it in their context and Studio
 * shows it: the range in the job's language ("Chapters 1–3", "第1–3章"), the chapters written,
 * and a status that follows the job — `in_progress` while it runs or waits to be resumed from
 * a pause, `done` once every chapter of the range has text, `todo` when it stopped short
 * (cancelled, or failed and waiting for a resume). Never a job id or a machine word. Pure.
 */
import type { JobStatus } from '../domain';
import type { Language } from '../words/language';
import { jobWords } from '../author-words';

/** The board task id of a job: the one link from the board back to the job (Studio reads it). */
export const jobTaskId = (jobId: string): string => `job-${jobId}`;

/** The job a board task belongs to, or null for the team's own tasks. */
export const jobIdOfTask = (taskId: string): string | null => /^job-([0-9a-f]{24})$/.exec(taskId)?.[1] ?? null;

export interface JobTaskFacts {
  jobId: string;
  from: number;
  to: number;
  language?: Language | string | null;
  status: JobStatus;
  failedChapter?: number | null;
  /** Chapters of the range that exist as draft files with body text, whoever wrote them (the failed chapter excepted). */
  doneUnits: number[];
}

export interface JobTask {
  id: string;
  title: string;
  status: 'todo' | 'in_progress' | 'done';
  doneUnits: number[];
  progress: string;
}

/** The board's status of a job's task: it is done when the range is written, not merely when the job ended. */
export function jobTaskStatus(status: JobStatus, allWritten: boolean): JobTask['status'] {
  if (allWritten) return 'done';
  return status === 'cancelled' || status === 'failed' || status === 'completed' ? 'todo' : 'in_progress';
}

export function jobTask(f: JobTaskFacts): JobTask {
  const words = jobWords(f.language === 'zh' ? 'zh' : 'en');
  const total = f.to - f.from + 1;
  // The chapter the job stopped on may keep a part (a cut-off answer): it is not written.
  const doneUnits = [...new Set(f.doneUnits.filter((n) => n >= f.from && n <= f.to && n !== f.failedChapter))].sort(
    (a, b) => a - b,
  );
  return {
    id: jobTaskId(f.jobId),
    title: words.taskTitle(f.from, f.to),
    status: jobTaskStatus(f.status, doneUnits.length >= total),
    doneUnits,
    progress: words.taskProgress(doneUnits.length, total, f.status, f.failedChapter ?? null),
  };
}
