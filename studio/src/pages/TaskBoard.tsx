/**
 * The project's task board (the planner keeps it through update_project; jobs keep an item
 * each), beside the chat. A job's item is drawn from the job itself, in the author's language,
 * and follows the job's stream: it says "completed", "cancelled" or "stopped" the moment the
 * job does, never "in progress" for a job that has ended.
 */
import { useEffect, useRef, useState } from 'react';
import { get, type Project } from '../api';
import { type Dict, fmt, tk, useI18n } from '../i18n';
import { href, navigate } from '../router';
import { jobIdOfTask } from '../../../src/core/job/job-task';
import { jobStatus, type JobRecord } from './job-fold';
import { jobIsActive, useJobLive } from './job-live';
import { rangeText } from './job-text';
import { useProject } from './Project';

type Task = NonNullable<Project['tasks']>[number] & { doneUnits?: number[] | null };

/** The board's marks: the same for a job's item and the team's tasks. */
const MARK: Record<string, string> = {
  done: '☑',
  in_progress: '◐',
  todo: '☐',
  cancelled: '☒',
  failed: '⚠',
  paused: '⏸',
};

/** A job's status as the board shows it: its own word, and the mark of the nearest board status. */
function jobMark(status: string): { mark: string; board: string } {
  if (status === 'completed') return { mark: MARK.done!, board: 'done' };
  if (status === 'cancelled') return { mark: MARK.cancelled!, board: 'todo' };
  if (status === 'failed') return { mark: MARK.failed!, board: 'todo' };
  if (status === 'paused') return { mark: MARK.paused!, board: 'in_progress' };
  return { mark: MARK.in_progress!, board: 'in_progress' };
}

function JobTaskItem({ task, job, projectId }: { task: Task; job: JobRecord; projectId: string }) {
  const { t } = useI18n();
  const { reloadProject } = useProject();
  const live = useJobLive(jobIsActive(job.status) ? job.id : null);
  const status = jobStatus(job, live);
  const { mark, board } = jobMark(status);
  const total = job.chapters.to - job.chapters.from + 1;
  // The board's own count (chapters with text, as agents read it), the stream's while it runs ahead.
  const done = Math.max(task.doneUnits?.length ?? 0, new Set([...job.chaptersDone, ...live.written]).size);
  // The job writes its item before it tells its stream: reading the project again brings it.
  const changed = `${live.status}|${live.written.length}`;
  const seen = useRef(changed);
  useEffect(() => {
    if (seen.current === changed) return;
    seen.current = changed;
    reloadProject();
  }, [changed, reloadProject]);
  const to = href({ page: 'project', projectId, tab: 'jobs', sub: job.id });
  return (
    <li data-status={board} data-job-status={status} data-task-id={task.id}>
      <span aria-hidden="true">{mark}</span>{' '}
      <a
        href={to}
        title={t.taskOpenJob}
        onClick={(e) => {
          e.preventDefault();
          navigate(to);
        }}
      >
        {fmt(t.taskJob, { range: rangeText(t, job.chapters.from, job.chapters.to) })}
      </a>
      <span className="muted small task-note">
        {' '}
        · {tk(t, `jobStatus_${status}`)} · {fmt(t.taskJobProgress, { done, total })}
      </span>
    </li>
  );
}

/** A task of the team's: its title as written, and its status in words for those who do not see the mark. */
function TeamTaskItem({ task, t }: { task: Task; t: Dict }) {
  const status = task.status ?? 'todo';
  return (
    <li data-status={status} data-task-id={task.id}>
      <span aria-hidden="true">{MARK[status] ?? MARK.todo}</span> {task.title}
      <span className="sr-only"> ({tk(t, `task_${status}`)})</span>
    </li>
  );
}

/**
 * How often a visible board reads the project again. A job or a planner turn started in another
 * tab or on another device adds its item without telling this page's streams (each job and
 * session has its own); a read every few seconds brings it, and coming back to the tab at once.
 */
const BOARD_REFRESH_MS = 8000;

function useBoardRefresh(refreshProject: () => void): void {
  useEffect(() => {
    const visible = () => document.visibilityState === 'visible';
    const tick = setInterval(() => visible() && refreshProject(), BOARD_REFRESH_MS);
    const back = () => visible() && refreshProject();
    document.addEventListener('visibilitychange', back);
    return () => {
      clearInterval(tick);
      document.removeEventListener('visibilitychange', back);
    };
  }, [refreshProject]);
}

export function TaskBoard() {
  const { t } = useI18n();
  const { project, refreshProject } = useProject();
  useBoardRefresh(refreshProject);
  const tasks = (project.tasks ?? []) as Task[];
  const jobIds = tasks.map((task) => jobIdOfTask(task.id)).filter((id): id is string => !!id);
  const [jobs, setJobs] = useState<Map<string, JobRecord>>(new Map());
  const wanted = jobIds.join(',');
  // The jobs behind the board's items, read once per set of items (their streams say the rest).
  useEffect(() => {
    if (!wanted) return;
    get<{ items: JobRecord[] }>(`/jobs?projectId=${project.id}&limit=100`)
      .then((r) => setJobs(new Map(r.items.map((j) => [j.id, j]))))
      .catch(() => undefined);
  }, [project.id, wanted]);
  return (
    <section className="board card" aria-labelledby="board-h" data-testid="task-board">
      <h2 id="board-h">{t.taskBoard}</h2>
      {tasks.length === 0 ? (
        <p className="muted small">{t.noTasks}</p>
      ) : (
        <ul>
          {tasks.map((task) => {
            const jobId = jobIdOfTask(task.id);
            const job = jobId ? jobs.get(jobId) : undefined;
            return job ? (
              <JobTaskItem key={task.id} task={task} job={job} projectId={project.id} />
            ) : (
              <TeamTaskItem key={task.id} task={task} t={t} />
            );
          })}
        </ul>
      )}
    </section>
  );
}
