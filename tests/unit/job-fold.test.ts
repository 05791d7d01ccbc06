/**
 * What Studio shows of a job, from its streams (studio/src/pages/job-fold.ts): the status is
 * the stream's newest word, so a job that ended never shows "running" because a record answer
 * came late; a chapter turn's words rise as its body streams, and a retried step's body is
 * dropped; the chapter being written is never at 100 % before it is written.
 */
import type { StreamEvent } from '../../src/core/events';
import {
  chapterPercent,
  chapterState,
  chapterWords,
  emptyChapterLive,
  emptyJobLive,
  foldChapter,
  foldJob,
  jobSpend,
  jobStatus,
  type JobRecord,
  phaseOf,
  writtenCount,
} from '../../studio/src/pages/job-fold';

let seq = 0;
const ev = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ type, data, seq: seq++, ts: '', ...extra }) as unknown as StreamEvent;
const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };
const progress = (kind: string, data: Record<string, unknown>) =>
  ev('job_progress', {
    chapter: 1,
    of: 3,
    from: 1,
    to: 3,
    chaptersDone: 0,
    status: 'running',
    words: 0,
    usage,
    kind,
    costUsd: 0.01,
    ...data,
  });
const record: JobRecord = {
  id: 'j',
  status: 'running',
  chapters: { from: 1, to: 3 },
  chaptersDone: [],
  chaptersSkipped: [],
  words: 0,
  review: true,
  maxTokens: null,
  createdAt: '',
};

test('the stream decides the status; only an ended record overrides it', () => {
  let live = foldJob(emptyJobLive(), [
    progress('status', { status: 'running' }),
    progress('turn', { turnId: 't1', turnKind: 'chapter', round: 0 }),
  ]);
  expect(jobStatus(record, live)).toBe('running');
  live = foldJob(live, [
    progress('chapter', { chaptersDone: 1, words: 400, costUsd: 0.02 }),
    progress('status', { status: 'completed', chaptersDone: 1, costUsd: 0.02 }),
    ev('done', { status: 'completed' }),
  ]);
  // A record fetched before the end still says running: the stream's "completed" stands.
  expect(jobStatus({ status: 'running' }, live)).toBe('completed');
  expect(live).toMatchObject({ ended: true, inFlight: null, written: [1], costUsd: 0.02 });
  // A job cancelled with no workflow left says so only in its record: the record wins once it has ended.
  expect(jobStatus({ status: 'cancelled' }, foldJob(emptyJobLive(), [progress('status', { status: 'running' })]))).toBe(
    'cancelled',
  );
  expect(jobStatus({ status: 'paused' }, emptyJobLive())).toBe('paused');
});

test('the chapter in flight, its phase, and what a cancel or a failure leaves', () => {
  let live = foldJob(emptyJobLive(), [
    progress('status', { status: 'running' }),
    progress('turn', { turnId: 'o', turnKind: 'outline', round: 0 }),
  ]);
  expect(phaseOf(live, null)).toBe('outline');
  live = foldJob(live, [progress('turn', { turnId: 't1', turnKind: 'chapter', round: 0 })]);
  expect(phaseOf(live, null)).toBe('writing');
  expect(phaseOf(live, { ...emptyChapterLive(), agent: 'quality_reviewer' })).toBe('reviewing');
  expect(chapterState(1, record, live, 'running', 'writing')).toBe('writing');
  live = foldJob(live, [progress('turn', { turnId: 't2', turnKind: 'revision', round: 1 })]);
  expect(phaseOf(live, null)).toBe('revising');
  // A stream older than turnKind: a second turn for a chapter is a revision.
  const old = foldJob(emptyJobLive(), [
    progress('turn', { turnId: 'a', kind: undefined }),
    progress('turn', { turnId: 'b', kind: undefined }),
  ]);
  expect(old.inFlight).toMatchObject({ turnId: 'b', round: 1 });
  // Pausing keeps the chapter writing; a failure stops it, and the failed chapter says so.
  expect(foldJob(live, [progress('status', { status: 'pausing' })]).inFlight?.turnId).toBe('t2');
  const failed = foldJob(live, [progress('status', { status: 'failed', chapter: 1 })]);
  expect(failed).toMatchObject({ inFlight: null, failedChapter: 1 });
  expect(chapterState(1, record, failed, 'failed', 'between')).toBe('failed');
  // Cancelled: nothing is being written, and chapters not written say so (not "waiting").
  const cancelled = foldJob(live, [progress('status', { status: 'cancelled' }), ev('done', { status: 'cancelled' })]);
  expect(cancelled.inFlight).toBeNull();
  expect(chapterState(2, record, cancelled, 'cancelled', 'between')).toBe('notWritten');
  // A chapter whose text was saved before the cancel is in the manuscript: written, as the board counts it.
  const withText = new Set([1]);
  expect(chapterState(1, record, cancelled, 'cancelled', 'between', withText)).toBe('done');
  expect(writtenCount(record, cancelled, 'cancelled', withText)).toBe(1);
  // While the job runs, the chapter in flight is being written whatever the manuscript holds; the failed one is not written.
  expect(chapterState(1, record, live, 'running', 'revising', withText)).toBe('revising');
  expect(chapterState(1, record, failed, 'failed', 'between', withText)).toBe('failed');
});

test('words of the chapter being written rise as its body streams; a retried step starts its body over', () => {
  let c = foldChapter(emptyChapterLive(), [
    ev('agent_selected', { agent: 'writer', reason: '', run: 1 }),
    ev('file_created', { fileId: 'f', title: 'Chapter 1', fileType: 'draft', words: 0 }),
  ]);
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    c = foldChapter(c, [
      ev('file_content', { fileId: 'f', delta: 'The tide came in at dusk and nobody spoke. ' }, { step: 1 }),
    ]);
    samples.push(chapterWords(c));
  }
  expect(samples).toEqual([9, 18, 27, 36, 45]);
  expect(chapterPercent('writing', 45, 90)).toBe(50);
  expect(chapterPercent('writing', 900, 90)).toBe(99);
  c = foldChapter(c, [
    ev('step_retry', { attempt: 2, message: '' }, { step: 1 }),
    ev('file_content', { fileId: 'f', delta: '潮水在黄昏时涌来。' }, { step: 1 }),
  ]);
  expect(chapterWords(c)).toBe(8);
  c = foldChapter(c, [
    ev('file_updated', {
      fileId: 'f',
      title: 'Chapter 1',
      fileType: 'draft',
      versionId: 'v',
      words: 412,
      operation: 'stream',
    }),
    ev('usage', { ...usage, source: 'provider', model: 'm', costUsd: 0.5 }),
  ]);
  expect(chapterWords(c)).toBe(412);
  expect(c).toMatchObject({ costUsd: 0.5, tokens: 15, fileEvents: 6 });
});

test("a job's spend is what it had spent when the chapter began plus the chapter's own stream, however late the page opened", () => {
  const step = (costUsd: number) =>
    ev('usage', { promptTokens: 100, completionTokens: 50, totalTokens: 150, costUsd }, { step: 1 });
  // Chapter 1 cost $0.02; chapter 2's turn begins there.
  let live = foldJob(emptyJobLive(), [
    progress('turn', { turnId: 't1', turnKind: 'chapter', costUsd: 0 }),
    progress('chapter', { chaptersDone: 1, costUsd: 0.02 }),
    progress('turn', { chapter: 2, turnId: 't2', turnKind: 'chapter', chaptersDone: 1, costUsd: 0.02 }),
  ]);
  const chapter = foldChapter(emptyChapterLive(), [step(0.004), step(0.003)]);
  // The page opened mid-chapter: the record already holds the chapter's first step, and a
  // status event said so too; neither is counted twice.
  const midRecord = { ...record, costUsd: 0.024, usage: { totalTokens: 165 } };
  live = foldJob(live, [progress('status', { chapter: 2, status: 'pausing', chaptersDone: 1, costUsd: 0.024 })]);
  const spend = jobSpend(midRecord, live, chapter);
  expect(spend.costUsd).toBeCloseTo(0.027, 9);
  expect(spend.tokens).toBe(15 + 300);
  // The list and the job view read the same figure; with no chapter followed, the newer figure.
  expect(jobSpend(midRecord, live, null).costUsd).toBeCloseTo(0.024, 9);
  expect(jobSpend({ ...record, costUsd: 0.03 }, live, null).costUsd).toBeCloseTo(0.03, 9);
  // A stream too old to say what the job had spent at the turn's start: the chapter is not added to a figure that may hold it.
  const old = foldJob(emptyJobLive(), [progress('turn', { turnId: 't9', turnKind: 'chapter', costUsd: undefined })]);
  expect(jobSpend(midRecord, old, chapter).costUsd).toBeCloseTo(0.024, 9);
});
