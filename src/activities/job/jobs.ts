/**
 * activities/job/: what a job (chapter after chapter, as a workflow) does outside its workflow:
 * its records and its stream (jobs.ts), its child turns opened and abandoned (job-turns.ts),
 * the project files it reads and writes and its item on the task board (job-files.ts), the
 * message it leaves in its session when it stops (job-summary.ts), and the lookup behind run
 * control from chat (job-commands.ts). The author messages it writes for its child turns are
 * pure rules (core/job/job-text.ts).
 */
/**
 * Job record activities: check the outline, read the reviewer's verdict, verify and record a
 * finished chapter, and keep the Job document and the job stream in step with the workflow.
 * Every one is idempotent: updates `$set` values the workflow computed, and stream ids are explicit.
 */
import { Context } from '@temporalio/activity';
import { type AnyEventDraft, draft } from '../../core/events';
import type { JobDoc, Models } from '../../db/models';
import { type JobStatus } from '../../core/domain';
import { postJobSummary, type PostedSummary } from './job-summary';
import { type ProgressFacts, type TokenUsage } from '../../core/job/job-messages';
import { type JobFailureReason, jobWords } from '../../core/author-words';
import { type JobProgressKind } from '../../core/events';
import { type JobCost, jobCost } from '../../db/job-cost';
import type { ActivityDeps } from '../deps';
import { notFound } from '../failures';
import {
  type ChapterFile,
  chapterFiles,
  describeRanges,
  missingChapters,
  outlineCoverage,
  pickChapterFile,
  updateJobTask,
} from './job-files';
import { parseVerdict } from '../../core/job/job-text';
import { publisherFor, streamKeyFor } from '../stream/publish';
import { feedItems, toSessionFeed } from '../stream/session-feed';
import type { FeedItem } from '../../streams/session-feed';
import { expireStream } from '../../streams/redis-streams';
import { quiet } from '../../core/quiet';

export interface RecordJobInput {
  jobId: string;
  slot: number;
  status?: JobStatus;
  /**
   * Set (or clear, with null) the failure the job stopped on: `message` for operators (the Job's
   * `failure`, the stream's `error`), `reason` for the author's words (absent: a plain "went wrong").
   */
  failure?: { chapter: number | null; message: string; reason?: JobFailureReason } | null;
  usage?: TokenUsage;
  progress?: ProgressFacts;
  /** A chapter left as it was (it had text before the job). */
  skippedChapter?: number;
  /** Publish the terminal `done` event and let the stream expire. */
  done?: boolean;
  /** The job stopped here (ended, failed, paused at its budget): post its closing message to the job's session. */
  summary?: { revisions: number; next: number };
}

export interface FinishChapterInput {
  jobId: string;
  chapter: number;
  /** The chapter's turns in this attempt (first write and revisions). */
  turnIds: string[];
  slot: number;
  status: JobStatus;
  usage: TokenUsage;
  /** The job's project (jobs since this field): its chapter files are read beside the job. */
  projectId?: string;
}

export type FinishChapterResult =
  | { done: true; fileId: string; title: string; words: number; totalWords: number; chaptersDone: number }
  | { done: false; reason: string };

/** The job by id; one that is gone fails the activity (notFound). */
export async function loadJob(models: Models, jobId: string): Promise<JobDoc> {
  const job = await models.Job.findById(jobId).lean();
  if (!job) throw notFound('Job', jobId);
  return job;
}

/** The job as its item on the task board needs it. */
const onBoard = (job: JobDoc) => ({
  jobId: String(job._id),
  projectId: job.projectId,
  from: job.from,
  to: job.to,
  language: job.language,
});

/** Chapters of the job's range that exist as draft files with body text, whoever wrote them. */
function writtenUnits(job: JobDoc, files: Map<number, ChapterFile[]>): number[] {
  const units: number[] = [];
  for (let n = job.from; n <= job.to; n++) if (pickChapterFile(files.get(n))) units.push(n);
  return units;
}

/** What a recorded moment of the job reports (the `kind` of its job_progress event). */
function progressKind(input: RecordJobInput): JobProgressKind {
  if (input.status) return 'status';
  if (input.skippedChapter !== undefined) return 'skipped';
  return input.progress?.turnId ? 'turn' : 'note';
}

/** A `job_progress` event from the workflow's facts; the range comes from the Job document, the cost from its usage records. */
function jobProgress(job: JobDoc, p: ProgressFacts, kind: JobProgressKind, cost: JobCost): AnyEventDraft {
  return draft(
    'job_progress',
    {
      chapter: p.chapter,
      of: job.to - job.from + 1,
      from: job.from,
      to: job.to,
      chaptersDone: p.chaptersDone,
      status: p.status,
      words: p.words,
      usage: p.usage,
      ...(p.turnId ? { turnId: p.turnId } : {}),
      ...(p.message ? { message: p.message } : {}),
      kind,
      ...(p.turn ? { turnKind: p.turn.kind, round: p.turn.round } : {}),
      costUsd: cost.costUsd,
      ...(cost.unpricedCalls ? { unpricedCalls: cost.unpricedCalls } : {}),
    },
    { jobId: String(job._id), ...(p.turnId ? { turnId: p.turnId } : {}) },
  );
}

/**
 * What a status change or progress of the job tells its session's feed: `job_started` once
 * per job (its first running status), its progress, the closing message it posted
 * (`job_summary`, already stored when the event arrives), and `job_finished` in place of
 * `done` (the feed does not end with a job).
 */
function sessionFeedOf(
  job: JobDoc,
  input: RecordJobInput,
  events: AnyEventDraft[],
  summary: PostedSummary | null,
): FeedItem[] {
  const jobId = String(job._id);
  const items: FeedItem[] = [];
  if (input.status === 'running' || input.status === 'pausing')
    items.push({ key: `job:${jobId}:started`, event: draft('job_started', { from: job.from, to: job.to }, { jobId }) });
  events.forEach((e, i) => {
    if (e.type === 'job_progress') items.push(feedItems.job(jobId, input.slot, i, e));
  });
  // The closing message (completed, failed, paused at a budget) reaches open clients live.
  if (summary)
    items.push({
      key: `${summary.key}:feed`,
      event: draft('job_summary', { status: input.status ?? job.status, message: summary.text }, { jobId }),
    });
  if (input.done)
    items.push({
      key: `job:${jobId}:finished`,
      event: draft('job_finished', { status: input.status ?? job.status }, { jobId }),
    });
  return items;
}

/** A job's checks and record: outline coverage, the reviewer's verdict, a finished chapter, the Job and its stream. */
export function createJobRecordActivities(deps: ActivityDeps) {
  const { models } = deps;

  return {
    /**
     * The chapters of the job's range that had body text before the job: a chapter file with
     * words that none of this job's turns created. Recomputed at each run's start, it gives
     * the same answer however often the job continues or restarts.
     */
    existingChapters: (input: { jobId: string }): Promise<number[]> => existingChapters(models, input),

    /**
     * What the job has cost so far (USD, by the price table), from its usage records: the
     * source of truth however often the job continued or restarted. One accumulator per
     * aggregation (FerretDB v1 computes only the first).
     */
    jobCost: (input: { jobId: string }): Promise<{ costUsd: number }> => jobCostSoFar(models, input),

    /** Whether the project's outline files have an entry for every chapter of the job. */
    jobOutlineStatus: (input: { jobId: string }): Promise<OutlineStatus> => jobOutlineStatus(models, input),

    /** The reviewer's verdict in a chapter turn, read from its saved message. */
    reviewVerdict: (input: { turnId: string }): Promise<{ verdict: 'pass' | 'revise' | 'none' }> =>
      reviewVerdict(models, input),

    /**
     * Checks that chapter N exists as a draft with body text and records it: Job counters,
     * the project task board, and a `job_progress` event. Nothing is recorded when the file
     * is missing — the workflow then stops the job as failed, never skipping the chapter.
     */
    finishChapter: (input: FinishChapterInput): Promise<FinishChapterResult> => finishChapter(deps, input),

    /** Keeps the Job document, its item on the task board and the job stream in step with the workflow. */
    recordJob: (input: RecordJobInput): Promise<void> => recordJob(deps, input),
  };
}

/** The chapters of the job's range that had body text before the job (existingChapters above). */
async function existingChapters(models: Models, input: { jobId: string }): Promise<number[]> {
  const job = await loadJob(models, input.jobId);
  const files = await chapterFiles(models, job.projectId);
  const creators = [
    ...new Set([...files.values()].flat().flatMap((f) => (f.createdByTurnId ? [f.createdByTurnId] : []))),
  ];
  const ours = new Set(
    (
      await models.Turn.find({ _id: { $in: creators }, jobId: input.jobId })
        .select({ _id: 1 })
        .lean()
    ).map((t) => String(t._id)),
  );
  const existing: number[] = [];
  for (let n = job.from; n <= job.to; n++)
    if ((files.get(n) ?? []).some((f) => f.words > 0 && !(f.createdByTurnId && ours.has(f.createdByTurnId))))
      existing.push(n);
  return existing;
}

/** What the job has cost so far, from its usage records (jobCost above). */
async function jobCostSoFar(models: Models, input: { jobId: string }): Promise<{ costUsd: number }> {
  const job = await loadJob(models, input.jobId);
  return { costUsd: (await jobCost(models, { jobId: input.jobId, projectId: job.projectId })).costUsd };
}

type OutlineStatus = { covered: boolean; missing: number; missingText: string };

async function jobOutlineStatus(models: Models, input: { jobId: string }): Promise<OutlineStatus> {
  const job = await loadJob(models, input.jobId);
  const missing = missingChapters(await outlineCoverage(models, job.projectId), job.from, job.to);
  // The text goes into the job's messages to the author: in the job's language.
  return {
    covered: missing.length === 0,
    missing: missing.length,
    missingText: describeRanges(missing, 6, job.language === 'zh' ? 'zh' : 'en'),
  };
}

async function reviewVerdict(
  models: Models,
  input: { turnId: string },
): Promise<{ verdict: 'pass' | 'revise' | 'none' }> {
  const msg = await models.Message.findOne({ turnId: input.turnId, role: 'assistant', agent: 'quality_reviewer' })
    .sort({ seq: -1 })
    .lean();
  return { verdict: msg ? parseVerdict(msg.content) : 'none' };
}

/** Chapter N checked and recorded (finishChapter above). */
async function finishChapter(deps: ActivityDeps, input: FinishChapterInput): Promise<FinishChapterResult> {
  const { models } = deps;
  // Jobs that name their project read its chapter files beside the job.
  const early = input.projectId ? quiet(chapterFiles(models, input.projectId)) : null;
  const job = await loadJob(models, input.jobId);
  const files = await (job.projectId === input.projectId && early ? early : chapterFiles(models, job.projectId));
  const file = pickChapterFile(files.get(input.chapter), input.turnIds);
  if (!file) return { done: false, reason: `chapter ${input.chapter} has no draft file with body text` };
  const done = [...new Set([...job.chaptersDone, input.chapter])];
  const totalWords = done.reduce(
    (sum, n) => sum + (n === input.chapter ? file.words : (pickChapterFile(files.get(n))?.words ?? 0)),
    0,
  );
  // The Job's counters and the project's task board are independent writes (and the cost a
  // read): together, all before the event, so a client that reloads on it finds them.
  const [, , cost] = await Promise.all([
    models.Job.updateOne(
      { _id: input.jobId },
      {
        $addToSet: { chaptersDone: input.chapter },
        $set: { words: totalWords, usage: input.usage, failedChapter: null, failure: null },
      },
    ).exec(),
    updateJobTask(models, onBoard(job), writtenUnits(job, files), input.status),
    jobCost(models, { jobId: input.jobId, projectId: job.projectId }),
  ]);
  const progress = jobProgress(
    job,
    {
      chapter: input.chapter,
      chaptersDone: done.length,
      words: totalWords,
      usage: input.usage,
      status: input.status,
      turnId: input.turnIds[input.turnIds.length - 1],
      message: jobWords(job.language === 'zh' ? 'zh' : 'en').chapterWritten(input.chapter, file.title, file.words),
    },
    'chapter',
    cost,
  );
  await publisherFor(deps, 'job', input.jobId, input.slot).publish([progress]);
  await toSessionFeed(deps, job.sessionId, [feedItems.job(input.jobId, input.slot, 0, progress)]);
  return {
    done: true,
    fileId: file.id,
    title: file.title,
    words: file.words,
    totalWords,
    chaptersDone: done.length,
  };
}

/**
 * Keeps the Job document, its item on the task board and the job stream in step with the
 * workflow. The board follows every status change (a cancelled or failed job never stays
 * "in progress" there), written before the events so a client reloading on them finds it.
 */
async function recordJob(deps: ActivityDeps, input: RecordJobInput): Promise<void> {
  const { models } = deps;
  const job = await loadJob(models, input.jobId);
  const set: Record<string, unknown> = {};
  if (input.status) set.status = input.status;
  if (input.usage) set.usage = input.usage;
  if (input.failure !== undefined) {
    set.failedChapter = input.failure?.chapter ?? null;
    set.failure = input.failure?.message ?? null;
  }
  // One write for the record: its fields, and a skipped chapter added to the list.
  const update = {
    ...(Object.keys(set).length ? { $set: set } : {}),
    ...(input.skippedChapter !== undefined ? { $addToSet: { chaptersSkipped: input.skippedChapter } } : {}),
  };
  const board = async (): Promise<void> => {
    if (!input.status) return;
    const failedChapter = input.failure === undefined ? job.failedChapter : (input.failure?.chapter ?? null);
    await updateJobTask(
      models,
      onBoard(job),
      writtenUnits(job, await chapterFiles(models, job.projectId)),
      input.status,
      failedChapter,
    );
  };
  const [, , cost] = await Promise.all([
    Object.keys(update).length ? models.Job.updateOne({ _id: input.jobId }, update).exec() : null,
    board(),
    input.progress ? jobCost(models, { jobId: input.jobId, projectId: job.projectId }) : null,
  ]);
  const events: AnyEventDraft[] = [];
  if (input.progress) events.push(jobProgress(job, input.progress, progressKind(input), cost!));
  if (input.failure)
    events.push(
      draft(
        'error',
        { code: 'job_chapter_failed', message: input.failure.message, retryable: true },
        { jobId: input.jobId },
      ),
    );
  if (input.done) events.push(draft('done', { status: input.status ?? job.status }, { jobId: input.jobId }));
  const summary = input.summary
    ? await postJobSummary(models, job, input.status ?? job.status, input.summary, input.failure ?? null)
    : null;
  const attempt = Context.current().info.attempt;
  const publisher = publisherFor(deps, 'job', input.jobId, input.slot);
  await publisher.publish(events.map((e) => ({ ...e, attempt })));
  if (input.done)
    await Promise.all([
      expireStream(deps.redis, streamKeyFor(deps, 'job', input.jobId), deps.config.STREAM_TTL_SECONDS),
      publisher.settle(),
    ]);
  await toSessionFeed(deps, job.sessionId, sessionFeedOf(job, input, events, summary));
}
