/**
 * What a job does with chapters that already have text: by default it
 * leaves them as they are and says so — a job for chapters 1–3 in a project whose chapters
 * 1–2 were already written once rewrote them silently. `existing: "revise"` improves them in
 * place instead; the first progress event says which chapters it writes, skips or revises.
 */
import { api, createHarness, createProjectAndSession, type Harness } from '../helpers/harness';
import { jobEvents, progressOf, startJob, waitJob } from './job-helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

async function authorChapters(projectId: string, ns: number[]): Promise<Map<number, string>> {
  const ids = new Map<number, string>();
  for (const n of ns) {
    const r = await api<{ id: string }>(h, 'POST', '/api/v1/files', {
      projectId,
      type: 'draft',
      title: `Chapter ${n}`,
      content: `The author's own chapter ${n}. The tide came in at dusk.`,
    });
    expect(r.status).toBe(201);
    ids.set(n, r.body.id);
  }
  return ids;
}

test('by default a job leaves chapters that already have text as they are, and reports them as skipped', async () => {
  const { projectId } = await createProjectAndSession(h);
  const mine = await authorChapters(projectId, [1, 2]);
  const { jobId } = await startJob(h, { projectId, chapters: { from: 1, to: 3 }, wordsPerChapter: 300 });
  expect(await waitJob(h, jobId)).toMatchObject({ status: 'completed', chaptersDone: 1, chaptersSkipped: 2 });

  // The author's chapters are untouched: one version each, their own text.
  for (const [n, id] of mine) {
    const f = await h.runtime.models.File.findById(id).lean();
    expect(f).toMatchObject({
      versionCount: 1,
      latestAuthor: 'author',
      content: `The author's own chapter ${n}. The tide came in at dusk.`,
    });
  }
  // Chapter 3 was written by the job.
  const third = await h.runtime.models.File.findOne({
    projectId,
    title: /3/,
    deletedAt: null,
    words: { $gt: 0 },
  }).lean();
  expect(third?.latestAuthor).toBe('ai');

  const messages = progressOf(await jobEvents(h, jobId)).map((e) => e.data.message ?? '');
  expect(messages[0]).toBe('Job started: chapters 1–3. Chapters 1–2 already have text and are left as they are.');
  expect(messages).toEqual(
    expect.arrayContaining([
      'Chapter 1 already has text: left as it is.',
      'Chapter 2 already has text: left as it is.',
    ]),
  );
  // Only one chapter turn ran, for chapter 3.
  const turns = await h.runtime.models.Turn.find({ jobId }).lean();
  expect(
    turns.filter((t) => /Write Chapter \d/.test(t.message)).map((t) => /Write Chapter (\d+)/.exec(t.message)![1]),
  ).toEqual(['3']);
  const job = await api<{ chaptersDone: number[]; chaptersSkipped: number[]; existing: string }>(
    h,
    'GET',
    `/api/v1/jobs/${jobId}`,
  );
  expect(job.body).toMatchObject({ chaptersDone: [3], chaptersSkipped: [1, 2], existing: 'skip' });
}, 120_000);

test('existing: "revise" asks the writer to improve each existing chapter in place, and writes the rest', async () => {
  const { projectId } = await createProjectAndSession(h);
  await authorChapters(projectId, [1]);
  const { jobId } = await startJob(h, {
    projectId,
    chapters: { from: 1, to: 2 },
    wordsPerChapter: 300,
    existing: 'revise',
  });
  const result = await waitJob(h, jobId);
  expect(result.chaptersSkipped).toBe(0);
  const messages = progressOf(await jobEvents(h, jobId)).map((e) => e.data.message ?? '');
  expect(messages[0]).toBe('Job started: chapters 1–2. Chapter 1 already has text and will be revised in place.');
  expect(messages).toContain('Revising the existing chapter 1.');
  const turns = await h.runtime.models.Turn.find({ jobId }).sort({ createdAt: 1 }).lean();
  const asked = turns.map((t) => t.message.split('\n')[0]);
  expect(asked).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^Revise Chapter 1: it already exists/),
      'Write Chapter 2 of the story now.',
    ]),
  );
  expect(asked.some((m) => /^Write Chapter 1 /.test(m))).toBe(false);
}, 180_000);

test('the API refuses an unknown existing mode', async () => {
  const { projectId } = await createProjectAndSession(h);
  const r = await api<{ error: { code: string } }>(h, 'POST', '/api/v1/jobs', {
    projectId,
    chapters: { from: 1, to: 2 },
    existing: 'overwrite',
  });
  expect(r.status).toBe(400);
});
