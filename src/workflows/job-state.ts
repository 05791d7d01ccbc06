/**
 * Mutable state of one job run. It is rebuilt by replay, so it only changes in response
 * to activity and child results, signals and workflow code; what must outlive the run is
 * exactly {@link JobCarry} (counters and flags, no text).
 */
import { addUsage, type Usage } from '../core/usage';
import { CancellationScope, log } from '@temporalio/workflow';
import type { JobStatus } from '../core/domain';
import { jobWords } from '../core/author-words';
import {
  initialCarry,
  type JobCarry,
  type JobInput,
  type JobProgress,
  type ProgressFacts,
  type TokenUsage,
} from '../core/job/job-messages';

export class JobRunState {
  status: JobStatus = 'running';
  next: number;
  attempt: number;
  outlineDone: boolean;
  chaptersDone: number;
  words: number;
  usage: TokenUsage;
  pauseRequested: boolean;
  cancelRequested: boolean;
  /** Set by `resume`; wakes a job waiting in the failed state. */
  resumeRequested = false;
  readonly run: number;
  failure: string | null = null;
  /** Turn of the chapter in flight. */
  turnId: string | null = null;
  /** Scope of the child turn in flight: `cancel` cancels it. */
  childScope: CancellationScope | null = null;
  chaptersThisRun = 0;
  /** Revision rounds run (the job's closing summary counts them). */
  revisions: number;
  /** Chapters left as they were (existing: skip). */
  skipped: number;
  /** Chapters of the range that had text before the job (read at each run's start). */
  existing = new Set<number>();
  /** Token budget of the whole job (null: none); a resume may raise or lift it. */
  maxTokens: number | null;
  maxCostUsd: number | null;
  private slot: number;
  private chain: Promise<unknown> = Promise.resolve();

  /** What this job does with a chapter that had text before it: write it, skip it, or revise it. */
  treatmentOf(chapter: number): 'write' | 'skip' | 'revise' {
    if (!this.existing.has(chapter)) return 'write';
    const mode = this.input.existing ?? 'skip';
    return mode === 'rewrite' ? 'write' : mode;
  }

  /** The job's messages in the author's language. */
  readonly wording: ReturnType<typeof jobWords>;

  constructor(readonly input: JobInput) {
    this.wording = jobWords(input.language ?? 'en');
    const c = input.carry ?? initialCarry(input.from);
    this.next = c.next;
    this.attempt = c.attempt;
    this.outlineDone = c.outlineDone;
    this.slot = c.slot;
    this.chaptersDone = c.chaptersDone;
    this.words = c.words;
    this.usage = { ...c.usage };
    this.pauseRequested = c.pauseRequested;
    this.cancelRequested = c.cancelRequested;
    this.run = c.run;
    this.revisions = c.revisions ?? 0;
    this.skipped = c.skipped ?? 0;
    this.maxTokens = c.maxTokens !== undefined ? c.maxTokens : (input.maxTokens ?? null);
    this.maxCostUsd = c.maxCostUsd !== undefined ? c.maxCostUsd : (input.maxCostUsd ?? null);
    // A pause asked for just before continue-as-new is still being honoured.
    if (c.pauseRequested) this.status = 'pausing';
  }

  /**
   * Runs publishing activities one at a time, each with the next stream slot. Redis refuses
   * an id below the stream's top, so two publishers racing (a signal handler's status event
   * and the main loop's progress event) could lose an event; serialising them — and taking
   * the slot when the call starts, not when it is queued — keeps ids in execution order.
   * Non-cancellable: recording that a job was cancelled must survive the cancellation.
   */
  serial<T>(fn: (slot: number) => Promise<T>): Promise<T> {
    const p = this.chain.then(() => CancellationScope.nonCancellable(() => fn(++this.slot)));
    this.chain = p.catch(() => undefined);
    return p;
  }

  /** Fire-and-forget {@link serial}: for signal handlers and announcements nobody waits on. */
  background(fn: (slot: number) => Promise<unknown>): void {
    this.serial(fn).catch((err: Error) =>
      log.warn('job bookkeeping failed', { jobId: this.input.jobId, error: err.message }),
    );
  }

  /** Resolves when every queued publishing call has finished (before continue-as-new). */
  async drain(): Promise<void> {
    await this.chain;
  }

  /** The job_progress facts of this moment (`chapter`: the one the message is about). */
  progress(message: string, chapter = this.next, turnId?: string): ProgressFacts {
    return {
      chapter: Math.min(chapter, this.input.to),
      chaptersDone: this.chaptersDone,
      words: this.words,
      usage: { ...this.usage },
      status: this.status,
      ...(turnId ? { turnId } : {}),
      message,
    };
  }

  addUsage(u: Usage): void {
    this.usage = addUsage(this.usage, u);
  }

  toCarry(): JobCarry {
    return {
      next: this.next,
      attempt: this.attempt,
      outlineDone: this.outlineDone,
      slot: this.slot,
      chaptersDone: this.chaptersDone,
      revisions: this.revisions,
      skipped: this.skipped,
      words: this.words,
      usage: { ...this.usage },
      pauseRequested: this.pauseRequested,
      cancelRequested: this.cancelRequested,
      run: this.run + 1,
      // Only jobs with a budget carry one (a lifted budget carries its null).
      ...(this.maxTokens !== null || (this.input.maxTokens ?? null) !== null ? { maxTokens: this.maxTokens } : {}),
      ...(this.maxCostUsd !== null || (this.input.maxCostUsd ?? null) !== null ? { maxCostUsd: this.maxCostUsd } : {}),
    };
  }

  /**
   * Tokens the next chapter will probably use: the job's average so far (the outline's
   * tokens included, so it errs high). Before the first chapter nothing is known: 0.
   */
  nextChapterEstimate(): number {
    return this.chaptersDone > 0 ? Math.ceil(this.usage.totalTokens / this.chaptersDone) : 0;
  }

  snapshot(): JobProgress {
    return {
      jobId: this.input.jobId,
      status: this.status,
      from: this.input.from,
      to: this.input.to,
      chapter: Math.min(this.next, this.input.to),
      chaptersDone: this.chaptersDone,
      words: this.words,
      usage: { ...this.usage },
      turnId: this.turnId,
      pauseRequested: this.pauseRequested,
      failure: this.failure,
      run: this.run,
      ...(this.maxTokens !== null ? { maxTokens: this.maxTokens } : {}),
    };
  }
}
