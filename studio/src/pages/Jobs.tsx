/**
 * Multi-chapter jobs: start one (range, instructions, review, a token or money budget), and
 * follow it — a bar per chapter from its progress events and the manuscript's files, pause,
 * resume, cancel. The job's stream is read from its start on every open, so a reload shows
 * the same progress.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { get, type Job, post, errText } from '../api';
import { tk, useI18n, when } from '../i18n';
import { href, navigate } from '../router';
import { LiveStream, type Ev } from '../stream';
import { unitOfTitle } from '../../../src/core/numerals';
import { useProject } from './Project';

function StartJob({ projectId }: { projectId: string }) {
  const { t } = useI18n();
  const [f, setF] = useState({ from: '1', to: '3', instructions: '', review: true, maxTokens: '', maxCostUsd: '' });
  const [error, setError] = useState('');
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError('');
    try {
      const body = {
        projectId,
        chapters: { from: Number(f.from), to: Number(f.to) },
        review: f.review,
        ...(f.instructions.trim() ? { instructions: f.instructions.trim() } : {}),
        ...(f.maxTokens ? { maxTokens: Number(f.maxTokens) } : {}),
        ...(f.maxCostUsd ? { maxCostUsd: Number(f.maxCostUsd) } : {}),
      };
      const r = await post<{ jobId: string }>('/jobs', body);
      navigate(href({ page: 'project', projectId, tab: 'jobs', sub: r.jobId }));
    } catch (err) {
      setError(errText(err));
    }
  };
  return (
    <form className="card stack" onSubmit={(e) => void submit(e)} aria-labelledby="start-h">
      <h2 id="start-h">{t.startJob}</h2>
      <div className="row">
        <label>
          {t.fromChapter}
          <input type="number" min={1} value={f.from} onChange={(e) => setF({ ...f, from: e.target.value })} required />
        </label>
        <label>
          {t.toChapter}
          <input type="number" min={1} value={f.to} onChange={(e) => setF({ ...f, to: e.target.value })} required />
        </label>
        <label className="check">
          <input type="checkbox" checked={f.review} onChange={(e) => setF({ ...f, review: e.target.checked })} /> {t.review}
        </label>
      </div>
      <label>
        {t.instructions} <span className="muted small">({t.optional})</span>
        <textarea rows={2} value={f.instructions} onChange={(e) => setF({ ...f, instructions: e.target.value })} maxLength={4000} />
      </label>
      <div className="row">
        <label>
          {t.maxTokens} <span className="muted small">({t.optional})</span>
          <input type="number" min={1} value={f.maxTokens} onChange={(e) => setF({ ...f, maxTokens: e.target.value })} />
        </label>
        <label>
          {t.maxCostUsd} <span className="muted small">({t.optional})</span>
          <input type="number" min={0} step="0.01" value={f.maxCostUsd} onChange={(e) => setF({ ...f, maxCostUsd: e.target.value })} />
        </label>
      </div>
      <button type="submit">{t.start}</button>
      {error && <p role="alert" className="error">{error}</p>}
    </form>
  );
}

type Progress = Ev<'job_progress'>['data'];

function JobView({ jobId }: { jobId: string }) {
  const { t } = useI18n();
  const { files, reloadFiles, reloadProject } = useProject();
  const [job, setJob] = useState<Job | null>(null);
  const [progress, setProgress] = useState<Progress[]>([]);
  const [error, setError] = useState('');
  const stream = useRef<LiveStream | null>(null);

  const load = useCallback(() => {
    get<Job>(`/jobs/${jobId}`)
      .then(setJob)
      .catch((e: unknown) => setError(errText(e)));
  }, [jobId]);

  useEffect(() => {
    load();
    setProgress([]);
    stream.current = new LiveStream({
      kind: 'job',
      id: jobId,
      onEvents: (events) => {
        const p = events.filter((e): e is Ev<'job_progress'> => e.type === 'job_progress').map((e) => e.data);
        if (p.length) setProgress((list) => [...list, ...p]);
        load();
        reloadFiles();
        reloadProject();
      },
      onEnd: () => {
        load();
        reloadFiles();
        reloadProject();
      },
    });
    return () => stream.current?.close();
  }, [jobId, load, reloadFiles, reloadProject]);

  const control = (what: 'pause' | 'resume' | 'cancel') => () => {
    post(`/jobs/${jobId}/${what}`, {})
      .then(load)
      .catch((e: unknown) => setError(errText(e)));
  };

  if (!job) return <p>{error || t.loading}</p>;
  const last = progress[progress.length - 1];
  const status = job.status;
  const target = job.wordsPerChapter ?? 1000;
  const current = last?.chapter ?? job.live?.chapter;
  const chapters = Array.from({ length: job.chapters.to - job.chapters.from + 1 }, (_, i) => job.chapters.from + i);
  return (
    <section className="job card" aria-labelledby="job-h" data-job-id={job.id} data-status={status}>
      <div className="row">
        <h2 id="job-h">
          {t.job} · {t.chapter} {job.chapters.from}–{job.chapters.to}
        </h2>
        <span className="badge" data-testid="job-status">
          {tk(t, `status_${status}`)}
        </span>
      </div>
      {last?.message && <p className="muted">{last.message}</p>}
      <ol className="chapters">
        {chapters.map((n) => {
          const file = files.find((f) => (f.type === 'draft' || f.type === 'script') && unitOfTitle(f.title)?.n === n);
          const done = job.chaptersDone.includes(n);
          const state = done ? 'done' : job.chaptersSkipped.includes(n) ? 'skipped' : job.failedChapter === n ? 'failed' : current === n && !['paused', 'cancelled', 'completed'].includes(status) ? 'writing' : 'pending';
          const words = file?.words ?? 0;
          const pct = done || state === 'skipped' ? 100 : Math.min(99, Math.round((words / target) * 100));
          return (
            <li key={n} data-chapter={n} data-state={state}>
              <span className="ch-label">
                {t.chapter} {n}
              </span>
              <progress max={100} value={pct} aria-label={`${t.chapter} ${n}`} />
              <span className="muted small">
                {tk(t, `ch_${state}`)} · {words} {t.words}
                {done && job.review ? ` · ${t.reviewed}` : ''}
              </span>
            </li>
          );
        })}
      </ol>
      <p className="muted small">
        {job.words} {t.words} · {(job.usage?.totalTokens ?? 0).toLocaleString()} {t.tokens}
        {job.maxTokens ? ` / ${job.maxTokens.toLocaleString()}` : ''}
      </p>
      <div className="row">
        {['running', 'queued'].includes(status) && (
          <button type="button" onClick={control('pause')}>
            {t.pause}
          </button>
        )}
        {['paused', 'pausing', 'failed'].includes(status) && (
          <button type="button" onClick={control('resume')}>
            {t.resume}
          </button>
        )}
        {!['completed', 'cancelled'].includes(status) && (
          <button type="button" className="danger" onClick={control('cancel')}>
            {t.cancel}
          </button>
        )}
      </div>
      {error && <p role="alert" className="error">{error}</p>}
    </section>
  );
}

export function JobsPage({ projectId, jobId }: { projectId: string; jobId?: string }) {
  const { t, lang } = useI18n();
  const [jobs, setJobs] = useState<Job[]>([]);
  useEffect(() => {
    get<{ items: Job[] }>(`/jobs?projectId=${projectId}`)
      .then((r) => setJobs(r.items))
      .catch(() => undefined);
  }, [projectId, jobId]);
  return (
    <div className="jobs">
      {jobId ? <JobView key={jobId} jobId={jobId} /> : <StartJob projectId={projectId} />}
      <section aria-labelledby="jobs-h">
        <h2 id="jobs-h">{t.jobs}</h2>
        {jobs.length === 0 ? (
          <p className="muted">{t.noJobs}</p>
        ) : (
          <ul>
            {jobs.map((j) => {
              const to = href({ page: 'project', projectId, tab: 'jobs', sub: j.id });
              return (
                <li key={j.id}>
                  <a
                    href={to}
                    onClick={(e) => {
                      e.preventDefault();
                      navigate(to);
                    }}
                    aria-current={j.id === jobId ? 'page' : undefined}
                  >
                    {t.chapter} {j.chapters.from}–{j.chapters.to}
                  </a>{' '}
                  <span className="muted small">
                    · {tk(t, `status_${j.status}`)} · {when(j.createdAt, lang)}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
        {jobId && (
          <a
            href={href({ page: 'project', projectId, tab: 'jobs' })}
            onClick={(e) => {
              e.preventDefault();
              navigate(href({ page: 'project', projectId, tab: 'jobs' }));
            }}
          >
            {t.startJob}
          </a>
        )}
      </section>
    </div>
  );
}
