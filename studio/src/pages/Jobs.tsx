/**
 * Multi-chapter jobs: start one (range, instructions, review, a token or money budget), follow
 * it (./JobView.tsx), and the project's jobs, each with its status as its stream says it now
 * (a job that ends while the list is open says so without a reload).
 */
import { useEffect, useState } from 'react';
import { ApiError, get, post } from '../api';
import { fmt, tk, useI18n, when } from '../i18n';
import { href, navigate } from '../router';
import { usd } from '../../../src/core/author-words';
import { chapterWordsOf, firstUnwritten } from './job-chapters';
import { jobSpend, jobStatus, type JobRecord, writtenCount } from './job-fold';
import { jobIsActive, useChapterLive, useJobLive } from './job-live';
import { JobView } from './JobView';
import { useProject } from './Project';
import { rangeText } from './job-text';

function StartJob({ projectId }: { projectId: string }) {
  const { t, lang } = useI18n();
  const { files } = useProject();
  // Until the author types a range, it starts at the first chapter the book does not have yet
  // (a job asked to rewrite chapter 1 by default would skip it or overwrite it).
  const next = firstUnwritten(chapterWordsOf(files));
  const [typed, setTyped] = useState<{ from: string | null; to: string | null }>({ from: null, to: null });
  const [opts, setOpts] = useState({ instructions: '', review: true, maxTokens: '', maxCostUsd: '' });
  const f = { ...opts, from: typed.from ?? String(next), to: typed.to ?? String(next + 2) };
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError('');
    setBusy(true);
    try {
      const body = {
        projectId,
        chapters: { from: Number(f.from), to: Number(f.to) },
        review: f.review,
        // The job's messages (progress, the task board, its closing note) speak the author's language.
        language: lang,
        ...(f.instructions.trim() ? { instructions: f.instructions.trim() } : {}),
        ...(f.maxTokens ? { maxTokens: Number(f.maxTokens) } : {}),
        ...(f.maxCostUsd ? { maxCostUsd: Number(f.maxCostUsd) } : {}),
      };
      const r = await post<{ jobId: string }>('/jobs', body);
      navigate(href({ page: 'project', projectId, tab: 'jobs', sub: r.jobId }));
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 409
          ? t.jobBusy
          : fmt(t.jobStartFailed, { reason: err instanceof Error ? err.message : String(err) }),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card stack job-start" onSubmit={(e) => void submit(e)} aria-labelledby="start-h">
      <h2 id="start-h">{t.jobStartTitle}</h2>
      <p className="muted small">{t.jobStartHelp}</p>
      <div className="row">
        <label>
          {t.jobFrom}
          <input
            type="number"
            min={1}
            value={f.from}
            onChange={(e) => setTyped({ ...typed, from: e.target.value })}
            required
          />
        </label>
        <label>
          {t.jobTo}
          <input
            type="number"
            min={1}
            value={f.to}
            onChange={(e) => setTyped({ ...typed, to: e.target.value })}
            required
          />
        </label>
        <label className="check">
          <input type="checkbox" checked={f.review} onChange={(e) => setOpts({ ...opts, review: e.target.checked })} />{' '}
          {t.jobReview}
        </label>
      </div>
      <label>
        {t.jobInstructions} <span className="muted small">{t.jobOptional}</span>
        <textarea
          rows={2}
          value={f.instructions}
          onChange={(e) => setOpts({ ...opts, instructions: e.target.value })}
          maxLength={4000}
        />
      </label>
      <div className="row">
        <label>
          {t.jobTokenBudget} <span className="muted small">{t.jobOptional}</span>
          <input
            type="number"
            min={1}
            value={f.maxTokens}
            onChange={(e) => setOpts({ ...opts, maxTokens: e.target.value })}
          />
        </label>
        <label>
          {t.jobCostBudget} <span className="muted small">{t.jobOptional}</span>
          <input
            type="number"
            min={0}
            step="0.01"
            value={f.maxCostUsd}
            onChange={(e) => setOpts({ ...opts, maxCostUsd: e.target.value })}
          />
        </label>
      </div>
      <div>
        <button type="submit" disabled={busy}>
          {t.jobStartButton}
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  );
}

/** One job of the list: its status and spend followed live while it can still change. */
function JobItem({ job, projectId, current }: { job: JobRecord; projectId: string; current: boolean }) {
  const { t, lang } = useI18n();
  const { files } = useProject();
  const live = useJobLive(jobIsActive(job.status) ? job.id : null);
  const status = jobStatus(job, live);
  const to = href({ page: 'project', projectId, tab: 'jobs', sub: job.id });
  const total = job.chapters.to - job.chapters.from + 1;
  const done = writtenCount(job, live, status, new Set(chapterWordsOf(files).keys()));
  // The chapter in flight is followed here too, so the list says what the job view says.
  const chapter = useChapterLive(live.inFlight?.turnId ?? null);
  const cost = jobSpend(job, live, chapter).costUsd;
  return (
    <li data-job-id={job.id} data-status={status}>
      <a
        href={to}
        onClick={(e) => {
          e.preventDefault();
          navigate(to);
        }}
        aria-current={current ? 'page' : undefined}
      >
        {rangeText(t, job.chapters.from, job.chapters.to)}
      </a>{' '}
      <span className={`job-chip small`} data-status={status}>
        {tk(t, `jobStatus_${status}`)}
      </span>{' '}
      <span className="muted small" data-cost={cost}>
        {fmt(t.taskJobProgress, { done, total })} · {usd(cost)} · {when(job.createdAt, lang)}
      </span>
    </li>
  );
}

export function JobsPage({ projectId, jobId }: { projectId: string; jobId?: string }) {
  const { t } = useI18n();
  const [jobs, setJobs] = useState<JobRecord[] | null>(null);
  useEffect(() => {
    get<{ items: JobRecord[] }>(`/jobs?projectId=${projectId}`)
      .then((r) => setJobs(r.items))
      .catch(() => setJobs([]));
  }, [projectId, jobId]);
  const startHref = href({ page: 'project', projectId, tab: 'jobs' });
  return (
    <div className="jobs">
      {jobId ? <JobView key={jobId} jobId={jobId} /> : <StartJob projectId={projectId} />}
      <section aria-labelledby="jobs-h" className="job-list">
        <h2 id="jobs-h">{t.jobListTitle}</h2>
        {jobs && jobs.length === 0 ? (
          <p className="muted">{t.jobNone}</p>
        ) : (
          <ul data-testid="job-list">
            {(jobs ?? []).map((j) => (
              <JobItem key={j.id} job={j} projectId={projectId} current={j.id === jobId} />
            ))}
          </ul>
        )}
        {jobId && (
          <a
            href={startHref}
            onClick={(e) => {
              e.preventDefault();
              navigate(startHref);
            }}
          >
            {t.jobNew}
          </a>
        )}
      </section>
    </div>
  );
}
