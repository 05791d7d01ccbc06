/**
 * Helpers of the job suites: start a job over the real API, wait for it, read its stream,
 * its chapter files and the history of every run of its workflow.
 */
import { CancelledFailure, WorkflowFailedError } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { api, type Harness } from '../helpers/harness';
import { jobStreamKey, readRange } from '../../src/streams/redis-streams';
import type { StreamEvent, StreamEventOf } from '../../src/core/events';
import type { JobResult } from '../../src/core/job/job-messages';
import { chapterOf } from '../../src/activities/job/job-files';

export async function startJob(
  h: Harness,
  body: Record<string, unknown>,
): Promise<{ jobId: string; workflowId: string; sessionId: string; streamUrl: string }> {
  const r = await api<{ jobId: string; workflowId: string; sessionId: string; streamUrl: string }>(
    h,
    'POST',
    '/api/v1/jobs',
    body,
  );
  if (r.status !== 202) throw new Error(`job start failed ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * The job's final result; follows continue-as-new to the last run. A job cancelled through
 * Temporal ends as Canceled there, with no result: what it would have said is on its record.
 */
export async function waitJob(h: Harness, jobId: string): Promise<JobResult> {
  try {
    return (await h.runtime.temporal.workflow.getHandle(`job-${jobId}`).result()) as JobResult;
  } catch (err) {
    if (!(err instanceof WorkflowFailedError && err.cause instanceof CancelledFailure)) throw err;
    const job = (await h.runtime.models.Job.findById(jobId).lean())!;
    return {
      status: job.status as JobResult['status'],
      chaptersDone: job.chaptersDone.length,
      chaptersSkipped: job.chaptersSkipped?.length ?? 0,
      words: job.words,
      usage: {
        promptTokens: job.usage?.promptTokens ?? 0,
        completionTokens: job.usage?.completionTokens ?? 0,
        totalTokens: job.usage?.totalTokens ?? 0,
      },
      runs: 0,
    };
  }
}

/** How Temporal itself ended the job's workflow (COMPLETED, CANCELLED, …). */
export async function temporalStatus(h: Harness, jobId: string): Promise<string | undefined> {
  return (await h.runtime.temporal.workflow.getHandle(`job-${jobId}`).describe()).status.name;
}

export async function jobEvents(h: Harness, jobId: string): Promise<StreamEvent[]> {
  const entries = await readRange(h.runtime.redis, jobStreamKey(h.config.REDIS_KEY_PREFIX, jobId), null, 100000);
  return entries.map((e) => e.event);
}

export const progressOf = (events: StreamEvent[]): StreamEventOf<'job_progress'>[] =>
  events.filter((e): e is StreamEventOf<'job_progress'> => e.type === 'job_progress');

export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 60000,
  everyMs = 100,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Live draft files of the project by chapter number, with their versions. */
export async function chapterSnapshot(h: Harness, projectId: string) {
  const { File, FileVersion } = h.runtime.models;
  const files = await File.find({ projectId, type: 'draft', deletedAt: null }).lean();
  const out = new Map<
    number,
    {
      id: string;
      title: string;
      content: string;
      words: number;
      versions: { version: number; content: string; turnId: string | null }[];
    }[]
  >();
  for (const f of files) {
    const n = chapterOf(f.title);
    if (n === null) continue;
    const versions = await FileVersion.find({ fileId: String(f._id) })
      .sort({ version: 1 })
      .lean();
    const list = out.get(n) ?? [];
    list.push({
      id: String(f._id),
      title: f.title,
      content: f.content,
      words: f.words,
      versions: versions.map((v) => ({ version: v.version, content: v.content, turnId: v.turnId ?? null })),
    });
    out.set(n, list);
  }
  return out;
}

export interface RunHistory {
  runId: string;
  events: number;
  bytes: number;
  continuedAsNew: boolean;
}

/** Every run of a workflow, oldest first, walking back from the latest along continue-as-new. */
export async function runHistories(h: Harness, workflowId: string): Promise<RunHistory[]> {
  const client = h.runtime.temporal;
  const latest = await client.workflow.getHandle(workflowId).describe();
  const runs: RunHistory[] = [];
  let runId: string | null = latest.runId;
  while (runId) {
    const handle = client.workflow.getHandle(workflowId, runId);
    const history: temporal.api.history.v1.IHistory = await handle.fetchHistory();
    const events = history.events ?? [];
    // The server's own measure of the run's history (what its 50 MB limit applies to).
    const { historySize } = await handle.describe();
    const started = events[0]?.workflowExecutionStartedEventAttributes;
    const last = events[events.length - 1];
    runs.unshift({
      runId,
      events: events.length,
      bytes: historySize ?? 0,
      continuedAsNew: Boolean(last?.workflowExecutionContinuedAsNewEventAttributes),
    });
    runId = started?.continuedExecutionRunId || null;
  }
  return runs;
}

export interface WorkflowTaskOutput {
  /** History event kinds the task's commands produced (`startChildWorkflowExecutionInitiated`, …). */
  commands: string[];
  /** Activity types of the local activities the task ran (from their markers). */
  localActivities: string[];
}

/** What each completed workflow task of a history produced: its commands and its local activities. */
export function workflowTaskOutputs(events: temporal.api.history.v1.IHistoryEvent[]): WorkflowTaskOutput[] {
  const tasks: WorkflowTaskOutput[] = [];
  let current: WorkflowTaskOutput | null = null;
  for (const e of events) {
    if (e.workflowTaskCompletedEventAttributes) tasks.push((current = { commands: [], localActivities: [] }));
    else if (e.workflowTaskScheduledEventAttributes) current = null;
    else if (current && e.markerRecordedEventAttributes?.markerName === 'core_local_activity') {
      const data = e.markerRecordedEventAttributes.details?.data?.payloads?.[0]?.data;
      if (data)
        current.localActivities.push(
          (JSON.parse(Buffer.from(data).toString()) as { activity_type: string }).activity_type,
        );
    } else if (current) {
      const kind = Object.keys(e).find((k) => k.endsWith('EventAttributes') && (e as Record<string, unknown>)[k]);
      if (kind) current.commands.push(kind.replace(/EventAttributes$/, ''));
    }
  }
  return tasks;
}
