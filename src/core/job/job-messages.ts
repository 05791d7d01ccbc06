/**
 * core/job/: the pure side of jobs: the job workflow's signals, query and inputs
 * (job-messages.ts), its item on the task board (job-task.ts) and the author messages it
 * writes for its child turns (job-text.ts).
 */
/**
 * Signals, query and input types of the job workflow. Node-free: the API imports it to
 * start, signal and query jobs, the workflow to handle them, activities for their inputs
 * (samples-typescript `early-return/src/shared.ts`). Everything here travels through
 * Temporal history, so it is ids and counters only — never chapter text.
 */
import { type Usage, zeroUsage } from '../usage';
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { JobStatus } from '../domain';
import type { TurnSettings } from '../turn/turn-types';
import type { Language } from '../words/language';

/** Finish the chapter in flight, then wait. */
export const pauseJobSignal = defineSignal<[]>('pause');
/**
 * Continue a paused job, or retry the failed chapter of a failed one. A job paused by its
 * token budget needs a higher `maxTokens` (or null: no budget) to go on.
 */
export const resumeJobSignal = defineSignal<[ResumeJobArgs?]>('resume');
export interface ResumeJobArgs {
  /** New token budget (null lifts it); absent keeps the current one. */
  maxTokens?: number | null;
  /** New cost budget in USD (null lifts it); absent keeps the current one. */
  maxCostUsd?: number | null;
}
/** Stop the chapter in flight (the child turn ends `interrupted`); finished chapters stay. */
export const cancelJobSignal = defineSignal<[{ reason?: string }]>('cancel');
export const progressQuery = defineQuery<JobProgress>('progress');

/** Kept as a name for what jobs count: the one usage shape (core/usage.ts). */
export type TokenUsage = Usage;

export interface JobSettings {
  /** Settings of every child turn (review threshold is set per chapter by the job). */
  turn: TurnSettings;
  /** Continue-as-new after this many chapters (JOB_CHAPTERS_PER_RUN). */
  chaptersPerRun: number;
  /** Reviewer-requested revision rounds per chapter (JOB_MAX_REVISION_ROUNDS). */
  maxRevisionRounds: number;
}

/**
 * What one run carries into the next (continue-as-new) — or what the API hands a fresh run
 * when it restarts a job whose workflow is gone. Counters only.
 */
export interface JobCarry {
  /** Next chapter to write. */
  next: number;
  /** Attempt of `next`: part of its turn ids, so a retried chapter gets a fresh turn. */
  attempt: number;
  outlineDone: boolean;
  /** Last stream slot used on the job stream (publishing continues above it). */
  slot: number;
  chaptersDone: number;
  words: number;
  usage: TokenUsage;
  pauseRequested: boolean;
  cancelRequested: boolean;
  /** Which run of the job this is (1-based); for operators and the history-bound test. */
  run: number;
  /** Set by the API when it starts a new run for a job whose workflow was gone. */
  restarted?: boolean;
  /** The token budget now (a resume may have raised it); absent: the input's. */
  maxTokens?: number | null;
  /** The cost budget now (a resume may have raised it); absent: the input's. */
  maxCostUsd?: number | null;
  /** Chapters left as they were because they already had text (existing: skip). */
  skipped?: number;
  /** Revision rounds run so far (absent in runs carried before they were counted). */
  revisions?: number;
}

export interface JobInput {
  jobId: string;
  projectId: string;
  sessionId: string;
  ownerId: string;
  from: number;
  to: number;
  review: boolean;
  settings: JobSettings;
  carry?: JobCarry;
  /** Token budget of the whole job (POST /jobs maxTokens); absent or null: none. */
  maxTokens?: number | null;
  /** Cost budget of the whole job in USD, by the price table (POST /jobs maxCostUsd); absent or null: none. */
  maxCostUsd?: number | null;
  /** The author's language, for the job's messages (absent: English). */
  language?: Language;
  /** What to do with chapters that had text before the job (absent: skip). */
  existing?: ExistingChapters;
}

export interface JobResult {
  status: Extract<JobStatus, 'completed' | 'cancelled'>;
  chaptersDone: number;
  /** Chapters left as they were (they had text before the job). */
  chaptersSkipped: number;
  words: number;
  usage: TokenUsage;
  runs: number;
}

/** Answer of the `progress` query. */
export interface JobProgress {
  jobId: string;
  status: JobStatus;
  from: number;
  to: number;
  /** Chapter being written (or next to write). */
  chapter: number;
  chaptersDone: number;
  words: number;
  usage: TokenUsage;
  /** Turn of the chapter in flight, whose own stream shows its tokens. */
  turnId: string | null;
  pauseRequested: boolean;
  failure: string | null;
  run: number;
  /** Token budget (null: none). */
  maxTokens?: number | null;
}

/**
 * One moment of that progress as a `job_progress` event reports it (`chapter`: the one the
 * message is about); the event adds the range from the Job document.
 */
export type ProgressFacts = Pick<JobProgress, 'chapter' | 'chaptersDone' | 'words' | 'usage' | 'status'> & {
  turnId?: string;
  message?: string;
  /** A child turn that begins: what it is for, and its revision round. */
  turn?: { kind: JobTurnKind; round: number };
};

export { zeroUsage };

/** The carry of a job's very first run. */
export function initialCarry(from: number): JobCarry {
  return {
    next: from,
    attempt: 1,
    outlineDone: false,
    slot: 0,
    chaptersDone: 0,
    words: 0,
    usage: zeroUsage(),
    pauseRequested: false,
    cancelRequested: false,
    run: 1,
  };
}

/** Kinds of child turn a job starts; part of each turn's idempotency key. */
export type JobTurnKind = 'outline' | 'chapter' | 'revision';

/**
 * What a job does with a chapter of its range that already had body text before it started
 * (written in chat, or by the author): `skip` leaves it as it is (the default), `revise`
 * improves it in place, `rewrite` writes it anew — an author-written chapter only with the
 * author's approval, as in any turn.
 */
export const EXISTING_CHAPTER_MODES = ['skip', 'revise', 'rewrite'] as const;
export type ExistingChapters = (typeof EXISTING_CHAPTER_MODES)[number];

/** A child turn opened: its id, the message it was asked (the turn's input carries it), its message's sequence number. */
export interface OpenedJobTurn {
  turnId: string;
  message: string;
  openingSeq?: number;
}

/** Input of the activity that records a child turn's author message (ids only). */
export interface OpenJobTurnInput {
  jobId: string;
  kind: JobTurnKind;
  /** A revision of a chapter that existed before the job (no review to follow): `existing: revise`. */
  reviseExisting?: boolean;
  chapter: number;
  attempt: number;
  round: number;
  /** Revision rounds: the turn whose reviewer notes the writer works from. */
  reviewTurnId?: string;
  /**
   * Fail at once (`SessionBusy`, not retried) while another turn holds the session, instead
   * of waiting: the job's local try, which then waits as a regular activity (job-child.ts).
   */
  failWhenBusy?: boolean;
  /** The job's session and project (jobs since these fields): the activity takes the lock while it reads the job. */
  sessionId?: string;
  projectId?: string;
}
