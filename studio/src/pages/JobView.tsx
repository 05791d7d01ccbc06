/**
 * One job as it happens: its status (from its stream, so it ends when the job ends), what it
 * is doing now and what the controls will do, a bar per chapter that rises with the words of
 * the chapter being written (read from that chapter's own turn stream), and what the job has
 * cost so far. A reload shows the same: both streams are read from their first event.
 */
import { useEffect, useRef, useState } from 'react';
import { ApiError, post } from '../api';
import { type Dict, fmt, tk, useI18n } from '../i18n';
import { usd } from '../../../src/core/author-words';
import { useProject } from './Project';
import { chapterWordsOf } from './job-chapters';
import {
  chapterPercent,
  chapterState,
  type ChapterState,
  chapterTarget,
  chapterWords,
  ENDED_JOB_STATUSES,
  jobSpend,
  jobStatus,
  type JobLive,
  type JobRecord,
  type Phase,
  phaseOf,
  writtenCount,
} from './job-fold';
import { useChapterLive, useJobLive, useJobRecord } from './job-live';
import { rangeText } from './job-text';

type Action = 'pause' | 'resume' | 'cancel';

const num = (n: number, lang: string) => n.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-GB');

/** The sentence under the badge: what the job is doing now, or how it ended, in the author's language. */
function nowText(
  t: Dict,
  status: string,
  phase: Phase,
  live: JobLive,
  record: JobRecord,
  next: number,
  done: number,
): string {
  const total = record.chapters.to - record.chapters.from + 1;
  const n = live.inFlight?.chapter ?? next;
  switch (status) {
    case 'completed':
      return fmt(t.jobNow_completed, { done, total });
    case 'cancelled':
      return done ? fmt(t.jobNow_cancelled, { done, total }) : t.jobNow_cancelledNone;
    case 'paused':
      return next <= record.chapters.to ? fmt(t.jobNow_paused, { n: next }) : t.jobNow_pausedDone;
    case 'pausing':
      return t.jobNow_pausing;
    case 'failed': {
      const at = live.failedChapter ?? record.failedChapter ?? null;
      return at === null || (record.chaptersDone.length === 0 && !live.written.length && phase === 'outline')
        ? t.jobNow_failedOutline
        : fmt(t.jobNow_failed, { n: at });
    }
    case 'queued':
      return t.jobNow_queued;
    default:
      if (phase === 'outline') return t.jobNow_outline;
      if (phase === 'reviewing') return fmt(t.jobNow_reviewing, { n });
      if (phase === 'revising') return fmt(t.jobNow_revising, { n, round: Math.max(1, live.inFlight?.round ?? 1) });
      if (phase === 'writing') return fmt(t.jobNow_writing, { n });
      return t.jobNow_between;
  }
}

/** The controls a status offers, each with what it will do. */
function controlsOf(status: string): { action: Action; label: keyof Dict; hint?: keyof Dict; danger?: boolean }[] {
  // Cancelling a job that waits stops nothing in flight: its hint says only what stays.
  const waiting = status === 'paused' || status === 'failed';
  const cancel = {
    action: 'cancel' as const,
    label: 'jobCancel' as const,
    hint: waiting ? ('jobCancelHintIdle' as const) : ('jobCancelHint' as const),
    danger: true,
  };
  if (status === 'running' || status === 'queued')
    return [{ action: 'pause', label: 'jobPause', hint: 'jobPauseHint' }, cancel];
  if (status === 'pausing') return [{ action: 'resume', label: 'jobKeepGoing' }, cancel];
  if (status === 'paused') return [{ action: 'resume', label: 'jobResume' }, cancel];
  if (status === 'failed') return [{ action: 'resume', label: 'jobRetry' }, cancel];
  return [];
}

function ChapterRow({
  n,
  state,
  words,
  percent,
  reviewed,
}: {
  n: number;
  state: ChapterState;
  words: number;
  percent: number;
  reviewed: boolean;
}) {
  const { t, lang } = useI18n();
  const label = tk(t, `ch_${state}`);
  const live = state === 'writing' || state === 'reviewing' || state === 'revising';
  return (
    <li data-chapter={n} data-state={state} data-words={words}>
      <span className="ch-label">{fmt(t.jobChapter, { n })}</span>
      <progress max={100} value={percent} aria-label={fmt(t.jobChapterProgress, { n, state: label })} />
      <span className="muted small ch-text">
        {label}
        {words > 0 && ` · ${fmt(state === 'writing' ? t.jobWordsSoFar : t.jobWords, { words: num(words, lang) })}`}
        {state === 'done' && reviewed ? ` · ${t.jobReviewed}` : ''}
        {live && <span className="job-pulse" aria-hidden="true" />}
      </span>
    </li>
  );
}

/** A job's budgets as the resume form edits them: empty means no limit. */
interface Budgets {
  maxTokens: string;
  maxCostUsd: string;
}

const budgetBody = (b: Budgets, record: JobRecord) => ({
  ...(record.maxTokens !== null || b.maxTokens ? { maxTokens: b.maxTokens ? Number(b.maxTokens) : null } : {}),
  ...((record.maxCostUsd ?? null) !== null || b.maxCostUsd
    ? { maxCostUsd: b.maxCostUsd ? Number(b.maxCostUsd) : null }
    : {}),
});

function Controls({ record, status, onDone }: { record: JobRecord; status: string; onDone: () => void }) {
  const { t } = useI18n();
  const [asked, setAsked] = useState<{ action: Action; at: string } | null>(null);
  const [error, setError] = useState('');
  // A job with a budget pauses when the next chapter would cross it: resuming may raise or lift it.
  const hasBudget = record.maxTokens !== null || (record.maxCostUsd ?? null) !== null;
  const [budgets, setBudgets] = useState<Budgets>({
    maxTokens: record.maxTokens ? String(record.maxTokens) : '',
    maxCostUsd: record.maxCostUsd ? String(record.maxCostUsd) : '',
  });
  // What was asked is settled once the job's status moves on (its stream says so).
  const pending = asked && asked.at === status ? asked.action : null;
  const act = (action: Action) => () => {
    setError('');
    setAsked({ action, at: status });
    post(`/jobs/${record.id}/${action}`, action === 'resume' && hasBudget ? budgetBody(budgets, record) : {})
      .catch((e: unknown) => {
        setAsked(null);
        setError(
          e instanceof ApiError && e.status === 409
            ? fmt(t.jobMovedOn, { status: tk(t, `jobStatus_${String(e.details?.status ?? status)}`) })
            : t.jobControlFailed,
        );
      })
      .finally(onDone);
  };
  const controls = controlsOf(status);
  if (!controls.length && !error) return null;
  const resumable = status === 'paused' || status === 'failed';
  return (
    <div className="job-controls">
      {resumable && hasBudget && (
        <fieldset className="job-budgets">
          <legend className="small">{t.jobBudgetLegend}</legend>
          <label>
            {t.jobTokenBudget}
            <input
              type="number"
              min={1}
              value={budgets.maxTokens}
              onChange={(e) => setBudgets({ ...budgets, maxTokens: e.target.value })}
              placeholder={t.jobNoLimit}
            />
          </label>
          <label>
            {t.jobCostBudget}
            <input
              type="number"
              min={0}
              step="0.01"
              value={budgets.maxCostUsd}
              onChange={(e) => setBudgets({ ...budgets, maxCostUsd: e.target.value })}
              placeholder={t.jobNoLimit}
            />
          </label>
        </fieldset>
      )}
      {controls.map((c) => (
        <div key={c.action} className="job-control">
          <button
            type="button"
            className={c.danger ? 'danger' : undefined}
            disabled={!!pending}
            onClick={act(c.action)}
            aria-describedby={c.hint ? `job-hint-${c.action}` : undefined}
          >
            {t[c.label]}
          </button>
          {c.hint && (
            <span id={`job-hint-${c.action}`} className="muted small">
              {t[c.hint]}
            </span>
          )}
        </div>
      ))}
      {pending && (
        <p role="status" className="small job-asked">
          {tk(t, `jobAsked_${pending}`)}
        </p>
      )}
      {error && (
        <p role="alert" className="error small">
          {error}
        </p>
      )}
    </div>
  );
}

export function JobView({ jobId }: { jobId: string }) {
  const { t, lang } = useI18n();
  const { files, reloadFiles, reloadProject } = useProject();
  const live = useJobLive(jobId);
  const { record, error, refresh } = useJobRecord(jobId, live);
  const turnId = live.inFlight?.turnId ?? (live.events === 0 ? (record?.live?.turnId ?? null) : null);
  const chapter = useChapterLive(turnId);

  // Chapters the job writes appear in the manuscript tree, and the board follows, as they land.
  const landed = `${live.written.length}|${live.status}`;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    reloadFiles();
    reloadProject();
  }, [landed, reloadFiles, reloadProject]);

  if (!record) return <p>{error ? t.jobControlFailed : t.loading}</p>;
  const status = jobStatus(record, live);
  const phase = phaseOf(live, chapter);
  const { from, to } = record.chapters;
  const numbers = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const wordsOf = chapterWordsOf(files);
  const withText = new Set(wordsOf.keys());
  const doneSet = new Set([...record.chaptersDone, ...live.written, ...record.chaptersSkipped, ...live.skipped]);
  const next = numbers.find((n) => !doneSet.has(n)) ?? to + 1;
  const target = chapterTarget(
    record,
    [...doneSet].map((n) => wordsOf.get(n) ?? 0),
  );
  const liveWords = chapter ? chapterWords(chapter) : 0;
  const inFlight = live.inFlight?.chapter;
  const { tokens, costUsd: cost } = jobSpend(record, live, chapter);
  const unpriced = Math.max(live.unpricedCalls, record.unpricedCalls ?? 0);
  const written = writtenCount(record, live, status, withText);
  const totalWords = Math.max(live.words, record.words);
  const sameLanguage = (record.language ?? 'en') === lang;
  const now = nowText(t, status, phase, live, record, next, written);
  return (
    <section
      className="job card"
      aria-labelledby="job-h"
      data-job-id={record.id}
      data-status={status}
      data-phase={phase}
    >
      <div className="job-head">
        <h2 id="job-h">{fmt(t.jobTitle, { range: rangeText(t, from, to) })}</h2>
        <span className="badge job-badge" data-testid="job-status" data-status={status}>
          {tk(t, `jobStatus_${status}`)}
        </span>
      </div>
      <p className="job-now" data-testid="job-now" role="status">
        {now}
      </p>
      {sameLanguage &&
        live.message &&
        !ENDED_JOB_STATUSES.includes(status) &&
        !now.startsWith(live.message.replace(/[.。]$/u, '')) && (
          <p className="muted small job-latest">
            {t.jobLatest} {live.message}
          </p>
        )}
      <div className="job-overall">
        <progress max={numbers.length} value={written} aria-label={t.jobOverall} />
        <span className="small">
          {fmt(t.jobTotals, { done: written, total: numbers.length, words: num(totalWords, lang) })}
        </span>
      </div>
      <ol className="chapters">
        {numbers.map((n) => {
          const state = chapterState(n, record, live, status, phase, withText);
          const words =
            n === inFlight && (state === 'writing' || state === 'reviewing' || state === 'revising')
              ? liveWords || (wordsOf.get(n) ?? 0)
              : state === 'done' || state === 'skipped'
                ? (wordsOf.get(n) ?? 0)
                : 0;
          return (
            <ChapterRow
              key={n}
              n={n}
              state={state}
              words={words}
              percent={chapterPercent(state, words, target)}
              reviewed={record.review}
            />
          );
        })}
      </ol>
      <p className="muted small job-figures" data-testid="job-cost" data-cost={cost}>
        {record.maxTokens
          ? fmt(t.jobTokensOf, { tokens: num(tokens, lang), budget: num(record.maxTokens, lang) })
          : fmt(t.jobTokens, { tokens: num(tokens, lang) })}
        {' · '}
        {fmt(unpriced ? t.jobCostUnpriced : t.jobCost, { cost: usd(cost) })}
      </p>
      <Controls record={record} status={status} onDone={refresh} />
    </section>
  );
}
