/**
 * Following jobs live, shared by every screen that shows one (the job view, the jobs list,
 * the task board): one stream per job however many screens follow it, read from the job's
 * first event (so a reload shows the same), folded by ./job-fold.ts. A job's record (GET) is
 * fetched again whenever its stream says something the record holds changed, and a record
 * answer older than one already shown is dropped (answers can arrive out of order).
 */
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { get } from '../api';
import { LiveStream } from '../stream';
import {
  type ChapterLive,
  emptyChapterLive,
  emptyJobLive,
  ENDED_JOB_STATUSES,
  foldChapter,
  foldJob,
  type JobLive,
  type JobRecord,
} from './job-fold';

interface Entry {
  state: JobLive;
  stream: LiveStream;
  listeners: Set<() => void>;
  closeTimer?: number;
}

const entries = new Map<string, Entry>();
/** A screen left for another keeps the stream this long, so going back does not read it again. */
const LINGER_MS = 10_000;

function entryOf(jobId: string): Entry {
  const e = entries.get(jobId);
  if (e) return e;
  const created: Entry = {
    state: emptyJobLive(),
    listeners: new Set(),
    stream: new LiveStream({
      kind: 'job',
      id: jobId,
      onEvents: (events) => update(created, foldJob(created.state, events)),
      // Over: `done` folded already; `finished` (nothing more will come). After a `reset` the
      // stream cannot say more (trimmed or expired): its last word may be stale, so the record decides.
      onEnd: (why) =>
        update(
          created,
          why === 'reset'
            ? { ...created.state, status: null, inFlight: null, ended: true }
            : created.state.ended
              ? created.state
              : { ...created.state, ended: true },
        ),
    }),
  };
  entries.set(jobId, created);
  return created;
}

function update(e: Entry, state: JobLive): void {
  if (state === e.state) return;
  e.state = state;
  e.listeners.forEach((fn) => fn());
}

function subscribe(jobId: string, listener: () => void): () => void {
  const e = entryOf(jobId);
  window.clearTimeout(e.closeTimer);
  e.listeners.add(listener);
  return () => {
    e.listeners.delete(listener);
    if (e.listeners.size) return;
    e.closeTimer = window.setTimeout(() => {
      if (e.listeners.size) return;
      e.stream.close();
      entries.delete(jobId);
    }, LINGER_MS);
  };
}

const EMPTY = emptyJobLive();
const noop = () => () => undefined;

/** A job's stream, folded; followed while the component is mounted (null: follow nothing). */
export function useJobLive(jobId: string | null): JobLive {
  const sub = useCallback((fn: () => void) => (jobId ? subscribe(jobId, fn) : noop()), [jobId]);
  // Reading is free of effects: the stream opens when the first screen subscribes.
  const snap = useCallback(() => (jobId ? (entries.get(jobId)?.state ?? EMPTY) : EMPTY), [jobId]);
  return useSyncExternalStore(jobId ? sub : noop, snap);
}

/** What in a job's stream means its record changed: a chapter written or skipped, a status, the end. */
const recordKey = (live: JobLive): string =>
  `${live.status}|${live.written.length}|${live.skipped.length}|${live.ended}`;

/**
 * A job's record, kept fresh from its stream: fetched at once, again when the stream says it
 * changed, and on `refresh()`. Only the answer to the newest request is shown.
 */
export function useJobRecord(
  jobId: string,
  live: JobLive,
): { record: JobRecord | null; error: unknown; refresh: () => void } {
  const [record, setRecord] = useState<JobRecord | null>(null);
  const [error, setError] = useState<unknown>(null);
  const asked = useRef(0);
  const refresh = useCallback(() => {
    const n = ++asked.current;
    get<JobRecord>(`/jobs/${jobId}`)
      .then((r) => {
        if (n !== asked.current) return;
        setRecord(r);
        setError(null);
      })
      .catch((e: unknown) => n === asked.current && setError(e));
  }, [jobId]);
  const key = recordKey(live);
  useEffect(() => refresh(), [refresh, key]);
  // A stream that stopped talking before the job ended (reset): the record is read every few seconds instead.
  const orphaned = live.ended && !!record && jobIsActive(record.status);
  useEffect(() => {
    if (!orphaned) return;
    const timer = window.setInterval(refresh, 5000);
    return () => window.clearInterval(timer);
  }, [orphaned, refresh]);
  return { record, error, refresh };
}

/** The chapter turn in flight, followed from its first event while it is the one (null: none). */
export function useChapterLive(turnId: string | null): ChapterLive | null {
  const [state, setState] = useState<{ turnId: string; live: ChapterLive } | null>(null);
  useEffect(() => {
    if (!turnId) return;
    setState({ turnId, live: emptyChapterLive() });
    const stream = new LiveStream({
      kind: 'turn',
      id: turnId,
      onEvents: (events) =>
        setState((s) => (s && s.turnId === turnId ? { turnId, live: foldChapter(s.live, events) } : s)),
    });
    return () => stream.close();
  }, [turnId]);
  return state && state.turnId === turnId ? state.live : null;
}

/** Whether a job in this status can still change. */
export const jobIsActive = (status: string): boolean => !ENDED_JOB_STATUSES.includes(status);
