/**
 * What a job tells the author, on real services: every job_progress event says what it
 * reports (`kind`) and what the job has cost so far; the job's item on the task board follows
 * its status to the end (done, cancelled, stopped — never left "in progress"); a job started in
 * Chinese speaks Chinese everywhere (progress, board, session title, closing message) with the
 * forms people write (第1–2章), and a failed chapter is told in words, never with a turn id or a
 * stop code.
 */
import { api, createHarness, createProjectAndSession, type Harness } from '../helpers/harness';
import type { ScriptEntry } from '../../src/offline-model';
import { prose } from '../helpers/script';
import { jobEvents, progressOf, startJob, waitFor, waitJob } from './job-helpers';

const PRICE = { input: 3, cachedInput: 0.3, output: 15 };
/** Ids, stop codes and tool names an author must never read. */
const JARGON = /[0-9a-f]{24}|output_truncated|_file\b|\bjob [0-9a-f]{6}\b|one chapter per turn|maxTokens|maxCostUsd/;

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    config: { OPENAI_MODEL: 'house-model', MODEL_PRICES: JSON.stringify({ 'house-model': PRICE }) },
  });
});
afterAll(async () => h?.close());
afterEach(() => {
  h.model.reset();
  h.model.setTiming({ ttftMs: 0, tokensPerSecond: 1e6 });
});

type Task = { id: string; title: string; status: string; progress?: string; doneUnits?: number[] };
const jobTask = async (projectId: string, jobId: string): Promise<Task | undefined> =>
  ((await h.runtime.models.Project.findById(projectId).lean())!.tasks as Task[]).find((t) => t.id === `job-${jobId}`);
const spent = async (jobId: string): Promise<number> =>
  (await h.runtime.models.UsageRecord.find({ jobId }).lean()).reduce((s, r) => s + (r.costUsd ?? 0), 0);

test('a job started in Chinese: kinds and cost on every event, a board item that follows it to done, Chinese everywhere', async () => {
  const { projectId } = await createProjectAndSession(h);
  h.model.setTiming({ tokensPerSecond: 2000 });
  const { jobId, sessionId } = await startJob(h, {
    projectId,
    chapters: { from: 1, to: 2 },
    wordsPerChapter: 300,
    language: 'zh',
  });

  // The board has the job as soon as it runs, in progress, before any chapter is written.
  const firstTurn = await waitFor('the first chapter turn', async () =>
    progressOf(await jobEvents(h, jobId)).find((e) => e.data.kind === 'turn' && e.data.chapter === 1),
  );
  expect(firstTurn.data.turnId).toMatch(/^[0-9a-f]{24}$/);
  const early = await jobTask(projectId, jobId);
  expect(early).toMatchObject({ title: '第1–2章', status: 'in_progress' });
  expect(early!.progress).toMatch(/^已写 [01]\/2 章$/);

  expect(await waitJob(h, jobId)).toMatchObject({ status: 'completed', chaptersDone: 2 });
  const progress = progressOf(await jobEvents(h, jobId));
  // What each event reports: the start, each chapter's turn, each chapter written, the end.
  expect(progress[0]!.data).toMatchObject({ kind: 'status', status: 'running' });
  expect(progress.filter((e) => e.data.kind === 'chapter').map((e) => e.data.chapter)).toEqual([1, 2]);
  expect(progress.filter((e) => e.data.kind === 'turn' && e.data.chapter > 0).length).toBeGreaterThanOrEqual(2);
  expect(progress.at(-1)!.data).toMatchObject({ kind: 'status', status: 'completed', chaptersDone: 2 });
  // The cost rides on every event, never going down, and ends at what the usage records say.
  const costs = progress.map((e) => e.data.costUsd);
  expect(costs.every((c) => typeof c === 'number')).toBe(true);
  for (let i = 1; i < costs.length; i++) expect(costs[i]!).toBeGreaterThanOrEqual(costs[i - 1]!);
  const total = await spent(jobId);
  expect(total).toBeGreaterThan(0);
  expect(costs.at(-1)!).toBeCloseTo(total, 9);
  const one = await api<{ costUsd: number; unpricedCalls: number; language: string }>(
    h,
    'GET',
    `/api/v1/jobs/${jobId}`,
  );
  expect(one.body).toMatchObject({ unpricedCalls: 0, language: 'zh' });
  expect(one.body.costUsd).toBeCloseTo(total, 9);
  const list = await api<{ items: { id: string; costUsd: number }[] }>(h, 'GET', `/api/v1/jobs?projectId=${projectId}`);
  expect(list.body.items.find((j) => j.id === jobId)!.costUsd).toBeCloseTo(total, 9);

  // Chinese everywhere the author reads the job, in the forms people write.
  for (const e of progress) {
    expect(e.data.message).toMatch(/[\u4e00-\u9fff]/);
    expect(e.data.message).not.toMatch(/第 \d|\d 章|章节 \d|[\u4e00-\u9fff]:/);
    expect(e.data.message).not.toMatch(JARGON);
  }
  expect(await jobTask(projectId, jobId)).toMatchObject({
    title: '第1–2章',
    status: 'done',
    progress: '已写 2/2 章',
    doneUnits: [1, 2],
  });
  expect((await h.runtime.models.Session.findById(sessionId).lean())!.title).toBe('任务 · 第1–2章');
  const summary = await waitFor('closing summary', async () =>
    h.runtime.models.Message.findOne({ sessionId, key: { $regex: `^job:${jobId}:summary:completed` } }).lean(),
  );
  expect(summary.content).toMatch(/^任务完成（第1–2章）。已写完第1–2章，共 \d+ 字。没有剩下的章节。$/);
}, 120_000);

const asks = (n: number) => ({ agent: 'writer' as const, contains: `Write Chapter ${n} of the story` });
const opens = (n: number): ScriptEntry => ({
  match: asks(n),
  reply: { toolCalls: [{ name: 'create_file', arguments: { type: 'draft', title: `Chapter ${n}` } }] },
});

test('a chapter cut off stops the job in words; the board says it stopped there, then that it was cancelled', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  const outline = 'Chapter 1: Part 1 — something happens\nChapter 2: Part 2 — something else happens';
  expect(
    (
      await api(h, 'POST', '/api/v1/files', {
        projectId,
        type: 'outline',
        title: 'Outline',
        content: `# Outline\n\n${outline}`,
      })
    ).status,
  ).toBe(201);
  h.model.script([
    opens(1),
    { match: asks(1), reply: { content: `<file>\n# Chapter 1\n\n${prose(80)}\n</file>` } },
    { match: asks(1), reply: { content: 'Chapter 1 is saved.' } },
    opens(2),
    { match: asks(2), reply: { content: `<file>\n${prose(40)}`, finishReason: 'length' } },
  ]);
  const { jobId } = await startJob(h, { projectId, sessionId, chapters: { from: 1, to: 2 }, language: 'zh' });
  const failed = await waitFor('the job stopped at chapter 2', async () =>
    progressOf(await jobEvents(h, jobId)).find((e) => e.data.status === 'failed'),
  );
  // The author reads why in words; the operator's message (turn id, stop code) is on the Job only.
  expect(failed.data).toMatchObject({
    kind: 'status',
    chapter: 2,
    message: '第2章没能完成：模型的回答到了长度上限，被截断了。恢复任务即可重试。',
  });
  const job = (await api<{ failure: string }>(h, 'GET', `/api/v1/jobs/${jobId}`)).body;
  expect(job.failure).toMatch(/output_truncated/);
  expect(await jobTask(projectId, jobId)).toMatchObject({
    status: 'todo',
    doneUnits: [1],
    progress: '已写 1/2 章；任务停在第2章，等待恢复',
  });
  const stopped = await waitFor('closing summary', async () =>
    h.runtime.models.Message.findOne({ sessionId, key: { $regex: `^job:${jobId}:summary:failed` } }).lean(),
  );
  // "# Chapter 1" and 80 words of prose.
  expect(stopped.content).toBe(
    '第2章没能完成：模型的回答到了长度上限，被截断了。恢复任务即可重试。已写完第1章，共 82 字。剩下第2章。',
  );

  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/cancel`)).status).toBe(202);
  expect(await waitJob(h, jobId)).toMatchObject({ status: 'cancelled' });
  expect(await jobTask(projectId, jobId)).toMatchObject({
    title: '第1–2章',
    status: 'todo',
    progress: '已写 1/2 章；任务已取消',
  });
  for (const e of progressOf(await jobEvents(h, jobId))) expect(e.data.message ?? '').not.toMatch(JARGON);
}, 120_000);

test('a job whose workflow is gone, cancelled through the API: its board item says cancelled too', async () => {
  const { projectId } = await createProjectAndSession(h);
  h.model.setTiming({ tokensPerSecond: 200 });
  const { jobId, workflowId } = await startJob(h, { projectId, chapters: { from: 1, to: 3 }, wordsPerChapter: 300 });
  await waitFor('the job on the board', async () => (await jobTask(projectId, jobId))?.status === 'in_progress');
  await h.runtime.temporal.workflow.getHandle(workflowId).terminate('lost for the test');
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/cancel`)).status).toBe(202);
  expect(await jobTask(projectId, jobId)).toMatchObject({
    title: 'Chapters 1–3',
    status: 'todo',
    progress: '0/3 chapters written; job cancelled',
  });
}, 60_000);
