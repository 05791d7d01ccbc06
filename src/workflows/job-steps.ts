/**
 * The steps a job is made of: status changes, the pause point between chapters,
 * the token budget, the resumable failed state, the outline, and one chapter with its
 * review and revision rounds. `job.ts` strings them together; each step answers whether
 * the job goes on (`ok`) or was cancelled meanwhile.
 */
import { condition, upsertSearchAttributes } from '@temporalio/workflow';
import type { JobFailureReason } from '../core/author-words';
import type { JobStatus } from '../core/domain';
import type { JobResult } from '../core/job/job-messages';
import { SA } from '../core/turn/messages';
import {
  type ChildRequest,
  type ChildResult,
  type JobActivities,
  plannerRouting,
  runChildTurn,
  writerRouting,
} from './job-child';
import type { JobRunState } from './job-state';
import { REVIEW_GATE_OFF } from './decide';

export type Step = 'ok' | 'cancelled';

/** `summary`: the job stopped here (ended, failed, paused at its budget): its session gets a closing message. */
type StatusExtra = {
  failure?: { chapter: number | null; message: string; reason?: JobFailureReason } | null;
  done?: boolean;
  summary?: boolean;
};

export class JobSteps {
  constructor(
    private readonly st: JobRunState,
    private readonly acts: JobActivities,
  ) {}

  private get input() {
    return this.st.input;
  }

  /**
   * A status change: the search attribute now, then (queued, see JobRunState.serial) the Job
   * document and a job_progress event. Facts are taken now, not when the queued call runs.
   */
  statusCall(status: JobStatus, message: string, extra: StatusExtra = {}): (slot: number) => Promise<void> {
    const { st } = this;
    st.apply({ type: 'statusSet', status });
    upsertSearchAttributes([{ key: SA.JobStatus, value: status }]);
    const { summary, ...rest } = extra;
    const facts = {
      status,
      usage: { ...st.usage },
      progress: st.progress(message),
      ...rest,
      ...(summary ? { summary: { revisions: st.revisions, next: st.next } } : {}),
    };
    return (slot) =>
      this.acts.recordJob.executeWithOptions({ summary: `status ${status}` }, [
        { jobId: this.input.jobId, slot, ...facts },
      ]);
  }

  setStatus(status: JobStatus, message: string, extra: StatusExtra = {}): Promise<void> {
    return this.st.serial(this.statusCall(status, message, extra));
  }

  /** Pause point between chapters. */
  async checkpoint(): Promise<Step> {
    const { st } = this;
    if (st.cancelRequested) return 'cancelled';
    if (!st.pauseRequested) return 'ok';
    await this.setStatus('paused', st.wording.paused(st.next));
    await condition(() => !st.pauseRequested || st.cancelRequested);
    if (st.cancelRequested) return 'cancelled';
    await this.setStatus('running', st.wording.resumed(st.next));
    return 'ok';
  }

  /**
   * Token and cost budgets, checked before each chapter: when the chapter would take the job
   * past `maxTokens` or `maxCostUsd` (what is used plus the average chapter so far), the job
   * pauses — resumable, with a job_progress saying why — until a resume raises or lifts the
   * budget, or a cancel. The cost so far is read from the job's usage records.
   */
  async withinBudget(): Promise<Step> {
    const { st } = this;
    if (st.maxTokens === null && st.maxCostUsd === null) return 'ok';
    let paused: 'tokens' | 'cost' | null = null;
    for (;;) {
      if (st.cancelRequested) return 'cancelled';
      const over = await this.overBudget();
      if (!over) break;
      st.apply({ type: 'awaitingResume' });
      await this.setStatus('paused', over.message, { summary: true });
      paused = over.kind;
      await condition(() => st.resumeRequested || st.cancelRequested);
    }
    if (paused === 'tokens') await this.setStatus('running', st.wording.budgetResumed(st.next, st.maxTokens));
    if (paused === 'cost') await this.setStatus('running', st.wording.costBudgetResumed(st.next, st.maxCostUsd));
    return 'ok';
  }

  /** Which budget the next chapter would cross, with the message that says so; null when neither. */
  private async overBudget(): Promise<{ kind: 'tokens' | 'cost'; message: string } | null> {
    const { st } = this;
    const done = st.chaptersDone;
    if (st.maxTokens !== null) {
      const used = st.usage.totalTokens;
      const estimate = st.nextChapterEstimate();
      if (used >= st.maxTokens || used + estimate > st.maxTokens)
        return { kind: 'tokens', message: st.wording.budgetPaused(st.next, st.maxTokens, used, estimate) };
    }
    if (st.maxCostUsd !== null) {
      const { costUsd } = await this.acts.jobCost({ jobId: this.input.jobId });
      // The budget as it stands now: a resume may have raised or lifted it during the read.
      const max = st.maxCostUsd;
      if (max === null) return null;
      const estimate = done > 0 ? costUsd / done : 0;
      if (costUsd >= max || costUsd + estimate > max)
        return { kind: 'cost', message: st.wording.costBudgetPaused(st.next, max, costUsd, estimate) };
    }
    return null;
  }

  /**
   * Stops in the resumable failed state until `resume` (retry) or `cancel`. The author reads
   * why in words (the job_progress message, the closing summary); `problem.message`, with its
   * turn id and stop code, is for operators (the Job's `failure`, the query, the `error` event).
   */
  async failAndWait(chapter: number | null, problem: Problem): Promise<Step> {
    const { st } = this;
    const { message, reason } = problem;
    // The resume flag is cleared before the status goes out: a client may resume as soon as it sees `failed`.
    st.apply({ type: 'failed', message });
    await this.setStatus('failed', st.wording.failed(chapter, reason), {
      failure: { chapter, message, reason },
      summary: true,
    });
    await condition(() => st.resumeRequested || st.cancelRequested);
    if (st.cancelRequested) return 'cancelled';
    st.apply({ type: 'retrying' });
    await this.setStatus('running', st.wording.retrying(chapter), { failure: null });
    return 'ok';
  }

  /** Makes sure the outline covers the job's range: a planner turn when it does not. */
  async ensureOutline(): Promise<Step> {
    const { st, acts, input } = this;
    const { jobId } = input;
    for (;;) {
      const before = await acts.jobOutlineStatus({ jobId });
      if (before.covered) return 'ok';
      const r = await this.child(
        {
          open: { jobId, kind: 'outline', chapter: input.from, attempt: st.attempt, round: 0 },
          routing: plannerRouting(`outline for chapters ${input.from}–${input.to}`),
          reviewWordThreshold: REVIEW_GATE_OFF,
          summary: `job ${jobId} · outline ${input.from}–${input.to}`,
        },
        st.wording.planning(before.missing, before.missingText),
      );
      if (r.kind === 'cancelled' || st.cancelRequested) return 'cancelled';
      const why = problem(r, 'outline');
      if (why) {
        if ((await this.failAndWait(null, why)) === 'cancelled') return 'cancelled';
        continue;
      }
      const after = await acts.jobOutlineStatus({ jobId });
      // A partial outline does not stop the job: each uncovered chapter is told to continue the story.
      if (!after.covered)
        await st.serial((slot) =>
          acts.recordJob({
            jobId,
            slot,
            progress: st.progress(st.wording.outlineStillMissing(after.missing, after.missingText)),
          }),
        );
      return 'ok';
    }
  }

  /** Reads which chapters of the range had text before the job (the same answer at every run). */
  async readExisting(): Promise<void> {
    const chapters = await this.acts.existingChapters({ jobId: this.input.jobId });
    this.st.apply({ type: 'existingRead', chapters });
  }

  /** A chapter that already had text, left as it is (existing: skip) and reported so. */
  async skipChapter(n: number): Promise<void> {
    const { st } = this;
    st.apply({ type: 'chapterSkipped' });
    await st.serial((slot) =>
      this.acts.recordJob({
        jobId: this.input.jobId,
        slot,
        skippedChapter: n,
        progress: st.progress(st.wording.skipped(n), n),
      }),
    );
  }

  /**
   * One chapter: write it (or, with `revise`, improve the text it had before the job), review
   * and revise (bounded), then verify the draft exists.
   */
  async writeChapter(n: number, how: 'write' | 'revise' = 'write'): Promise<Step | 'failed'> {
    const { st, acts, input } = this;
    const { jobId } = input;
    upsertSearchAttributes([{ key: SA.Chapter, value: n }]);
    const threshold = input.review ? 1 : REVIEW_GATE_OFF;
    const turnIds: string[] = [];
    const first =
      how === 'revise'
        ? {
            open: { jobId, kind: 'revision' as const, chapter: n, attempt: st.attempt, round: 0, reviseExisting: true },
            routing: writerRouting(`revise Chapter ${n} only`),
            summary: `job ${jobId} · chapter ${n} · revise existing`,
          }
        : {
            open: { jobId, kind: 'chapter' as const, chapter: n, attempt: st.attempt, round: 0 },
            routing: writerRouting(`Chapter ${n} only`),
            summary: `job ${jobId} · chapter ${n}`,
          };
    let r = await this.child(
      { ...first, reviewWordThreshold: threshold },
      how === 'revise' ? st.wording.revisingExisting(n) : st.wording.writing(n),
    );
    for (let round = 1; ; round++) {
      if (r.kind === 'cancelled' || st.cancelRequested) return 'cancelled';
      const why = problem(r, `chapter ${n}`);
      if (why) return (await this.failAndWait(n, why)) === 'cancelled' ? 'cancelled' : 'failed';
      if (r.kind !== 'ended') return 'failed';
      turnIds.push(r.turnId);
      if (!input.review || round > input.settings.maxRevisionRounds) break;
      const { verdict } = await acts.reviewVerdict.executeWithOptions({ summary: `review verdict · chapter ${n}` }, [
        { turnId: r.turnId },
      ]);
      if (verdict !== 'revise') break;
      st.apply({ type: 'revisionStarted' });
      r = await this.child(
        {
          open: { jobId, kind: 'revision', chapter: n, attempt: st.attempt, round, reviewTurnId: r.turnId },
          routing: writerRouting(`revise Chapter ${n} only`),
          reviewWordThreshold: threshold,
          summary: `job ${jobId} · chapter ${n} · revision ${round}`,
        },
        st.wording.revising(n, round),
      );
    }
    st.apply({ type: 'chapterTurnsOver' });
    const fin = await st.serial((slot) =>
      acts.finishChapter.executeWithOptions({ summary: `finish chapter ${n}` }, [
        { jobId, chapter: n, turnIds, slot, status: st.status, usage: { ...st.usage }, projectId: input.projectId },
      ]),
    );
    if (!fin.done)
      return (await this.failAndWait(n, { message: `chapter ${n}: ${fin.reason}`, reason: 'no_draft' })) === 'cancelled'
        ? 'cancelled'
        : 'failed';
    st.apply({ type: 'chapterFinished', words: fin.totalWords, chaptersDone: fin.chaptersDone });
    return 'ok';
  }

  async finish(status: 'completed' | 'cancelled'): Promise<JobResult> {
    const { st } = this;
    const message =
      status === 'completed' ? st.wording.completed(st.chaptersDone) : st.wording.cancelled(st.chaptersDone);
    await this.setStatus(status, message, { done: true, summary: true });
    return {
      status,
      chaptersDone: st.chaptersDone,
      chaptersSkipped: st.skipped,
      words: st.words,
      usage: { ...st.usage },
      runs: st.run,
    };
  }

  /** A child turn, announced in a job_progress event while it runs. */
  private async child(req: Omit<ChildRequest, 'onTurn'>, announce: string): Promise<ChildResult> {
    const { st, acts } = this;
    const r = await runChildTurn(st, acts, {
      ...req,
      // Not awaited: the chapter's turn runs while its announcement is written.
      onTurn: (turnId) => {
        const facts = {
          ...st.progress(announce, req.open.chapter, turnId),
          turn: { kind: req.open.kind, round: req.open.round },
        };
        st.background((slot) => acts.recordJob({ jobId: this.input.jobId, slot, progress: facts }));
      },
    });
    if (r.kind === 'ended') st.apply({ type: 'usageAdded', usage: r.outcome.usage });
    return r;
  }
}

/** Why a chapter (or the outline) does not count: for operators (`message`) and for the author (`reason`). */
export interface Problem {
  message: string;
  reason: JobFailureReason;
}

/** Why a finished child turn does not count, or null when it does. */
function problem(r: ChildResult, what: string): Problem | null {
  if (r.kind === 'failed') return { message: `${what} failed: ${r.message}`, reason: 'error' };
  if (r.kind === 'cancelled') return null;
  if (r.outcome.status === 'failed')
    return {
      message: `${what}: turn ${r.turnId} failed${r.outcome.stopReason ? ` (${r.outcome.stopReason})` : ''}`,
      reason: 'turn_failed',
    };
  if (r.outcome.status === 'interrupted')
    return { message: `${what}: turn ${r.turnId} was interrupted`, reason: 'interrupted' };
  // Cut off at the model's output limit: part of the chapter is saved, and it is not written.
  if (r.outcome.stopReason === 'output_truncated')
    return {
      message: `${what}: turn ${r.turnId} was cut off at the model's output limit (output_truncated)`,
      reason: 'cut_off',
    };
  return null;
}
