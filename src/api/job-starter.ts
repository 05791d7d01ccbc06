/**
 * Starting a job, apart from its HTTP routes: one active job per project (a claim
 * document inserted atomically, a stale one replaced), the Job recorded, then workflow
 * `job-<jobId>`; and a fresh run for a job whose workflow is gone. The routes in
 * routes/jobs.ts parse, check ownership and answer; this module holds what a start means.
 */
import { claimExclusive } from '../db/claims';
import { CompareAndSetExhausted } from '../db/compare-and-set';
import { type JobDoc, type Models, newId } from '../db/models';
import type { Config } from '../config';
import { type JobStatus, jobWorkflowId } from '../core/domain';
import {
  type ExistingChapters,
  initialCarry,
  type JobCarry,
  type JobInput,
  type JobSettings,
} from '../core/job/job-messages';
import { SA } from '../core/turn/messages';
import { type Language, sessionLanguage } from '../core/words/language';
import { chapterRange } from '../core/author-words';
import { jobStreamKey, parseStreamId, streamInfo } from '../streams/redis-streams';
import { workflowRunning } from '../workflow-liveness';
import type { jobWorkflow } from '../workflows/job';
import type { AppDeps } from './context';
import { ConflictError, UnavailableError } from './errors';
import type { createJobBody } from './schemas';
import { turnSettings } from './turn-starter';
import type { z } from 'zod';

/** A job in one of these is being worked on: one per project at a time. */
export const ACTIVE_JOB_STATUSES: readonly JobStatus[] = ['queued', 'running', 'pausing', 'paused'];
/** Nothing more will happen to a job in one of these. */
export const ENDED_JOB_STATUSES: readonly JobStatus[] = ['completed', 'cancelled'];
const ACTIVE = ACTIVE_JOB_STATUSES;

export function jobSettings(config: Config): JobSettings {
  return {
    turn: turnSettings(config),
    chaptersPerRun: config.JOB_CHAPTERS_PER_RUN,
    maxRevisionRounds: config.JOB_MAX_REVISION_ROUNDS,
  };
}

/** The job workflow's input: the job as recorded, the settings of now, and where a fresh run picks up (`carry`). */
function jobInput(job: JobDoc, config: Config, carry?: JobCarry): JobInput {
  return {
    jobId: String(job._id),
    projectId: job.projectId,
    sessionId: job.sessionId,
    ownerId: job.ownerId,
    from: job.from,
    to: job.to,
    review: job.review,
    settings: jobSettings(config),
    ...(carry ? { carry } : {}),
    ...(job.maxTokens ? { maxTokens: job.maxTokens } : {}),
    ...(job.maxCostUsd ? { maxCostUsd: job.maxCostUsd } : {}),
    language: job.language === 'zh' ? 'zh' : 'en',
    existing: (job.existing ?? 'skip') as ExistingChapters,
  };
}

/** Where a fresh run of a job picks up: the first chapter not done, its counts so far, and the stream's last slot (`lastId`). */
function restartCarry(job: JobDoc, lastId: string | null, now: Date): JobCarry {
  // Skipped chapters count as passed: the fresh run does not report them twice.
  const done = new Set([...job.chaptersDone, ...(job.chaptersSkipped ?? [])]);
  let next = job.failedChapter ?? job.from;
  while (next <= job.to && done.has(next)) next++;
  return {
    ...initialCarry(job.from),
    next,
    // A fresh attempt number gives the retried chapter new turn ids (the old ones may exist).
    attempt: Math.floor(now.getTime() / 1000),
    outlineDone: job.chaptersDone.length > 0 || job.failedChapter !== null,
    slot: lastId ? (parseStreamId(lastId)?.slot ?? 0) : 0,
    chaptersDone: job.chaptersDone.length,
    skipped: job.chaptersSkipped?.length ?? 0,
    words: job.words,
    usage: {
      promptTokens: job.usage?.promptTokens ?? 0,
      completionTokens: job.usage?.completionTokens ?? 0,
      totalTokens: job.usage?.totalTokens ?? 0,
    },
    restarted: true,
    ...(job.maxTokens ? { maxTokens: job.maxTokens } : {}),
    ...(job.maxCostUsd ? { maxCostUsd: job.maxCostUsd } : {}),
  };
}

/**
 * The language the author works in, for the job's messages: their messages in the job's
 * session when it has one (as a turn decides it), else the project's own words and the
 * job's instructions.
 */
async function authorLanguage(models: Models, body: z.infer<typeof createJobBody>): Promise<Language> {
  // The author's own choice (Studio sends the language it speaks to them) comes first.
  if (body.language) return body.language;
  // Independent reads: together.
  const [project, recent] = await Promise.all([
    models.Project.findById(body.projectId).select({ title: 1, summary: 1, style: 1 }).lean(),
    body.sessionId
      ? models.Message.find({ sessionId: body.sessionId, role: 'user' })
          .sort({ seq: -1 })
          .limit(20)
          .select({ content: 1 })
          .lean()
      : [],
  ]);
  const messages = recent.reverse().map((m) => m.content);
  const projectWords = [project?.title, project?.summary, project?.style].filter(Boolean).join('\n');
  return sessionLanguage(
    [projectWords, ...messages, body.instructions ?? ''].filter((t) => t.trim()),
    'en',
  );
}

/** Records a new `queued` job under `jobId`, with a session of its own when the request names none. */
async function recordJob(
  models: Models,
  userId: string,
  jobId: string,
  body: z.infer<typeof createJobBody>,
): Promise<JobDoc> {
  const { from, to } = body.chapters;
  const language = await authorLanguage(models, body);
  // Without a session the job gets its own, so its chapter turns never queue behind the author's.
  const title =
    language === 'zh' ? `任务 · ${chapterRange(from, to, language)}` : `Job · ${chapterRange(from, to, language)}`;
  const sessionId =
    body.sessionId ??
    String(
      (
        await models.Session.create({
          projectId: body.projectId,
          ownerId: userId,
          title,
          kind: 'job',
          jobId,
          jobChapters: { from, to },
        })
      )._id,
    );
  return (
    await models.Job.create({
      _id: jobId,
      ownerId: userId,
      projectId: body.projectId,
      sessionId,
      from,
      to,
      instructions: body.instructions ?? '',
      review: body.review ?? false,
      wordsPerChapter: body.wordsPerChapter ?? null,
      maxTokens: body.maxTokens ?? null,
      maxCostUsd: body.maxCostUsd ?? null,
      language,
      existing: body.existing ?? 'skip',
      status: 'queued',
      workflowId: jobWorkflowId(jobId),
    })
  ).toObject() as JobDoc;
}

export type JobStarter = ReturnType<typeof jobStarter>;

/** Whether a job still holds its project, with the grace a new job's workflow has to start. */
function jobLiveness(deps: AppDeps) {
  const { models, config } = deps;
  const graceMs = config.START_GRACE_SECONDS * 1000;
  const pastGrace = (since: Date | string): boolean => deps.clock().getTime() - new Date(since).getTime() > graceMs;

  /**
   * A `queued` job whose workflow does not exist after the grace period was left by a request
   * that died between recording the job and starting its workflow: it is marked failed (and
   * can be resumed, which starts its workflow) instead of blocking the project forever.
   */
  const stillActive = async (job: Pick<JobDoc, '_id' | 'status' | 'workflowId' | 'createdAt'>): Promise<boolean> => {
    if (!ACTIVE.includes(job.status as JobStatus)) return false;
    if (job.status !== 'queued' || !pastGrace(job.createdAt) || (await workflowRunning(deps.temporal, job.workflowId)))
      return true;
    await models.Job.updateOne(
      { _id: job._id, status: 'queued' },
      {
        $set: {
          status: 'failed' satisfies JobStatus,
          failure: 'the job workflow was never started (the request that created it died); resume to start it',
        },
      },
    );
    return false;
  };

  return { pastGrace, stillActive };
}

type JobLiveness = ReturnType<typeof jobLiveness>;

/**
 * The read of the project's jobs gives a friendly 409; this insert is what makes two
 * simultaneous POSTs unable to both start a job. A claim whose job is no longer active is
 * stale and replaced.
 */
async function claimProject(
  models: Models,
  { pastGrace, stillActive }: JobLiveness,
  projectId: string,
  jobId: string,
): Promise<void> {
  let holderStatus: string = 'queued';
  const { busyWith } = await claimExclusive(models, {
    model: models.JobClaim,
    id: projectId,
    holderField: 'jobId',
    holder: jobId,
    label: `job claim of project ${projectId}`,
    judge: async (claim) => {
      const holder = await models.Job.findById(String(claim.jobId))
        .select({ status: 1, workflowId: 1, createdAt: 1 })
        .lean();
      holderStatus = holder?.status ?? 'queued';
      // No Job yet: the request that claimed is still creating it (or died doing so — then the
      // claim goes stale after the grace period). An ended job's claim is stale at once.
      const creating = !holder && !pastGrace(claim.createdAt);
      return creating || (holder && (await stillActive(holder))) ? 'busy' : 'stale';
    },
  }).catch((err: unknown) => {
    if (err instanceof CompareAndSetExhausted)
      throw new ConflictError('could not claim the project for a job: it kept changing hands');
    throw err;
  });
  if (busyWith)
    throw new ConflictError('another job is already running in this project', {
      jobId: String(busyWith.jobId),
      status: holderStatus,
    });
}

/** Starts workflow `job-<jobId>` for the job as recorded; `carry` when a fresh run picks up a job's progress. */
async function startJobWorkflow(deps: AppDeps, job: JobDoc, carry?: JobCarry): Promise<void> {
  const { config } = deps;
  await deps.temporal.workflow.start<typeof jobWorkflow>('jobWorkflow', {
    workflowId: job.workflowId,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args: [jobInput(job, config, carry)],
    typedSearchAttributes: [
      { key: SA.ProjectId, value: job.projectId },
      { key: SA.JobStatus, value: 'running' },
      { key: SA.Chapter, value: carry?.next ?? job.from },
    ],
    staticSummary: `job · chapters ${job.from}–${job.to}`,
  });
}

export function jobStarter(deps: AppDeps) {
  const { models, config } = deps;
  const liveness = jobLiveness(deps);
  const { stillActive } = liveness;

  const conflictingJob = async (projectId: string, except?: string): Promise<void> => {
    const others = await models.Job.find({
      projectId,
      status: { $in: ACTIVE },
      ...(except ? { _id: { $ne: except } } : {}),
    }).lean();
    for (const other of others)
      if (await stillActive(other))
        throw new ConflictError('another job is already running in this project', {
          jobId: String(other._id),
          status: other.status,
        });
  };

  const claim = (projectId: string, jobId: string): Promise<void> => claimProject(models, liveness, projectId, jobId);

  const startWorkflow = (job: JobDoc, carry?: JobCarry): Promise<void> => startJobWorkflow(deps, job, carry);

  /**
   * A failed or paused job whose workflow is gone (terminated by an operator, or its history
   * lost) starts a fresh run from what MongoDB and the stream know: the chapters done, and
   * the stream's last slot so new events get higher ids than every event already sent.
   */
  const restart = async (job: JobDoc): Promise<void> => {
    const info = await streamInfo(deps.redis, jobStreamKey(config.REDIS_KEY_PREFIX, String(job._id)));
    await startWorkflow(job, restartCarry(job, info.lastId, deps.clock()));
  };

  /** A new job: the project claimed, the Job recorded (with a session of its own when none is named), its workflow started. */
  const startJob = async (
    userId: string,
    body: z.infer<typeof createJobBody>,
  ): Promise<{ jobId: string; workflowId: string; sessionId: string }> => {
    await conflictingJob(body.projectId);
    const jobId = newId();
    await claim(body.projectId, jobId);
    const job = await recordJob(models, userId, jobId, body);
    // The window a dying API process leaves behind: claim and queued Job, no workflow.
    deps.faults?.hit('api.job.before_workflow_start', { projectId: body.projectId });
    try {
      await startWorkflow(job);
    } catch (err) {
      await models.Job.updateOne(
        { _id: jobId },
        { $set: { status: 'failed' satisfies JobStatus, failure: 'the job workflow could not be started' } },
      );
      deps.logger.error({ err, jobId }, 'could not start the job workflow');
      throw new UnavailableError('could not start the job: the workflow service is unavailable');
    }
    return { jobId, workflowId: job.workflowId, sessionId: job.sessionId };
  };

  return { stillActive, conflictingJob, claimProject: claim, startWorkflow, restart, startJob };
}
