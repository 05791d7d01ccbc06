/**
 * Failure policy and review rounds. A chapter whose turn fails after its retries stops the
 * job in a resumable `failed` state — never a silent skip; `resume` retries that chapter,
 * by signal while the workflow waits, or with a fresh run when the workflow is gone.
 * With `review` on, the reviewer's verdict drives bounded revision rounds.
 */
import { api, createHarness, createProjectAndSession, type Harness } from '../helpers/harness';
import type { ScriptEntry } from '../../src/offline-model';
import { chapterSnapshot, jobEvents, progressOf, startJob, waitFor, waitJob } from './job-helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { JOB_MAX_REVISION_ROUNDS: '1' } });
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => h.model.reset());

const asks = (n: number) => ({ agent: 'writer' as const, contains: `Write Chapter ${n} of the story` });
const bodyOf = (n: number) =>
  `# Chapter ${n}\n\n${`Mara walked the harbour steps in chapter ${n} and counted the boats. `.repeat(8).trim()}`;
const opens = (n: number): ScriptEntry => ({
  match: asks(n),
  reply: { toolCalls: [{ name: 'create_file', arguments: { type: 'draft', title: `Chapter ${n}` } }] },
});
const writes = (n: number): ScriptEntry[] => [
  opens(n),
  { match: asks(n), reply: { content: `<file>\n${bodyOf(n)}\n</file>` } },
  { match: asks(n), reply: { content: `Chapter ${n} is saved.` } },
];
/** The body step answers 400: a bad request is not retried, so the chapter turn fails. */
const fails = (n: number): ScriptEntry[] => [
  opens(n),
  { match: asks(n), error: { status: 400, message: 'model rejected the request' } },
];

async function outline(projectId: string, to: number): Promise<void> {
  const lines = Array.from({ length: to }, (_, i) => `Chapter ${i + 1}: Part ${i + 1} — something happens`);
  const r = await api(h, 'POST', '/api/v1/files', {
    projectId,
    type: 'outline',
    title: 'Outline',
    content: `# Outline\n\n${lines.join('\n')}`,
  });
  expect(r.status).toBe(201);
}

type JobView = { status: string; chaptersDone: number[]; failedChapter: number | null; failure: string | null };
const failedAt = (jobId: string, chapter: number) =>
  waitFor(`job failed at ${chapter}`, async () => {
    const j = (await api<JobView>(h, 'GET', `/api/v1/jobs/${jobId}`)).body;
    return j.status === 'failed' && j.failedChapter === chapter ? j : null;
  });

test('a failed chapter stops the job resumably; resume retries it (signal, then a fresh run after terminate)', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  await outline(projectId, 3);
  h.model.script([...writes(1), ...fails(2)]);
  const { jobId, workflowId } = await startJob(h, { projectId, sessionId, chapters: { from: 1, to: 3 } });

  const failed = await failedAt(jobId, 2);
  expect(failed.chaptersDone).toEqual([1]);
  expect(failed.failure).toMatch(/chapter 2: turn \w+ failed/);
  const chapter1 = (await chapterSnapshot(h, projectId)).get(1);
  expect([...(await chapterSnapshot(h, projectId)).keys()]).toEqual([1]);
  let events = await jobEvents(h, jobId);
  expect(progressOf(events).pop()!.data).toMatchObject({ status: 'failed', chapter: 2, chaptersDone: 1 });
  expect(events.some((e) => e.type === 'error' && e.data.code === 'job_chapter_failed')).toBe(true);
  expect(events.some((e) => e.type === 'done')).toBe(false);
  // Failed is not over: the workflow waits, and the project stays blocked for other jobs.
  expect((await h.runtime.temporal.workflow.getHandle(workflowId).describe()).status.name).toBe('RUNNING');
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/pause`)).status).toBe(409);

  // Resume by signal: chapter 2 again, with a fresh turn; then chapter 3 fails too.
  h.model.script([...writes(2), ...fails(3)]);
  const resumed = await api<{ restarted: boolean }>(h, 'POST', `/api/v1/jobs/${jobId}/resume`);
  expect(resumed).toMatchObject({ status: 202, body: { restarted: false } });
  await failedAt(jobId, 3);

  // An operator terminates the waiting workflow; resume starts a fresh run at chapter 3.
  await h.runtime.temporal.workflow.getHandle(workflowId).terminate('operator cleanup');
  h.model.script(writes(3));
  const restarted = await api<{ restarted: boolean }>(h, 'POST', `/api/v1/jobs/${jobId}/resume`);
  expect(restarted).toMatchObject({ status: 202, body: { restarted: true } });
  const result = await waitJob(h, jobId);
  expect(result).toMatchObject({ status: 'completed', chaptersDone: 3 });

  // Every chapter exactly once, written once; chapter 1 untouched by the failures.
  const chapters = await chapterSnapshot(h, projectId);
  expect([...chapters.keys()].sort()).toEqual([1, 2, 3]);
  for (const [n, files] of chapters) {
    expect(files).toHaveLength(1);
    expect(files[0]!.versions).toHaveLength(1);
    expect(files[0]!.content.trim()).toBe(bodyOf(n));
  }
  expect(chapters.get(1)).toEqual(chapter1);
  const job = (await api<JobView>(h, 'GET', `/api/v1/jobs/${jobId}`)).body;
  expect(job).toMatchObject({ status: 'completed', chaptersDone: [1, 2, 3], failedChapter: null, failure: null });
  // Two failed turns are on record, not hidden; the session lock is free.
  expect(await h.runtime.models.Turn.countDocuments({ jobId, status: 'failed' })).toBe(2);
  expect(await h.runtime.models.SessionLock.countDocuments({ _id: sessionId })).toBe(0);
  // One stream across all three runs: ids strictly increasing, no duplicates, ending in done.
  events = await jobEvents(h, jobId);
  const seqs = events.map((e) => e.seq);
  expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  expect(new Set(seqs).size).toBe(seqs.length);
  expect(progressOf(events).map((p) => p.data.message)).toEqual(
    expect.arrayContaining(['Retrying chapter 2.', 'Job restarted at chapter 3.']),
  );
  expect(events[events.length - 1]).toMatchObject({ type: 'done', data: { status: 'completed' } });
  expect(h.model.failures).toEqual([]);
}, 90_000);

test('review on: "revise" verdicts run bounded revision rounds that rewrite the chapter in place', async () => {
  const { projectId } = await createProjectAndSession(h);
  // The persona writes 1000 words; asking for 2000 makes its reviewer answer "Verdict: revise" every time.
  const { jobId } = await startJob(h, { projectId, chapters: { from: 1, to: 2 }, review: true, wordsPerChapter: 2000 });
  const result = await waitJob(h, jobId);
  expect(result).toMatchObject({ status: 'completed', chaptersDone: 2 });
  const turns = await h.runtime.models.Turn.find({ jobId }).sort({ createdAt: 1 }).lean();
  // outline, then per chapter: the first write and JOB_MAX_REVISION_ROUNDS=1 revision — no more.
  expect(turns.map((t) => /^(Plan|Write Chapter \d|Revise Chapter \d)/.exec(t.message)?.[1])).toEqual([
    'Plan',
    'Write Chapter 1',
    'Revise Chapter 1',
    'Write Chapter 2',
    'Revise Chapter 2',
  ]);
  const chapters = await chapterSnapshot(h, projectId);
  for (const n of [1, 2]) {
    const [file] = chapters.get(n)!;
    expect(chapters.get(n)).toHaveLength(1);
    // Written once, then rewritten in place once.
    expect(file!.versions).toHaveLength(2);
    const writeTurn = turns.find((t) => t.message.startsWith(`Write Chapter ${n} `))!;
    const reviseTurn = turns.find((t) => t.message.startsWith(`Revise Chapter ${n} `))!;
    expect(file!.versions.map((v) => v.turnId)).toEqual([String(writeTurn._id), String(reviseTurn._id)]);
    // Each turn ended with the reviewer's verdict; the revision message carries its notes.
    for (const t of [writeTurn, reviseTurn]) {
      const review = await h.runtime.models.Message.findOne({
        turnId: String(t._id),
        agent: 'quality_reviewer',
      }).lean();
      expect(review?.content).toMatch(/^Verdict: revise/);
    }
    const notes = (await h.runtime.models.Message.findOne({
      turnId: String(writeTurn._id),
      agent: 'quality_reviewer',
    }).lean())!.content;
    expect(reviseTurn.message).toContain(`(id=${file!.id})`);
    expect(reviseTurn.message).toContain(notes.split('\n').find((l) => l.startsWith('- '))!);
  }

  // A draft that meets the target passes: one turn, one version.
  const other = await createProjectAndSession(h);
  const pass = await startJob(h, {
    projectId: other.projectId,
    chapters: { from: 1, to: 1 },
    review: true,
    wordsPerChapter: 1000,
  });
  expect(await waitJob(h, pass.jobId)).toMatchObject({ status: 'completed', chaptersDone: 1 });
  const passTurns = await h.runtime.models.Turn.find({ jobId: pass.jobId, message: /^(Write|Revise) Chapter/ }).lean();
  expect(passTurns).toHaveLength(1);
  const review = await h.runtime.models.Message.findOne({
    turnId: String(passTurns[0]!._id),
    agent: 'quality_reviewer',
  }).lean();
  expect(review?.content).toMatch(/^Verdict: pass/);
  expect((await chapterSnapshot(h, other.projectId)).get(1)![0]!.versions).toHaveLength(1);
}, 90_000);
