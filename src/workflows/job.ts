/**
 * The multi-chapter job workflow `job-<jobId>` (SPEC §7): make sure the outline covers the
 * range (a planner turn when it does not), then write each chapter in order as a child
 * turn — writer, review gate and bounded revision rounds when `review` is on — because
 * each chapter continues the one before.
 *
 * - History stays bounded: chapter text never passes through it (child turns and
 *   activities exchange ids and counters), and the job continues-as-new every
 *   JOB_CHAPTERS_PER_RUN chapters or when Temporal suggests it, carrying only counters.
 * - `pause` lets the chapter in flight finish, then waits; `resume` continues; `cancel`
 *   stops the chapter in flight and keeps every finished chapter.
 * - A chapter that fails after its retries stops the job in a resumable `failed` state —
 *   never a silent skip; `resume` retries that chapter with a fresh turn.
 */
import { condition, continueAsNew, isCancellation, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { JobStatus } from '../core/domain';
import { type ChildRequest, type ChildResult, jobActivities, plannerRouting, runChildTurn, writerRouting } from './job-child';
import { cancelJobSignal, type JobInput, type JobResult, pauseJobSignal, progressQuery, resumeJobSignal } from '../core/job-messages';
import { JobRunState } from './job-state';
import { SA } from '../core/messages';

/** Review gate threshold that never fires: with `review` off the writer's chapter is not reviewed. */
const NO_REVIEW = 1_000_000_000;

type Step = 'ok' | 'cancelled';

export async function jobWorkflow(input: JobInput): Promise<JobResult> {
  const st = new JobRunState(input);
  const acts = jobActivities(input.settings, { local: true });
  const { jobId } = input;

  const progress = (message: string, chapter = st.next, turnId?: string) => ({
    chapter: Math.min(chapter, input.to),
    chaptersDone: st.chaptersDone,
    words: st.words,
    usage: { ...st.usage },
    status: st.status,
    ...(turnId ? { turnId } : {}),
    message,
  });

  /** Status change: search attribute now, then the Job document and a job_progress event. */
  /** `summary`: the job stopped here (ended, failed, paused at its budget): its session gets a closing message. */
  type Extra = { failure?: { chapter: number | null; message: string } | null; done?: boolean; summary?: boolean };
  const statusCall = (status: JobStatus, message: string, extra: Extra) => {
    st.status = status;
    upsertSearchAttributes([{ key: SA.JobStatus, value: status }]);
    // Facts are taken now, when the change happens, not when the queued call gets its turn.
    const { summary, ...rest } = extra;
    const facts = { status, usage: { ...st.usage }, progress: progress(message), ...rest, ...(summary ? { summary: { revisions: st.revisions, next: st.next } } : {}) };
    return (slot: number) => acts.recordJob.executeWithOptions({ summary: `status ${status}` }, [{ jobId, slot, ...facts }]);
  };
  const setStatus = (status: JobStatus, message: string, extra: Extra = {}) => st.serial(statusCall(status, message, extra));

  setHandler(progressQuery, () => st.snapshot());
  setHandler(pauseJobSignal, () => {
    if (st.pauseRequested || st.cancelRequested) return;
    st.pauseRequested = true;
    if (st.status === 'running') st.background(statusCall('pausing', 'Pausing after the chapter in flight.', {}));
  });
  setHandler(resumeJobSignal, (args) => {
    if (args?.maxTokens !== undefined) st.maxTokens = args.maxTokens;
    if (st.pauseRequested) {
      st.pauseRequested = false;
      if (st.status === 'pausing') st.background(statusCall('running', 'Pause withdrawn.', {}));
    }
    st.resumeRequested = true;
  });
  setHandler(cancelJobSignal, () => {
    st.cancelRequested = true;
    st.childScope?.cancel();
  });

  /** Pause point between chapters. */
  const checkpoint = async (): Promise<Step> => {
    if (st.cancelRequested) return 'cancelled';
    if (!st.pauseRequested) return 'ok';
    await setStatus('paused', `Paused before chapter ${st.next}.`);
    await condition(() => !st.pauseRequested || st.cancelRequested);
    if (st.cancelRequested) return 'cancelled';
    await setStatus('running', `Resumed at chapter ${st.next}.`);
    return 'ok';
  };

  /**
   * Token budget, checked before each chapter: when the chapter would take the job past
   * `maxTokens` (what is used plus the average chapter so far), the job pauses — resumable,
   * with a job_progress saying why — until a resume raises or lifts the budget, or a cancel.
   */
  const withinBudget = async (): Promise<Step> => {
    if (st.maxTokens === null) return 'ok';
    let paused = false;
    for (;;) {
      if (st.cancelRequested) return 'cancelled';
      const used = st.usage.totalTokens;
      const estimate = st.nextChapterEstimate();
      if (st.maxTokens === null || (used < st.maxTokens && used + estimate <= st.maxTokens)) break;
      st.resumeRequested = false;
      await setStatus(
        'paused',
        `Paused before chapter ${st.next}: token budget ${st.maxTokens} would be exceeded (${used} used, about ${estimate} per chapter). Resume with a higher maxTokens to go on.`,
        { summary: true },
      );
      paused = true;
      await condition(() => st.resumeRequested || st.cancelRequested);
    }
    if (paused) await setStatus('running', `Resumed at chapter ${st.next} (token budget ${st.maxTokens ?? 'lifted'}).`);
    return 'ok';
  };

  /** Stops in the resumable failed state until `resume` (retry) or `cancel`. */
  const failAndWait = async (chapter: number | null, message: string): Promise<Step> => {
    st.failure = message;
    // Cleared before the status goes out: a client may resume as soon as it sees `failed`.
    st.resumeRequested = false;
    await setStatus('failed', message, { failure: { chapter, message }, summary: true });
    await condition(() => st.resumeRequested || st.cancelRequested);
    if (st.cancelRequested) return 'cancelled';
    st.failure = null;
    st.attempt += 1;
    await setStatus('running', chapter === null ? 'Retrying the outline.' : `Retrying chapter ${chapter}.`, { failure: null });
    return 'ok';
  };

  const child = async (req: Omit<ChildRequest, 'onTurn'>, announce: string): Promise<ChildResult> => {
    const r = await runChildTurn(st, acts, {
      ...req,
      // Not awaited: the chapter's turn runs while its announcement is written.
      onTurn: (turnId) => {
        const facts = progress(announce, req.open.chapter, turnId);
        st.background((slot) => acts.recordJob({ jobId, slot, progress: facts }));
      },
    });
    if (r.kind === 'ended') st.addUsage(r.outcome.usage);
    return r;
  };

  /** Why a finished child turn does not count, or null when it does. */
  const problem = (r: ChildResult, what: string): string | null => {
    if (r.kind === 'failed') return `${what} failed: ${r.message}`;
    if (r.kind === 'cancelled') return null;
    if (r.outcome.status === 'failed') return `${what}: turn ${r.turnId} failed${r.outcome.stopReason ? ` (${r.outcome.stopReason})` : ''}`;
    if (r.outcome.status === 'interrupted') return `${what}: turn ${r.turnId} was interrupted`;
    return null;
  };

  const ensureOutline = async (): Promise<Step> => {
    for (;;) {
      const before = await acts.jobOutlineStatus({ jobId });
      if (before.covered) return 'ok';
      const r = await child(
        {
          open: { jobId, kind: 'outline', chapter: input.from, attempt: st.attempt, round: 0 },
          routing: plannerRouting(`outline for chapters ${input.from}–${input.to}`),
          reviewWordThreshold: NO_REVIEW,
          summary: `job ${jobId} · outline ${input.from}–${input.to}`,
        },
        `Planning the outline: chapters ${before.missingText} have no entry.`,
      );
      if (r.kind === 'cancelled' || st.cancelRequested) return 'cancelled';
      const why = problem(r, 'outline');
      if (why) {
        if ((await failAndWait(null, why)) === 'cancelled') return 'cancelled';
        continue;
      }
      const after = await acts.jobOutlineStatus({ jobId });
      // A partial outline does not stop the job: each uncovered chapter is told to continue the story.
      if (!after.covered)
        await st.serial((slot) => acts.recordJob({ jobId, slot, progress: progress(`The outline still has no entry for chapters ${after.missingText}; they follow the story.`) }));
      return 'ok';
    }
  };

  /** One chapter: write, review and revise (bounded), then verify the draft exists. */
  const writeChapter = async (n: number): Promise<Step | 'failed'> => {
    upsertSearchAttributes([{ key: SA.Chapter, value: n }]);
    const threshold = input.review ? 1 : NO_REVIEW;
    const turnIds: string[] = [];
    let r = await child(
      {
        open: { jobId, kind: 'chapter', chapter: n, attempt: st.attempt, round: 0 },
        routing: writerRouting(`Chapter ${n} only`),
        reviewWordThreshold: threshold,
        summary: `job ${jobId} · chapter ${n}`,
      },
      `Writing chapter ${n}.`,
    );
    for (let round = 1; ; round++) {
      if (r.kind === 'cancelled' || st.cancelRequested) return 'cancelled';
      const why = problem(r, `chapter ${n}`);
      if (why) return (await failAndWait(n, why)) === 'cancelled' ? 'cancelled' : 'failed';
      if (r.kind !== 'ended') return 'failed';
      turnIds.push(r.turnId);
      if (!input.review || round > input.settings.maxRevisionRounds) break;
      const { verdict } = await acts.reviewVerdict.executeWithOptions({ summary: `review verdict · chapter ${n}` }, [{ turnId: r.turnId }]);
      if (verdict !== 'revise') break;
      st.revisions += 1;
      r = await child(
        {
          open: { jobId, kind: 'revision', chapter: n, attempt: st.attempt, round, reviewTurnId: r.turnId },
          routing: writerRouting(`revise Chapter ${n} only`),
          reviewWordThreshold: threshold,
          summary: `job ${jobId} · chapter ${n} · revision ${round}`,
        },
        `Revising chapter ${n} (round ${round}).`,
      );
    }
    st.turnId = null;
    const fin = await st.serial((slot) =>
      acts.finishChapter.executeWithOptions({ summary: `finish chapter ${n}` }, [{ jobId, chapter: n, turnIds, slot, status: st.status, usage: { ...st.usage }, projectId: input.projectId }]),
    );
    if (!fin.done) return (await failAndWait(n, `chapter ${n}: ${fin.reason}`)) === 'cancelled' ? 'cancelled' : 'failed';
    st.words = fin.totalWords;
    st.chaptersDone = fin.chaptersDone;
    return 'ok';
  };

  const finish = async (status: 'completed' | 'cancelled'): Promise<JobResult> => {
    const message = status === 'completed' ? `Job completed: ${st.chaptersDone} chapters.` : `Job cancelled; ${st.chaptersDone} finished chapters kept.`;
    await setStatus(status, message, { done: true, summary: true });
    return { status, chaptersDone: st.chaptersDone, words: st.words, usage: { ...st.usage }, runs: st.run };
  };

  try {
    upsertSearchAttributes([
      { key: SA.ProjectId, value: input.projectId },
      { key: SA.JobStatus, value: st.status },
      { key: SA.Chapter, value: Math.min(st.next, input.to) },
    ]);
    // A pause signalled before the first workflow task was handled already (status pausing).
    const startStatus = st.pauseRequested ? 'pausing' : 'running';
    if (!input.carry) await setStatus(startStatus, `Job started: chapters ${input.from}–${input.to}.`);
    else if (input.carry.restarted) await setStatus(startStatus, `Job restarted at chapter ${st.next}.`, { failure: null });
    if (!st.outlineDone) {
      if ((await ensureOutline()) === 'cancelled') return await finish('cancelled');
      st.outlineDone = true;
      st.attempt = 1;
    }
    while (st.next <= input.to) {
      if ((await checkpoint()) === 'cancelled') break;
      if ((await withinBudget()) === 'cancelled') break;
      const step = await writeChapter(st.next);
      if (step === 'cancelled') break;
      if (step === 'failed') continue; // resumed: the same chapter again, with a fresh turn
      st.next += 1;
      st.attempt = 1;
      st.chaptersThisRun += 1;
      const due = st.chaptersThisRun >= input.settings.chaptersPerRun || workflowInfo().continueAsNewSuggested;
      if (st.next <= input.to && due) {
        await st.drain();
        return await continueAsNew<typeof jobWorkflow>({ ...input, carry: st.toCarry() });
      }
    }
    return await finish(st.cancelRequested ? 'cancelled' : 'completed');
  } catch (err) {
    // Cancelled from outside (Temporal UI / API cancel of the workflow itself): record and end.
    if (isCancellation(err)) {
      st.cancelRequested = true;
      return await finish('cancelled');
    }
    throw err;
  }
}
