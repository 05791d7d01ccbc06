/**
 * The state of one job run, and the one place it changes: the job's steps and its signal
 * handlers say what happened as a {@link JobChange}, and `apply` takes it in; they read the
 * state through its getters and never assign to it. It is rebuilt by replay, so it only
 * changes in response to activity and child results, signals and workflow code; what must
 * outlive the run is exactly {@link JobCarry} (counters and flags, no text).
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

/**
 * What happened in a job run, said where it happened (job.ts, job-steps.ts, job-child.ts);
 * {@link JobRunState.apply} takes it in, at that same point between the same calls.
 */
export type JobChange =
  // Messages from outside (job.ts).
  /** `pause`: the chapter in flight finishes, then the job waits. */
  | { type: 'pauseAsked' }
  /** `resume`: a pause is withdrawn, a waiting job wakes; a budget it names (null: lifted) replaces the job's. */
  | { type: 'resumeAsked'; maxTokens?: number | null; maxCostUsd?: number | null }
  /** `cancel` (the signal or a Temporal cancellation), or a cancellation met while waiting. */
  | { type: 'cancelAsked' }

  // The run's steps (job.ts, job-steps.ts).
  /** The job's status changed (its search attribute and record follow in job-steps.ts). */
  | { type: 'statusSet'; status: JobStatus }
  /** The chapters of the range that had text before the job, read at the run's start. */
  | { type: 'existingRead'; chapters: number[] }
  /** The outline covers the range: the first chapter comes next, at its first attempt. */
  | { type: 'outlineDone' }
  /** Paused at the budget: a resume from now on wakes the job. */
  | { type: 'awaitingResume' }
  /** The chapter (or the outline) failed: the job waits in the failed state for a resume. */
  | { type: 'failed'; message: string }
  /** Resumed from the failed state: the same chapter again, a new attempt. */
  | { type: 'retrying' }
  /** A chapter that had text is left as it was. */
  | { type: 'chapterSkipped' }
  /** The review asked for a revision round. */
  | { type: 'revisionStarted' }
  /** The chapter's turns are over: none is in flight. */
  | { type: 'chapterTurnsOver' }
  /** finishChapter found the draft: the job's totals after it. */
  | { type: 'chapterFinished'; words: number; chaptersDone: number }
  /** The chapter in hand is behind the job (`written` by this run, or skipped): the next is in hand, first attempt. */
  | { type: 'chapterPassed'; written: boolean }
  /** A child turn ended with this usage. */
  | { type: 'usageAdded'; usage: Usage }

  // The chapter's child turn (job-child.ts).
  /** The child's cancellation scope, while it runs: `cancel` cancels it. */
  | { type: 'childStarted'; scope: CancellationScope }
  | { type: 'childEnded' }
  /** The turn of the chapter in flight, once opened. */
  | { type: 'turnOpened'; turnId: string };

export class JobRunState {
  #status: JobStatus = 'running';
  #next: number;
  #attempt: number;
  #outlineDone: boolean;
  #chaptersDone: number;
  #words: number;
  #usage: TokenUsage;
  #pauseRequested: boolean;
  #cancelRequested: boolean;
  /** Set by `resume`; wakes a job waiting in the failed state. */
  #resumeRequested = false;
  readonly run: number;
  #failure: string | null = null;
  /** Turn of the chapter in flight. */
  #turnId: string | null = null;
  /** Scope of the child turn in flight: `cancel` cancels it. */
  #childScope: CancellationScope | null = null;
  #chaptersThisRun = 0;
  /** Revision rounds run (the job's closing summary counts them). */
  #revisions: number;
  /** Chapters left as they were (existing: skip). */
  #skipped: number;
  /** Chapters of the range that had text before the job (read at each run's start). */
  #existing = new Set<number>();
  /** Token budget of the whole job (null: none); a resume may raise or lift it. */
  #maxTokens: number | null;
  #maxCostUsd: number | null;
  #slot: number;
  #chain: Promise<unknown> = Promise.resolve();

  /** The job's messages in the author's language. */
  readonly wording: ReturnType<typeof jobWords>;

  constructor(readonly input: JobInput) {
    this.wording = jobWords(input.language ?? 'en');
    const c = input.carry ?? initialCarry(input.from);
    this.#next = c.next;
    this.#attempt = c.attempt;
    this.#outlineDone = c.outlineDone;
    this.#slot = c.slot;
    this.#chaptersDone = c.chaptersDone;
    this.#words = c.words;
    this.#usage = { ...c.usage };
    this.#pauseRequested = c.pauseRequested;
    this.#cancelRequested = c.cancelRequested;
    this.run = c.run;
    this.#revisions = c.revisions ?? 0;
    this.#skipped = c.skipped ?? 0;
    this.#maxTokens = c.maxTokens !== undefined ? c.maxTokens : (input.maxTokens ?? null);
    this.#maxCostUsd = c.maxCostUsd !== undefined ? c.maxCostUsd : (input.maxCostUsd ?? null);
    // A pause asked for just before continue-as-new is still being honoured.
    if (c.pauseRequested) this.#status = 'pausing';
  }

  // The read-only view: what the steps and handlers read.
  get status(): JobStatus {
    return this.#status;
  }
  /** The chapter in hand. */
  get next(): number {
    return this.#next;
  }
  get attempt(): number {
    return this.#attempt;
  }
  get outlineDone(): boolean {
    return this.#outlineDone;
  }
  get chaptersDone(): number {
    return this.#chaptersDone;
  }
  get words(): number {
    return this.#words;
  }
  get usage(): Readonly<TokenUsage> {
    return this.#usage;
  }
  get pauseRequested(): boolean {
    return this.#pauseRequested;
  }
  get cancelRequested(): boolean {
    return this.#cancelRequested;
  }
  get resumeRequested(): boolean {
    return this.#resumeRequested;
  }
  get childScope(): CancellationScope | null {
    return this.#childScope;
  }
  get chaptersThisRun(): number {
    return this.#chaptersThisRun;
  }
  get revisions(): number {
    return this.#revisions;
  }
  get skipped(): number {
    return this.#skipped;
  }
  get existing(): ReadonlySet<number> {
    return this.#existing;
  }
  get maxTokens(): number | null {
    return this.#maxTokens;
  }
  get maxCostUsd(): number | null {
    return this.#maxCostUsd;
  }

  /** The one place the job's state changes (besides the publishing queue's slot, see {@link serial}). */
  apply(change: JobChange): void {
    switch (change.type) {
      case 'pauseAsked':
        this.#pauseRequested = true;
        return;
      case 'resumeAsked':
        if (change.maxTokens !== undefined) this.#maxTokens = change.maxTokens;
        if (change.maxCostUsd !== undefined) this.#maxCostUsd = change.maxCostUsd;
        this.#pauseRequested = false;
        this.#resumeRequested = true;
        return;
      case 'cancelAsked':
        this.#cancelRequested = true;
        return;
      case 'statusSet':
        this.#status = change.status;
        return;
      case 'existingRead':
        this.#existing = new Set(change.chapters);
        return;
      case 'outlineDone':
        this.#outlineDone = true;
        this.#attempt = 1;
        return;
      case 'awaitingResume':
        this.#resumeRequested = false;
        return;
      case 'failed':
        this.#failure = change.message;
        this.#resumeRequested = false;
        return;
      case 'retrying':
        this.#failure = null;
        this.#attempt += 1;
        return;
      case 'chapterSkipped':
        this.#skipped += 1;
        return;
      case 'revisionStarted':
        this.#revisions += 1;
        return;
      case 'chapterTurnsOver':
        this.#turnId = null;
        return;
      case 'chapterFinished':
        this.#words = change.words;
        this.#chaptersDone = change.chaptersDone;
        return;
      case 'chapterPassed':
        this.#next += 1;
        this.#attempt = 1;
        if (change.written) this.#chaptersThisRun += 1;
        return;
      case 'usageAdded':
        this.#usage = addUsage(this.#usage, change.usage);
        return;
      case 'childStarted':
        this.#childScope = change.scope;
        return;
      case 'childEnded':
        this.#childScope = null;
        return;
      case 'turnOpened':
        this.#turnId = change.turnId;
        return;
      default:
        return unknownChange(change);
    }
  }

  /** What this job does with a chapter that had text before it: write it, skip it, or revise it. */
  treatmentOf(chapter: number): 'write' | 'skip' | 'revise' {
    if (!this.#existing.has(chapter)) return 'write';
    const mode = this.input.existing ?? 'skip';
    return mode === 'rewrite' ? 'write' : mode;
  }

  /**
   * Runs publishing activities one at a time, each with the next stream slot. Redis refuses
   * an id below the stream's top, so two publishers racing (a signal handler's status event
   * and the main loop's progress event) could lose an event; serialising them — and taking
   * the slot when the call starts, not when it is queued — keeps ids in execution order.
   * Non-cancellable: recording that a job was cancelled must survive the cancellation.
   */
  serial<T>(fn: (slot: number) => Promise<T>): Promise<T> {
    const p = this.#chain.then(() => CancellationScope.nonCancellable(() => fn(++this.#slot)));
    this.#chain = p.catch(() => undefined);
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
    await this.#chain;
  }

  /** The job_progress facts of this moment (`chapter`: the one the message is about). */
  progress(message: string, chapter = this.#next, turnId?: string): ProgressFacts {
    return {
      chapter: Math.min(chapter, this.input.to),
      chaptersDone: this.#chaptersDone,
      words: this.#words,
      usage: { ...this.#usage },
      status: this.#status,
      ...(turnId ? { turnId } : {}),
      message,
    };
  }

  toCarry(): JobCarry {
    return {
      next: this.#next,
      attempt: this.#attempt,
      outlineDone: this.#outlineDone,
      slot: this.#slot,
      chaptersDone: this.#chaptersDone,
      revisions: this.#revisions,
      skipped: this.#skipped,
      words: this.#words,
      usage: { ...this.#usage },
      pauseRequested: this.#pauseRequested,
      cancelRequested: this.#cancelRequested,
      run: this.run + 1,
      // Only jobs with a budget carry one (a lifted budget carries its null).
      ...(this.#maxTokens !== null || (this.input.maxTokens ?? null) !== null ? { maxTokens: this.#maxTokens } : {}),
      ...(this.#maxCostUsd !== null || (this.input.maxCostUsd ?? null) !== null
        ? { maxCostUsd: this.#maxCostUsd }
        : {}),
    };
  }

  /**
   * Tokens the next chapter will probably use: the job's average so far (the outline's
   * tokens included, so it errs high). Before the first chapter nothing is known: 0.
   */
  nextChapterEstimate(): number {
    return this.#chaptersDone > 0 ? Math.ceil(this.#usage.totalTokens / this.#chaptersDone) : 0;
  }

  snapshot(): JobProgress {
    return {
      jobId: this.input.jobId,
      status: this.#status,
      from: this.input.from,
      to: this.input.to,
      chapter: Math.min(this.#next, this.input.to),
      chaptersDone: this.#chaptersDone,
      words: this.#words,
      usage: { ...this.#usage },
      turnId: this.#turnId,
      pauseRequested: this.#pauseRequested,
      failure: this.#failure,
      run: this.run,
      ...(this.#maxTokens !== null ? { maxTokens: this.#maxTokens } : {}),
    };
  }
}

/** A change of a type `apply` does not know: a bug, not data. */
function unknownChange(change: never): never {
  throw new Error(`unknown job change ${JSON.stringify(change)}`);
}
