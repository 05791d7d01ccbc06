/**
 * Long multi-chapter jobs: one POST starts workflow `job-<jobId>`; the job's
 * progress streams over SSE with the same resume semantics as turns; pause, resume and
 * cancel are signals. The workflow owns the job's state — these routes record the request,
 * start or signal the workflow and read what it wrote.
 */
import { ACTIVE_JOB_STATUSES, ENDED_JOB_STATUSES, jobStarter, type JobStarter } from '../job-starter';
import { Router, type Request, type RequestHandler } from 'express';
import { WorkflowNotFoundError } from '@temporalio/client';
import { z } from 'zod';
import type { AppDeps } from '../context';
import { documentRoute, type RouteSpec, toOpenApiPath } from '../route-specs';
import { issueStreamToken, streamReader, streamTokenSettings, userOf } from '../auth';
import { BadRequestError, ConflictError } from '../errors';
import { ownedJob, ownedProject, ownedSession } from '../ownership';
import { workflowRunning } from '../../workflow-liveness';
import { createJobBody, eventsQuery, interruptBody, listQuery, resumeJobBody } from '../schemas';
import { resumeIdOf, serveSse } from '../sse';
import { slotCounts } from '../../db/stream-ledger';
import { parseBody, parseId, parseQuery } from '../validation';
import { type JobDoc, type Models } from '../../db/models';
import { type JobStatus, objectIdSchema } from '../../core/domain';
import { streamEventSchema } from '../../core/events';
import { jobStreamKey } from '../../streams/redis-streams';
import { pauseJobSignal, progressQuery, type ResumeJobArgs, resumeJobSignal } from '../../core/job/job-messages';
import { jobTask, jobTaskId } from '../../core/job/job-task';
import { type JobCost, jobCost, jobCosts } from '../../db/job-cost';
import { writeJobTask } from '../../db/job-task';

const ACTIVE = ACTIVE_JOB_STATUSES;
const ENDED = ENDED_JOB_STATUSES;

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
      summary:
        'Start a multi-chapter job (202 with jobId, workflowId, sessionId, streamUrl, streamToken); 409 while another job runs in the project',
      tag: 'jobs',
      body: createJobBody,
      status: 202,
      errors: [400, 401, 404, 409, 413, 429],
    },
    {
      method: 'get',
      path: v1('/jobs'),
      summary: 'List your jobs (optionally of one project)',
      tag: 'jobs',
      query: listQuery,
    },
    {
      method: 'get',
      path: v1('/jobs/:jobId'),
      summary: 'Job status, chapters done, words, usage, cost so far (and live progress while not over)',
      tag: 'jobs',
      params,
    },
    control('pause', 'Pause after the chapter in flight'),
    {
      ...control(
        'resume',
        'Resume a paused job, or retry the failed chapter of a failed one; maxTokens / maxCostUsd raise (null lifts) a budget',
      ),
      body: resumeJobBody,
    },
    { ...control('cancel', 'Cancel: stop the chapter in flight, keep finished chapters'), body: interruptBody },
    {
      method: 'post',
      path: v1('/jobs/:jobId/stream-token'),
      summary: 'A short-lived token for this job’s stream',
      tag: 'jobs',
      params,
      status: 201,
    },
    {
      method: 'get',
      path: v1('/jobs/:jobId/events'),
      summary:
        'The job’s event stream (SSE): job_progress at each status change, each chapter turn that begins (kind turn: its turnId’s own stream carries the chapter’s words as they are written) and each chapter written, with the cost so far; then done. Resume with Last-Event-ID or ?after=',
      tag: 'jobs',
      params,
      query: eventsQuery,
      produces: { type: 'text/event-stream', schema: streamEventSchema },
    },
  ];
  specs.forEach(documentRoute);
}

/** A job as the API shows it; `cost` from its usage records (./db/job-cost.ts). */
export const presentJob = (j: JobDoc, cost: JobCost = { costUsd: 0, unpricedCalls: 0 }) => ({
  id: String(j._id),
  projectId: j.projectId,
  sessionId: j.sessionId,
  workflowId: j.workflowId,
  status: j.status,
  chapters: { from: j.from, to: j.to },
  chaptersDone: [...j.chaptersDone].sort((a, b) => a - b),
  /** Chapters that had text before the job and were left as they were (`existing: skip`). */
  chaptersSkipped: [...(j.chaptersSkipped ?? [])].sort((a, b) => a - b),
  existing: j.existing ?? 'skip',
  failedChapter: j.failedChapter,
  failure: j.failure,
  words: j.words,
  usage: j.usage,
  /** USD so far by the price table; `unpricedCalls` went to a model with no price and are not in it. */
  costUsd: cost.costUsd,
  unpricedCalls: cost.unpricedCalls,
  /** The language of the job's messages. */
  language: j.language ?? 'en',
  review: j.review,
  wordsPerChapter: j.wordsPerChapter,
  maxTokens: j.maxTokens ?? null,
  maxCostUsd: j.maxCostUsd ?? null,
  instructions: j.instructions,
  createdAt: j.createdAt,
  updatedAt: j.updatedAt,
});

/**
 * The budgets a resume raises or lifts, on the Job (a restarted run reads them there) and as
 * the resume signal's arguments (only those given; an absent one keeps the current budget).
 */
async function recordBudgets(models: Models, job: JobDoc, given: ResumeJobArgs): Promise<ResumeJobArgs> {
  const budgets: ResumeJobArgs = {
    ...(given.maxTokens !== undefined ? { maxTokens: given.maxTokens } : {}),
    ...(given.maxCostUsd !== undefined ? { maxCostUsd: given.maxCostUsd } : {}),
  };
  if (Object.keys(budgets).length) await models.Job.updateOne({ _id: job._id }, { $set: budgets });
  Object.assign(job, budgets);
  return budgets;
}

/** A job with no workflow left to record its end: its record and its item on the task board (if it has one) say cancelled. */
async function recordCancelled(models: Models, job: JobDoc): Promise<void> {
  await models.Job.updateOne({ _id: job._id }, { $set: { status: 'cancelled' satisfies JobStatus } });
  const facts = {
    jobId: String(job._id),
    from: job.from,
    to: job.to,
    language: job.language,
    status: 'cancelled' as const,
  };
  await writeJobTask(models, job.projectId, jobTaskId(facts.jobId), (current) =>
    current ? jobTask({ ...facts, doneUnits: current.doneUnits ?? [] }) : null,
  );
}

/** What the job routes share: the app, the starter, and how a route finds and signals a job. */
interface JobRoutes {
  deps: AppDeps;
  models: Models;
  config: AppDeps['config'];
  starter: JobStarter;
  streamToken: (userId: string, jobId: string) => ReturnType<typeof issueStreamToken>;
  loadOwned: (req: Request) => Promise<JobDoc>;
  /** Runs `fn` on the job's workflow; false when the workflow is gone. */
  signal: (job: JobDoc, fn: (h: WorkflowHandle) => Promise<void>) => Promise<boolean>;
}

type WorkflowHandle = ReturnType<AppDeps['temporal']['workflow']['getHandle']>;

function jobRoutes(deps: AppDeps): JobRoutes {
  const { models, config } = deps;

  const streamToken = (userId: string, jobId: string) =>
    issueStreamToken(userId, `job:${jobId}`, streamTokenSettings(config), deps.clock().getTime());

  const starter = jobStarter(deps);

  const loadOwned = async (req: Request): Promise<JobDoc> =>
    ownedJob(models, userOf(req), parseId(req.params.jobId, 'jobId'));

  const signal = async (job: JobDoc, fn: (h: WorkflowHandle) => Promise<void>): Promise<boolean> => {
    try {
      // No run id: signals reach the current run, whatever continue-as-new did.
      await fn(deps.temporal.workflow.getHandle(job.workflowId));
      return true;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    }
  };

  return { deps, models, config, starter, streamToken, loadOwned, signal };
}

function startJobRoute({ models, starter, streamToken }: JobRoutes): RequestHandler {
  return async (req, res) => {
    const body = parseBody(createJobBody, req.body);
    const userId = userOf(req);
    await ownedProject(models, userId, body.projectId);
    if (body.sessionId) {
      const s = await ownedSession(models, userId, body.sessionId);
      if (s.projectId !== body.projectId)
        throw new BadRequestError('the session belongs to another project', undefined, 'session_project_mismatch');
    }
    const { jobId, workflowId, sessionId } = await starter.startJob(userId, body);
    const { token } = streamToken(userId, jobId);
    res
      .status(202)
      .json({ jobId, workflowId, sessionId, streamUrl: `/api/v1/jobs/${jobId}/events`, streamToken: token });
  };
}

function listJobsRoute({ models }: JobRoutes): RequestHandler {
  return async (req, res) => {
    const q = parseQuery(listQuery, req.query);
    const userId = userOf(req);
    const filter: Record<string, unknown> = { ownerId: userId };
    if (q.projectId) filter.projectId = String((await ownedProject(models, userId, q.projectId))._id);
    const list = await models.Job.find(filter).sort({ createdAt: -1 }).limit(q.limit).lean();
    const costs = await jobCosts(
      models,
      list.map((j) => ({ jobId: String(j._id), projectId: j.projectId })),
    );
    res.json({ items: list.map((j) => presentJob(j, costs.get(String(j._id)))) });
  };
}

function getJobRoute({ deps, models, loadOwned }: JobRoutes): RequestHandler {
  return async (req, res) => {
    const job = await loadOwned(req);
    // The workflow's own view (chapter in flight, its turn id) while the job is not over.
    const live = ENDED.includes(job.status as JobStatus)
      ? null
      : deps.temporal.workflow
          .getHandle(job.workflowId)
          .query(progressQuery)
          .catch(() => null);
    res.json({
      ...presentJob(job, await jobCost(models, { jobId: String(job._id), projectId: job.projectId })),
      live: await live,
    });
  };
}

function pauseJobRoute({ loadOwned, signal }: JobRoutes): RequestHandler {
  return async (req, res) => {
    const job = await loadOwned(req);
    if (!ACTIVE.includes(job.status as JobStatus))
      throw new ConflictError(`job is ${job.status}`, { status: job.status });
    if (!(await signal(job, (h) => h.signal(pauseJobSignal))))
      throw new ConflictError('job is no longer running', { status: job.status });
    res.status(202).json({ jobId: String(job._id), requested: 'pause' });
  };
}

function resumeJobRoute({ models, starter, loadOwned, signal }: JobRoutes): RequestHandler {
  return async (req, res) => {
    const { maxTokens, maxCostUsd } = parseBody(resumeJobBody, req.body);
    const job = await loadOwned(req);
    const status = job.status as JobStatus;
    if (!['paused', 'pausing', 'failed'].includes(status))
      throw new ConflictError(`job is ${status}: only a paused or failed job resumes`, { status });
    if (status === 'failed') await starter.conflictingJob(job.projectId, String(job._id));
    const budgets = await recordBudgets(models, job, { maxTokens, maxCostUsd });
    let restarted = false;
    if (!(await signal(job, (h) => h.signal(resumeJobSignal, ...(Object.keys(budgets).length ? [budgets] : []))))) {
      await starter.restart(job);
      restarted = true;
    }
    res.status(202).json({ jobId: String(job._id), requested: 'resume', restarted });
  };
}

function cancelJobRoute({ deps, models, loadOwned, signal }: JobRoutes): RequestHandler {
  return async (req, res) => {
    // The optional reason is validated; the job's record says cancelled, its stream ends with `done`.
    parseBody(interruptBody, req.body);
    const job = await loadOwned(req);
    if (ENDED.includes(job.status as JobStatus))
      throw new ConflictError(`job is ${job.status}`, { status: job.status });
    // A job whose workflow is gone has nothing in flight: its record is all there is to cancel.
    // A Temporal cancellation (not only our signal): the workflow ends as Canceled in Temporal UI.
    // A closed workflow (terminated by an operator) takes a cancellation request without a
    // word and would never record it: ask Temporal first.
    const live = await workflowRunning(deps.temporal, job.workflowId);
    if (!live || !(await signal(job, async (h) => void (await h.cancel())))) await recordCancelled(models, job);
    res.status(202).json({ jobId: String(job._id), requested: 'cancel' });
  };
}

function jobStreamTokenRoute({ models, streamToken }: JobRoutes): RequestHandler {
  return async (req, res) => {
    const userId = userOf(req);
    const job = await ownedJob(models, userId, parseId(req.params.jobId, 'jobId'));
    res.status(201).json(streamToken(userId, String(job._id)));
  };
}

function jobEventsRoute({ deps, models, config }: JobRoutes): RequestHandler {
  return async (req, res) => {
    const jobId = parseId(req.params.jobId, 'jobId');
    const q = parseQuery(eventsQuery, req.query);
    resumeIdOf(req); // a malformed Last-Event-ID is refused before any lookup, as on turn streams
    const job = await ownedJob(
      models,
      streamReader(req, `job:${jobId}`, q.token, streamTokenSettings(config), deps.clock().getTime()),
      jobId,
    );
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
        endedWhenOpened: ENDED.includes(job.status as JobStatus),
      },
      { keepAliveMs: config.SSE_KEEPALIVE_MS, retryMs: config.SSE_RETRY_MS, clock: deps.clock },
    );
  };
}

export function jobsRouter(deps: AppDeps): Router {
  const r = Router();
  const routes = jobRoutes(deps);
  r.post('/jobs', startJobRoute(routes));
  r.get('/jobs', listJobsRoute(routes));
  r.get('/jobs/:jobId', getJobRoute(routes));
  r.post('/jobs/:jobId/pause', pauseJobRoute(routes));
  r.post('/jobs/:jobId/resume', resumeJobRoute(routes));
  r.post('/jobs/:jobId/cancel', cancelJobRoute(routes));
  r.post('/jobs/:jobId/stream-token', jobStreamTokenRoute(routes));
  r.get('/jobs/:jobId/events', jobEventsRoute(routes));
  return r;
}
