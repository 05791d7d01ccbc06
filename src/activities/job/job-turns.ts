/**
 * A job's child turns, as activities: each opened with its author message (built from the
 * outline, the chapter files and the reviewer's notes) and the session lock, or abandoned when
 * the job was cancelled before it started. The turn id comes from (job, kind, chapter, attempt,
 * round), so a retry finds what an earlier attempt recorded.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { idFromKey, type JobDoc, type Models } from '../../db/models';
import { createTurnRecords, releaseSessionLock, takeSessionLock } from '../../db/turn-records';
import { turnWorkflowId } from '../../core/domain';
import { workflowRunning } from '../../workflow-liveness';
import { detectLanguage } from '../../core/text';
import { type OpenedJobTurn, type OpenJobTurnInput } from '../../core/job/job-messages';
import { FailureType } from '../../core/failure-types';
import type { ActivityDeps } from '../deps';
import {
  anyChapterFile,
  chapterFiles,
  describeRanges,
  missingChapters,
  outlineCoverage,
  pickChapterFile,
} from './job-files';
import {
  chapterMessage,
  existingRevisionMessage,
  type Lang,
  outlineMessage,
  revisionMessage,
} from '../../core/job/job-text';
import { quiet } from '../../core/quiet';
import { loadJob } from './jobs';

const turnKey = (i: OpenJobTurnInput): string => `job:${i.jobId}:${i.kind}:${i.chapter}:a${i.attempt}:r${i.round}`;
const jobTurnId = (i: OpenJobTurnInput): string => idFromKey(turnKey(i));

/** The author message of a job's turn. Its reads (outline, chapter files, project summary) start at once, beside the job's. */
async function buildMessage(
  models: Models,
  jobRead: Promise<JobDoc>,
  projectId: string,
  input: OpenJobTurnInput,
): Promise<string> {
  const project = quiet(models.Project.findById(projectId).select({ summary: 1 }).lean().exec());
  const files = input.kind === 'outline' ? null : quiet(chapterFiles(models, projectId));
  const [coverage, job] = await Promise.all([outlineCoverage(models, projectId), jobRead]);
  // The book's own words decide the language of the team's briefs; with none yet (an empty
  // project, no instructions), the language the author started the job in.
  const languageOf = async (sample: string): Promise<Lang> => {
    const text = [job.instructions, sample, (await project)?.summary ?? ''].join('\n');
    return /\p{L}/u.test(text) ? (detectLanguage(text) as Lang) : job.language === 'zh' ? 'zh' : 'en';
  };
  if (input.kind === 'outline') {
    const missing = missingChapters(coverage, job.from, job.to);
    const existing = coverage.outlineIds[0]
      ? await models.File.findById(coverage.outlineIds[0]).select({ title: 1 }).lean()
      : null;
    return outlineMessage({
      from: job.from,
      to: job.to,
      lang: await languageOf(''),
      instructions: job.instructions,
      existing: existing ? { id: String(existing._id), title: existing.title } : null,
      missing: describeRanges(missing, 12, await languageOf('')),
    });
  }
  const n = input.chapter;
  const chapters = (await files)!;
  const prev = pickChapterFile(chapters.get(n - 1));
  const entry = coverage.entries.get(n) ?? null;
  const brief = {
    chapter: n,
    lang: await languageOf(entry ?? ''),
    outlineEntry: entry,
    previous: prev ? { id: prev.id, title: prev.title } : null,
    existing: null as { id: string; title: string } | null,
    wordsPerChapter: job.wordsPerChapter ?? null,
    instructions: job.instructions,
  };
  if (input.kind === 'chapter') {
    const existing = anyChapterFile(chapters.get(n));
    brief.existing = existing ? { id: existing.id, title: existing.title } : null;
    return chapterMessage(brief);
  }
  const target = pickChapterFile(chapters.get(n), input.reviewTurnId ? [input.reviewTurnId] : []);
  if (!target)
    throw ApplicationFailure.nonRetryable(`chapter ${n} has no draft to revise`, FailureType.NothingToRevise);
  if (input.reviseExisting)
    return existingRevisionMessage({ ...brief, target: { id: target.id, title: target.title } });
  const review = await models.Message.findOne({
    turnId: input.reviewTurnId,
    role: 'assistant',
    agent: 'quality_reviewer',
  })
    .sort({ seq: -1 })
    .lean();
  return revisionMessage({
    ...brief,
    target: { id: target.id, title: target.title },
    reviewerNotes: review?.content ?? '',
    round: input.round,
  });
}

/** A job's child turns: opened (author message and session lock) and abandoned. */
export function createJobTurnActivities(deps: ActivityDeps) {
  const { models } = deps;

  return {
    /**
     * Records the author message of a job's child turn (Turn + user Message) and takes the
     * session lock, as the API does for an author's turn. Idempotent: the turn id is derived
     * from (job, kind, chapter, attempt, round), so a retry finds what it already wrote.
     */
    async openJobTurn(input: OpenJobTurnInput): Promise<OpenedJobTurn> {
      const turnId = jobTurnId(input);
      // Jobs that name their session and project (since these fields) take the lock while the
      // job is read; older ones read the job first.
      const jobRead = quiet(loadJob(models, input.jobId));
      const { sessionId, projectId } =
        input.sessionId && input.projectId ? { sessionId: input.sessionId, projectId: input.projectId } : await jobRead;
      // An author's turn running in the job's session: a retryable error, so the chapter waits for it.
      const { client } = Context.current();
      // Reads only, so they go out with the lock: the turn an earlier attempt recorded, and the
      // message it would get (used only when there is none; NothingToRevise still fails the call).
      const recorded = quiet(models.Turn.findById(turnId).select({ message: 1 }).lean().exec());
      const built = quiet(buildMessage(models, jobRead, projectId, input));
      const { busyWith } = await takeSessionLock(models, sessionId, turnId, {
        graceMs: deps.config.START_GRACE_SECONDS * 1000,
        now: deps.clock,
        workflowOpen: (holder) => workflowRunning(client, turnWorkflowId(holder)),
      });
      if (busyWith && input.failWhenBusy)
        throw ApplicationFailure.nonRetryable(
          `session ${sessionId} is busy with turn ${busyWith}`,
          FailureType.SessionBusy,
        );
      if (busyWith) throw new Error(`session ${sessionId} is busy with turn ${busyWith}; waiting`);
      const [job, existing] = await Promise.all([jobRead, recorded]);
      if (job.sessionId !== sessionId || job.projectId !== projectId) {
        // The workflow named another session or project than the job's (never by design): free what was taken.
        await releaseSessionLock(models, sessionId, turnId);
        throw ApplicationFailure.nonRetryable(
          `job ${input.jobId} runs in session ${job.sessionId} of project ${job.projectId}, not ${sessionId} of ${projectId}`,
          FailureType.JobMismatch,
        );
      }
      const message = existing?.message ?? (await built);
      const { seq } = await createTurnRecords(models, {
        turnId,
        sessionId,
        projectId,
        ownerId: job.ownerId,
        message,
        jobId: input.jobId,
      });
      return { turnId, message, ...(seq ? { openingSeq: seq } : {}) };
    },

    /** A turn recorded but never started (the job was cancelled in between): close it and free the session. */
    async abandonJobTurn(input: { turnId: string }): Promise<void> {
      const turn = await models.Turn.findById(input.turnId).select({ sessionId: 1 }).lean();
      if (!turn) return;
      await models.Turn.updateOne(
        { _id: input.turnId, status: 'queued' },
        { $set: { status: 'interrupted', stopReason: 'cancelled', endedAt: deps.clock() } },
      );
      await releaseSessionLock(models, turn.sessionId, input.turnId);
    },
  };
}
