/**
 * What Studio shows of a job, folded from what it can know: the job's stream (every status
 * change, each chapter's turn as it begins, each chapter written — in order, so the newest
 * word is the truth), the job's record (GET /jobs/:id, the start and the fallback when the
 * stream is gone), and the stream of the chapter turn in flight (its words as they are
 * written). Pure: no React, no fetching; the screens and the task board share it, and
 * tests/unit/job-fold.test.ts pins it.
 */
import type { StreamEvent } from '../events';
import { voidedByRetry } from '../../../src/core/step-retry';
import { countWords } from '../../../src/core/text';
import { isBodyFileType } from '../../../src/core/book/file-types';

type Ev<T extends StreamEvent['type']> = Extract<StreamEvent, { type: T }>;

/** Nothing more happens to a job in these. */
export const ENDED_JOB_STATUSES = ['completed', 'cancelled'];
/** The job waits for the author in these (no chapter is being written). */
const WAITING = ['paused', 'failed'];

/** A job's stream, folded. */
export interface JobLive {
  /** The status the stream last said (null: it said nothing yet). */
  status: string | null;
  /** The stream ended (`done`, or the server says nothing more will come). */
  ended: boolean;
  /** Chapters the stream reported written (with their turn), and left as they were. */
  written: number[];
  skipped: number[];
  /** The child turn in flight and the chapter it is about (the first chapter while the outline is planned). */
  inFlight: {
    chapter: number;
    turnId: string;
    round: number;
    turnKind: 'outline' | 'chapter' | 'revision' | null;
    /** What the job had spent when this turn began (its stream's figure then; null: not said). */
    spentBefore: { costUsd: number; tokens: number } | null;
  } | null;
  /** Turns begun per chapter: a second one is a revision round. */
  turnsPerChapter: Record<number, number>;
  failedChapter: number | null;
  chaptersDone: number;
  words: number;
  tokens: number;
  costUsd: number | null;
  unpricedCalls: number;
  /** The newest message of the job (in the job's language). */
  message: string | null;
  /** The chapter the newest event is about. */
  chapter: number | null;
  /** Events folded so far. */
  events: number;
}

export const emptyJobLive = (): JobLive => ({
  status: null,
  ended: false,
  written: [],
  skipped: [],
  inFlight: null,
  turnsPerChapter: {},
  failedChapter: null,
  chaptersDone: 0,
  words: 0,
  tokens: 0,
  costUsd: null,
  unpricedCalls: 0,
  message: null,
  chapter: null,
  events: 0,
});

const add = (list: number[], n: number): number[] => (list.includes(n) ? list : [...list, n].sort((a, b) => a - b));

/** What a job_progress event reports; streams older than `kind` are read from their fields. */
function kindOf(e: Ev<'job_progress'>, before: JobLive): NonNullable<Ev<'job_progress'>['data']['kind']> {
  if (e.data.kind) return e.data.kind;
  // A chapter written carries its turn and one more chapter done; a turn beginning, its turn only.
  if (e.data.chaptersDone > before.chaptersDone) return 'chapter';
  if (e.data.turnId) return 'turn';
  return e.data.status !== before.status ? 'status' : 'note';
}

/** Applies a batch of the job's stream events; a new object when anything changed. */
export function foldJob(state: JobLive, events: readonly StreamEvent[]): JobLive {
  let s = state;
  for (const e of events) {
    if (e.type === 'done') {
      s = { ...s, status: e.data.status, ended: true, inFlight: null, events: s.events + 1 };
      continue;
    }
    if (e.type !== 'job_progress') continue;
    const d = e.data;
    const kind = kindOf(e, s);
    const next: JobLive = {
      ...s,
      status: d.status,
      chaptersDone: d.chaptersDone,
      words: d.words,
      tokens: d.usage.totalTokens,
      costUsd: typeof d.costUsd === 'number' ? d.costUsd : s.costUsd,
      unpricedCalls: d.unpricedCalls ?? s.unpricedCalls,
      message: d.message ?? s.message,
      chapter: d.chapter,
      events: s.events + 1,
    };
    if (kind === 'turn' && d.turnId) {
      // Streams before `turnKind` told a revision only by a second turn for the same chapter.
      const seen = s.turnsPerChapter[d.chapter] ?? 0;
      if (d.turnKind !== 'outline') next.turnsPerChapter = { ...s.turnsPerChapter, [d.chapter]: seen + 1 };
      next.inFlight = {
        chapter: d.chapter,
        turnId: d.turnId,
        round: d.round ?? seen,
        turnKind: d.turnKind ?? null,
        spentBefore: typeof d.costUsd === 'number' ? { costUsd: d.costUsd, tokens: d.usage.totalTokens } : null,
      };
      if (s.failedChapter === d.chapter) next.failedChapter = null;
    } else if (kind === 'chapter') {
      next.written = add(s.written, d.chapter);
      if (s.inFlight?.chapter === d.chapter) next.inFlight = null;
      if (s.failedChapter === d.chapter) next.failedChapter = null;
    } else if (kind === 'skipped') next.skipped = add(s.skipped, d.chapter);
    if (d.status === 'failed') next.failedChapter = d.chapter;
    if ([...ENDED_JOB_STATUSES, ...WAITING].includes(d.status)) next.inFlight = null;
    s = next;
  }
  return s;
}

/** The job's record as the API answers it (the fields the screens read). */
export interface JobRecord {
  id: string;
  status: string;
  chapters: { from: number; to: number };
  chaptersDone: number[];
  chaptersSkipped: number[];
  failedChapter?: number | null;
  words: number;
  usage?: { totalTokens?: number };
  costUsd?: number;
  unpricedCalls?: number;
  review: boolean;
  wordsPerChapter?: number | null;
  maxTokens: number | null;
  maxCostUsd?: number | null;
  language?: string;
  createdAt: string;
  live?: { chapter?: number; turnId?: string | null } | null;
}

/** A chapter turn's stream, folded to what the job screen shows of it. */
export interface ChapterLive {
  /** The agent at work (writer, quality_reviewer, planner), null before the first. */
  agent: string | null;
  /** The body streamed into the file being written, per file; a retried step's body is dropped. */
  bodies: Record<string, { text: string; step?: number }>;
  /** The file being written (the newest one streamed or saved). */
  fileId: string | null;
  /** Words of each file as saved. */
  saved: Record<string, number>;
  tokens: number;
  costUsd: number;
  done: boolean;
  /** Events folded, and how many carried chapter text. */
  events: number;
  fileEvents: number;
}

export const emptyChapterLive = (): ChapterLive => ({
  agent: null,
  bodies: {},
  fileId: null,
  saved: {},
  tokens: 0,
  costUsd: 0,
  done: false,
  events: 0,
  fileEvents: 0,
});

export function foldChapter(state: ChapterLive, events: readonly StreamEvent[]): ChapterLive {
  if (!events.length) return state;
  const s: ChapterLive = {
    ...state,
    bodies: { ...state.bodies },
    saved: { ...state.saved },
    events: state.events + events.length,
  };
  for (const e of events) {
    switch (e.type) {
      case 'agent_selected':
        s.agent = e.data.agent;
        break;
      case 'file_content': {
        const body = s.bodies[e.data.fileId];
        s.bodies[e.data.fileId] = { text: (body?.text ?? '') + e.data.delta, step: e.step };
        s.fileId = e.data.fileId;
        s.fileEvents += 1;
        break;
      }
      case 'step_retry':
        // The step starts over: what the contract voids goes (the body it was streaming); its
        // saves and its usage stand, and the retry does not send them again.
        for (const [id, body] of Object.entries(s.bodies))
          if (voidedByRetry({ type: 'file_content', step: body.step }, e)) s.bodies[id] = { text: '', step: e.step };
        break;
      case 'file_created':
      case 'file_updated':
        if (isBodyFileType(e.data.fileType)) {
          s.saved[e.data.fileId] = e.data.words;
          s.fileId = e.data.fileId;
        }
        break;
      case 'usage':
        s.tokens += e.data.totalTokens;
        if (typeof e.data.costUsd === 'number') s.costUsd += e.data.costUsd;
        break;
      case 'done':
        s.done = true;
        break;
      default:
        break;
    }
  }
  return s;
}

/** Words of the chapter as it is being written: the streamed body, or the saved file when that says more. */
export function chapterWords(c: ChapterLive): number {
  if (!c.fileId) return 0;
  const streamed = c.bodies[c.fileId] ? countWords(c.bodies[c.fileId]!.text) : 0;
  return Math.max(streamed, c.saved[c.fileId] ?? 0);
}

/**
 * What a job has spent so far, the same on every screen. While the chapter turn in flight is
 * followed, the job's stream said when that turn began what everything before it cost, and
 * the chapter's own stream (replayed from its first event) says what the turn has cost since:
 * their sum is the job's spend, to the step. Other figures are read mid-chapter (the record of
 * a page opened then, a status change's event) and may already hold some of the chapter's
 * steps; adding the chapter to them would count those twice. With no chapter followed, the
 * newer of the stream's figure and the record's.
 */
export function jobSpend(
  record: Pick<JobRecord, 'costUsd' | 'usage'>,
  live: Pick<JobLive, 'costUsd' | 'tokens' | 'inFlight'>,
  chapter: Pick<ChapterLive, 'costUsd' | 'tokens'> | null,
): { costUsd: number; tokens: number } {
  const before = live.inFlight?.spentBefore;
  if (chapter && before) return { costUsd: before.costUsd + chapter.costUsd, tokens: before.tokens + chapter.tokens };
  return {
    costUsd: Math.max(live.costUsd ?? 0, record.costUsd ?? 0),
    tokens: Math.max(live.tokens, record.usage?.totalTokens ?? 0),
  };
}

export function jobStatus(record: Pick<JobRecord, 'status'> | null, live: JobLive): string {
  if (record && ENDED_JOB_STATUSES.includes(record.status)) return record.status;
  return live.status ?? record?.status ?? 'queued';
}

export type Phase = 'outline' | 'writing' | 'reviewing' | 'revising' | 'between';

/** What the job is doing right now, while it runs. */
export function phaseOf(live: JobLive, chapter: ChapterLive | null): Phase {
  const turn = live.inFlight;
  if (!turn) return 'between';
  if (turn.turnKind === 'outline' || chapter?.agent === 'planner') return 'outline';
  if (chapter?.agent === 'quality_reviewer') return 'reviewing';
  return turn.turnKind === 'revision' || (turn.turnKind === null && turn.round > 0) ? 'revising' : 'writing';
}

export type ChapterState =
  'done' | 'skipped' | 'failed' | 'writing' | 'reviewing' | 'revising' | 'pending' | 'notWritten';

/**
 * One chapter's state, from the record, the stream and the turn in flight. `withText` are the
 * chapters the manuscript has text for: once the job is not writing (ended, paused, stopped),
 * such a chapter counts as written whoever saved it — a chapter whose turn was cancelled after
 * its text was saved is in the manuscript, and says so — as the task board counts it. The
 * chapter a job stopped on may keep a cut-off part: it is not written.
 */
export function chapterState(
  n: number,
  record: JobRecord,
  live: JobLive,
  status: string,
  phase: Phase,
  withText: ReadonlySet<number> = new Set(),
): ChapterState {
  if (record.chaptersDone.includes(n) || live.written.includes(n)) return 'done';
  if (record.chaptersSkipped.includes(n) || live.skipped.includes(n)) return 'skipped';
  if (status === 'failed' && (live.failedChapter ?? record.failedChapter) === n) return 'failed';
  const ended = ENDED_JOB_STATUSES.includes(status);
  const running = !ended && !WAITING.includes(status);
  if (running && live.inFlight?.chapter === n && phase !== 'outline' && phase !== 'between') return phase;
  if (!running && withText.has(n)) return 'done';
  return ended ? 'notWritten' : 'pending';
}

/** How many chapters of the job's range are written, as its chapter rows count them. */
export function writtenCount(
  record: JobRecord,
  live: JobLive,
  status: string,
  withText: ReadonlySet<number> = new Set(),
): number {
  let n = 0;
  for (let c = record.chapters.from; c <= record.chapters.to; c++)
    if (chapterState(c, record, live, status, 'between', withText) === 'done') n++;
  return n;
}

/** The length a chapter is measured against: the job's target, else the chapters it wrote, else a usual chapter. */
export function chapterTarget(record: JobRecord, doneWords: number[]): number {
  if (record.wordsPerChapter) return record.wordsPerChapter;
  const written = doneWords.filter((w) => w > 0);
  return written.length ? Math.round(written.reduce((a, b) => a + b, 0) / written.length) : 1000;
}

/** How far a chapter is, in percent: a chapter being written never shows 100 until it is. */
export function chapterPercent(state: ChapterState, words: number, target: number): number {
  if (state === 'done' || state === 'skipped') return 100;
  if (state === 'writing' || state === 'reviewing' || state === 'revising')
    return Math.min(99, Math.round((words / Math.max(1, target)) * 100));
  return 0;
}
