/**
 * The lookup behind run control from chat (workflows/job-commands.ts): the job a message
 * names, if it is this author's, else the project's active one. Read-only: the workflow
 * signals the job itself, so the command is part of the turn's history.
 */
import { Types } from 'mongoose';
import type { JobLookup } from '../../core/words/job-commands';
import type { ActivityDeps } from '../deps';
import { notFound } from '../failures';

const ACTIVE = ['queued', 'running', 'pausing', 'paused', 'failed'];

export function createJobCommandActivities(deps: ActivityDeps) {
  const { models } = deps;
  return {
    async findJobForCommand(input: { turnId: string; jobId: string | null }): Promise<JobLookup> {
      const turn = await models.Turn.findById(input.turnId).select({ projectId: 1, ownerId: 1 }).lean();
      if (!turn) throw notFound('Turn', input.turnId);
      // Another author's job reads exactly like a job that does not exist.
      const job =
        input.jobId && Types.ObjectId.isValid(input.jobId)
          ? await models.Job.findOne({ _id: input.jobId, ownerId: turn.ownerId }).lean()
          : input.jobId
            ? null
            : await models.Job.findOne({ projectId: turn.projectId, ownerId: turn.ownerId, status: { $in: ACTIVE } })
                .sort({ createdAt: -1 })
                .lean();
      if (!job) return { job: null, reason: input.jobId ? 'not_found' : 'none_running' };
      return {
        job: {
          id: String(job._id),
          workflowId: job.workflowId,
          status: job.status,
          from: job.from,
          to: job.to,
          chaptersDone: [...job.chaptersDone].sort((a, b) => a - b),
          words: job.words ?? 0,
          failure: job.failure ?? null,
          failedChapter: job.failedChapter ?? null,
        },
      };
    },
  };
}
