/**
 * Long multi-chapter jobs (SPEC §7): one POST starts workflow `job-<jobId>`; the job's
 * progress streams over SSE with the same resume semantics as turns; pause, resume and
 * cancel are signals. The workflow owns the job's state — these routes record the request,
 * start or signal the workflow and read what it wrote.
 */
import { Router, type Request } from 'express';
import { WorkflowNotFoundError } from '@temporalio/client';
import { z } from 'zod';
import type { AppDeps } from '../context';
import { documentRoute, type RouteSpec, toOpenApiPath } from '../openapi';
import { issueStreamToken, streamReader, streamTokenSettings, userOf } from '../auth';
import { BadRequestError, ConflictError, UnavailableError } from '../errors';
import { ownedJob, ownedProject, ownedSession } from '../ownership';
import { createJobBody, eventsQuery, interruptBody, listQuery, resumeJobBody } from '../schemas';
import { resumeIdOf, serveSse } from '../sse';
import { slotCounts } from '../stream-gaps';
import { turnSettings } from '../turn-starter';
import { workflowRunning } from '../../workflow-liveness';
import { parseBody, parseId, parseQuery } from '../validation';
import type { Config } from '../../config';
import { casLost, casWritten, compareAndSet, CompareAndSetExhausted } from '../../db/compare-and-set';
import { isDuplicateKey, type JobDoc, newId } from '../../db/models';
import { deleteIncarnation, incarnationOf } from '../../db/revision-claims';
import { type JobStatus, jobWorkflowId, objectIdSchema } from '../../core/domain';
import { streamEventSchema } from '../../core/events';
import { jobStreamKey, parseStreamId, streamInfo } from '../../streams/redis-streams';
import type { jobWorkflow } from '../../workflows/job';
import {
  cancelJobSignal,
  initialCarry,
  type JobCarry,
  type JobInput,
  type JobSettings,
  pauseJobSignal,
  progressQuery,
  resumeJobSignal,
} from '../../core/job-messages';
import { SA } from '../../core/messages';

/** A job in one of these is being worked on: one per project at a time. */
const ACTIVE: readonly JobStatus[] = ['queued', 'running', 'pausing', 'paused'];
/** Nothing more will happen to a job in one of these. */
const ENDED: readonly JobStatus[] = ['completed', 'cancelled'];

// The OpenAPI document lists these routes too (tests/api walks the router for undocumented paths).
{
  const v1 = (p: string): string => `/api/v1${toOpenApiPath(p)}`;
  const params = z.object({ jobId: objectIdSchema });
  const control = (what: string, summary: string): RouteSpec => ({
    method: 'post',
    path: v1(`/jobs/:jobId/${what}`),
    summary,
    tag: 'jobs',
    params,
    status: 202,
    errors: [400, 401, 404, 409],
  });
  const specs: RouteSpec[] = [
    {
      method: 'post',
      path: v1('/jobs'),
      summary: 'Start a multi-chapter job (202 with jobId, workflowId, sessionId, streamUrl, streamToken); 409 while another job runs in the project',
      tag: 'jobs',
      body: createJobBody,
      status: 202,
      errors: [400, 401, 404, 409, 413, 429],
    },
    { method: 'get', path: v1('/jobs'), summary: 'List your jobs (optionally of one project)', tag: 'jobs', query: listQuery },
    { method: 'get', path: v1('/jobs/:jobId'), summary: 'Job status, chapters done, words, usage (and live progress while not over)', tag: 'jobs', params },
    control('pause', 'Pause after the chapter in flight'),
    { ...control('resume', 'Resume a paused job, or retry the failed chapter of a failed one; maxTokens raises (null lifts) the token budget'), body: resumeJobBody },
    { ...control('cancel', 'Cancel: stop the chapter in flight, keep finished chapters'), body: interruptBody },
    { method: 'post', path: v1('/jobs/:jobId/stream-token'), summary: 'A short-lived token for this job’s stream', tag: 'jobs', params, status: 201 },
    {
      method: 'get',
      path: v1('/jobs/:jobId/events'),
      summary: 'The job’s event stream (SSE): job_progress per chapter (with the chapter turn’s id), then done. Resume with Last-Event-ID or ?after=',
      tag: 'jobs',
      params,
      query: eventsQuery,
      produces: { type: 'text/event-stream', schema: streamEventSchema },
    },
  ];
  specs.forEach(documentRoute);
}

export function jobSettings(config: Config): JobSettings {
  return { turn: turnSettings(config), chaptersPerRun: config.JOB_CHAPTERS_PER_RUN, maxRevisionRounds: config.JOB_MAX_REVISION_ROUNDS };
}

export const presentJob = (j: JobDoc) => ({
  id: String(j._id),
  projectId: j.projectId,
  sessionId: j.sessionId,
  workflowId: j.workflowId,
  status: j.status,
  chapters: { from: j.from, to: j.to },
  chaptersDone: [...j.chaptersDone].sort((a, b) => a - b),
  failedChapter: j.failedChapter,
  failure: j.failure,
  words: j.words,
  usage: j.usage,
  review: j.review,
  wordsPerChapter: j.wordsPerChapter,
  maxTokens: j.maxTokens ?? null,
  instructions: j.instructions,
  createdAt: j.createdAt,
  updatedAt: j.updatedAt,
});

export function jobsRouter(deps: AppDeps): Router {
  const r = Router();
  const { models, config } = deps;

  const streamToken = (userId: string, jobId: string) =>
    issueStreamToken(userId, `job:${jobId}`, streamTokenSettings(config), deps.clock().getTime());

  const graceMs = config.START_GRACE_SECONDS * 1000;
  const pastGrace = (since: Date | string): boolean => deps.clock().getTime() - new Date(since).getTime() > graceMs;

  /**
   * A `queued` job whose workflow does not exist after the grace period was left by a request
   * that died between recording the job and starting its workflow: it is marked failed (and
   * can be resumed, which starts its workflow) instead of blocking the project forever.
   */
  const stillActive = async (job: Pick<JobDoc, '_id' | 'status' | 'workflowId' | 'createdAt'>): Promise<boolean> => {
    if (!ACTIVE.includes(job.status as JobStatus)) return false;
    if (job.status !== 'queued' || !pastGrace(job.createdAt) || (await workflowRunning(deps.temporal, job.workflowId))) return true;
    await models.Job.updateOne(
      { _id: job._id, status: 'queued' },
      { $set: { status: 'failed' satisfies JobStatus, failure: 'the job workflow was never started (the request that created it died); resume to start it' } },
    );
    return false;
  };

  const conflictingJob = async (projectId: string, except?: string): Promise<void> => {
    const others = await models.Job.find({ projectId, status: { $in: ACTIVE }, ...(except ? { _id: { $ne: except } } : {}) }).lean();
    for (const other of others)
      if (await stillActive(other)) throw new ConflictError('another job is already running in this project', { jobId: String(other._id), status: other.status });
  };

  /**
   * The read above gives a friendly 409; this insert is what makes two simultaneous POSTs
   * unable to both start a job. A claim whose job is no longer active is stale and replaced.
   */
  const claimProject = async (projectId: string, jobId: string): Promise<void> => {
    const busy = await compareAndSet(`job claim of project ${projectId}`, async () => {
      try {
        await models.JobClaim.create({ _id: projectId, jobId });
        return casWritten(null);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      const claim = await models.JobClaim.findById(projectId).lean();
      if (!claim) return casLost;
      const holder = await models.Job.findById(claim.jobId).select({ status: 1, workflowId: 1, createdAt: 1 }).lean();
      // No Job yet: the request that claimed is still creating it (or died doing so — then the
      // claim goes stale after the grace period). An ended job's claim is stale at once.
      const creating = !holder && !pastGrace(claim.createdAt);
      if (creating || (holder && (await stillActive(holder)))) return casWritten({ jobId: claim.jobId, status: holder?.status ?? 'queued' });
      // One deleter per claim: a second one that read this claim could otherwise delete the claim
      // the first took in between (FerretDB v1 deletes by _id after its read).
      await deleteIncarnation(models, models.JobClaim, projectId, incarnationOf(claim.jobId, claim.createdAt), { jobId: claim.jobId, createdAt: claim.createdAt });
      return casLost;
    }).catch((err: unknown) => {
      if (err instanceof CompareAndSetExhausted) throw new ConflictError('could not claim the project for a job: it kept changing hands');
      throw err;
    });
    if (busy) throw new ConflictError('another job is already running in this project', busy);
  };

  const startWorkflow = async (job: JobDoc, carry?: JobCarry): Promise<void> => {
    const jobId = String(job._id);
    const input: JobInput = {
      jobId,
      projectId: job.projectId,
      sessionId: job.sessionId,
      ownerId: job.ownerId,
      from: job.from,
      to: job.to,
      review: job.review,
      settings: jobSettings(config),
      ...(carry ? { carry } : {}),
      ...(job.maxTokens ? { maxTokens: job.maxTokens } : {}),
    };
    await deps.temporal.workflow.start<typeof jobWorkflow>('jobWorkflow', {
      workflowId: job.workflowId,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      args: [input],
      typedSearchAttributes: [
        { key: SA.ProjectId, value: job.projectId },
        { key: SA.JobStatus, value: 'running' },
        { key: SA.Chapter, value: carry?.next ?? job.from },
      ],
      staticSummary: `job · chapters ${job.from}–${job.to}`,
    });
  };

  /**
   * A failed or paused job whose workflow is gone (terminated by an operator, or its history
   * lost) starts a fresh run from what MongoDB and the stream know: the chapters done, and
   * the stream's last slot so new events get higher ids than every event already sent.
   */
  const restart = async (job: JobDoc): Promise<void> => {
    const done = new Set(job.chaptersDone);
    let next = job.failedChapter ?? job.from;
    while (next <= job.to && done.has(next)) next++;
    const info = await streamInfo(deps.redis, jobStreamKey(config.REDIS_KEY_PREFIX, String(job._id)));
    const carry: JobCarry = {
      ...initialCarry(job.from),
      next,
      // A fresh attempt number gives the retried chapter new turn ids (the old ones may exist).
      attempt: Math.floor(deps.clock().getTime() / 1000),
      outlineDone: done.size > 0 || job.failedChapter !== null,
      slot: info.lastId ? (parseStreamId(info.lastId)?.slot ?? 0) : 0,
      chaptersDone: done.size,
      words: job.words,
      usage: { promptTokens: job.usage?.promptTokens ?? 0, completionTokens: job.usage?.completionTokens ?? 0, totalTokens: job.usage?.totalTokens ?? 0 },
      restarted: true,
      ...(job.maxTokens ? { maxTokens: job.maxTokens } : {}),
    };
    await startWorkflow(job, carry);
  };

  const loadOwned = async (req: Request): Promise<JobDoc> => ownedJob(models, userOf(req), parseId(req.params.jobId, 'jobId'));

  const signal = async (job: JobDoc, fn: (h: ReturnType<typeof deps.temporal.workflow.getHandle>) => Promise<void>): Promise<boolean> => {
    try {
      // No run id: signals reach the current run, whatever continue-as-new did.
      await fn(deps.temporal.workflow.getHandle(job.workflowId));
      return true;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    }
  };

  r.post('/jobs', async (req, res) => {
    const body = parseBody(createJobBody, req.body);
    const userId = userOf(req);
    await ownedProject(models, userId, body.projectId);
    if (body.sessionId) {
      const s = await ownedSession(models, userId, body.sessionId);
      if (s.projectId !== body.projectId) throw new BadRequestError('the session belongs to another project', undefined, 'session_project_mismatch');
    }
    await conflictingJob(body.projectId);
    const jobId = newId();
    await claimProject(body.projectId, jobId);
    const { from, to } = body.chapters;
    // Without a session the job gets its own, so its chapter turns never queue behind the author's.
    const sessionId =
      body.sessionId ?? String((await models.Session.create({ projectId: body.projectId, ownerId: userId, title: `Job · chapters ${from}–${to}` }))._id);
    const job = (
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
        status: 'queued',
        workflowId: jobWorkflowId(jobId),
      })
    ).toObject() as JobDoc;
    // The window a dying API process leaves behind: claim and queued Job, no workflow.
    deps.faults?.hit('api.job.before_workflow_start', { projectId: body.projectId });
    try {
      await startWorkflow(job);
    } catch (err) {
      await models.Job.updateOne({ _id: jobId }, { $set: { status: 'failed' satisfies JobStatus, failure: 'the job workflow could not be started' } });
      deps.logger.error({ err, jobId }, 'could not start the job workflow');
      throw new UnavailableError('could not start the job: the workflow service is unavailable');
    }
    const { token } = streamToken(userId, jobId);
    res.status(202).json({ jobId, workflowId: job.workflowId, sessionId, streamUrl: `/api/v1/jobs/${jobId}/events`, streamToken: token });
  });

  r.get('/jobs', async (req, res) => {
    const q = parseQuery(listQuery, req.query);
    const userId = userOf(req);
    const filter: Record<string, unknown> = { ownerId: userId };
    if (q.projectId) filter.projectId = String((await ownedProject(models, userId, q.projectId))._id);
    const list = await models.Job.find(filter).sort({ createdAt: -1 }).limit(q.limit).lean();
    res.json({ items: list.map(presentJob) });
  });

  r.get('/jobs/:jobId', async (req, res) => {
    const job = await loadOwned(req);
    // The workflow's own view (chapter in flight, its turn id) while the job is not over.
    const live = ENDED.includes(job.status as JobStatus)
      ? null
      : await deps.temporal.workflow.getHandle(job.workflowId).query(progressQuery).catch(() => null);
    res.json({ ...presentJob(job), live });
  });

  r.post('/jobs/:jobId/pause', async (req, res) => {
    const job = await loadOwned(req);
    if (!ACTIVE.includes(job.status as JobStatus)) throw new ConflictError(`job is ${job.status}`, { status: job.status });
    if (!(await signal(job, (h) => h.signal(pauseJobSignal)))) throw new ConflictError('job is no longer running', { status: job.status });
    res.status(202).json({ jobId: String(job._id), requested: 'pause' });
  });

  r.post('/jobs/:jobId/resume', async (req, res) => {
    const { maxTokens } = parseBody(resumeJobBody, req.body);
    const job = await loadOwned(req);
    const status = job.status as JobStatus;
    if (!['paused', 'pausing', 'failed'].includes(status)) throw new ConflictError(`job is ${status}: only a paused or failed job resumes`, { status });
    if (status === 'failed') await conflictingJob(job.projectId, String(job._id));
    if (maxTokens !== undefined) {
      await models.Job.updateOne({ _id: job._id }, { $set: { maxTokens } });
      job.maxTokens = maxTokens;
    }
    let restarted = false;
    if (!(await signal(job, (h) => h.signal(resumeJobSignal, ...(maxTokens !== undefined ? [{ maxTokens }] : []))))) {
      await restart(job);
      restarted = true;
    }
    res.status(202).json({ jobId: String(job._id), requested: 'resume', restarted });
  });

  r.post('/jobs/:jobId/cancel', async (req, res) => {
    const { reason } = parseBody(interruptBody, req.body);
    const job = await loadOwned(req);
    if (ENDED.includes(job.status as JobStatus)) throw new ConflictError(`job is ${job.status}`, { status: job.status });
    // A job whose workflow is gone has nothing in flight: its record is all there is to cancel.
    if (!(await signal(job, (h) => h.signal(cancelJobSignal, { reason }))))
      await models.Job.updateOne({ _id: job._id }, { $set: { status: 'cancelled' satisfies JobStatus } });
    res.status(202).json({ jobId: String(job._id), requested: 'cancel' });
  });

  r.post('/jobs/:jobId/stream-token', async (req, res) => {
    const userId = userOf(req);
    const job = await ownedJob(models, userId, parseId(req.params.jobId, 'jobId'));
    res.status(201).json(streamToken(userId, String(job._id)));
  });

  r.get('/jobs/:jobId/events', async (req, res) => {
    const jobId = parseId(req.params.jobId, 'jobId');
    const q = parseQuery(eventsQuery, req.query);
    resumeIdOf(req); // a malformed Last-Event-ID is refused before any lookup, as on turn streams
    await ownedJob(models, streamReader(req, `job:${jobId}`, q.token, streamTokenSettings(config), deps.clock().getTime()), jobId);
    await serveSse(
      req,
      res,
      deps.redis,
      {
        key: jobStreamKey(config.REDIS_KEY_PREFIX, jobId),
        stateUrl: `/api/v1/jobs/${jobId}`,
        envelope: { jobId },
        publishedCounts: () => slotCounts(models, jobStreamKey(config.REDIS_KEY_PREFIX, jobId)),
        hasEnded: async () => {
          const j = await models.Job.findById(jobId).select({ status: 1 }).lean();
          return !j || ENDED.includes(j.status as JobStatus);
        },
      },
      { keepAliveMs: config.SSE_KEEPALIVE_MS, retryMs: config.SSE_RETRY_MS, clock: deps.clock },
    );
  });
  return r;
}
