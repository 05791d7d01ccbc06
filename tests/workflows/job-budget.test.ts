/**
 * A job's token budget (`maxTokens`): before each chapter the job checks what it used plus
 * its average chapter so far; when that would exceed the budget it pauses — resumable, with
 * a job_progress saying why — and starts nothing until a resume raises or lifts the budget.
 * Real services, persona model (its usage is counted from the text it sends).
 */
import { api, createHarness, createProjectAndSession, type Harness } from '../helpers/harness';
import type { JobProgress } from '../../src/core/job/job-messages';
import { chapterSnapshot, jobEvents, progressOf, startJob, waitFor, waitJob } from './job-helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({});
});
afterAll(async () => h?.close());

type JobView = {
  status: string;
  chaptersDone: number[];
  maxTokens: number | null;
  usage: { totalTokens: number };
  live: JobProgress | null;
};
const getJob = async (jobId: string) => (await api<JobView>(h, 'GET', `/api/v1/jobs/${jobId}`)).body;
const budgetPauses = async (jobId: string) =>
  progressOf(await jobEvents(h, jobId)).filter(
    (p) => p.data.status === 'paused' && /token budget/.test(p.data.message ?? ''),
  );
const chapterTurns = (jobId: string) => h.runtime.models.Turn.countDocuments({ jobId, message: /^Write Chapter/ });

test('a job pauses before a chapter that would exceed maxTokens and resumes when the budget is raised or lifted', async () => {
  const { projectId } = await createProjectAndSession(h);
  const { jobId } = await startJob(h, { projectId, chapters: { from: 1, to: 3 }, wordsPerChapter: 150, maxTokens: 1 });

  // The outline alone used more than 1 token: paused before chapter 1, nothing started.
  const first = await waitFor('budget pause before chapter 1', async () => (await budgetPauses(jobId))[0]);
  expect(first.data.message).toMatch(/^Paused before chapter 1: token budget 1 would be exceeded/);
  const atFirst = await getJob(jobId);
  expect(atFirst).toMatchObject({ status: 'paused', chaptersDone: [], maxTokens: 1 });
  expect(atFirst.live?.maxTokens).toBe(1);
  expect(await chapterTurns(jobId)).toBe(0);
  const afterOutline = atFirst.live!.usage.totalTokens;
  expect(afterOutline).toBeGreaterThan(0);

  // Just enough for one more chapter (nothing is known of a chapter's cost yet): chapter 1
  // runs, then the budget is spent and the job pauses before chapter 2.
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/resume`, { maxTokens: afterOutline + 1 })).status).toBe(202);
  await waitFor('budget pause before chapter 2', async () => (await budgetPauses(jobId)).length >= 2);
  const atSecond = await getJob(jobId);
  expect(atSecond).toMatchObject({ status: 'paused', chaptersDone: [1] });
  expect(await chapterTurns(jobId)).toBe(1);

  // Room for half an average chapter: the next chapter *would* exceed it, so it stays paused.
  const used = atSecond.live!.usage.totalTokens;
  const perChapter = Math.ceil(used / 1);
  expect(
    (await api(h, 'POST', `/api/v1/jobs/${jobId}/resume`, { maxTokens: used + Math.floor(perChapter / 2) })).status,
  ).toBe(202);
  const third = await waitFor('another budget pause', async () => (await budgetPauses(jobId))[2]);
  expect(third.data.message).toContain(
    `Paused before chapter 2: token budget ${used + Math.floor(perChapter / 2)} would be exceeded (${used} used, about ${perChapter} per chapter)`,
  );
  expect(await chapterTurns(jobId)).toBe(1);
  expect((await getJob(jobId)).status).toBe('paused');

  // Lifting the budget finishes the job.
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/resume`, { maxTokens: null })).status).toBe(202);
  expect(await waitJob(h, jobId)).toMatchObject({ status: 'completed', chaptersDone: 3 });
  expect([...(await chapterSnapshot(h, projectId)).keys()].sort()).toEqual([1, 2, 3]);
  expect((await getJob(jobId)).maxTokens).toBeNull();
  const messages = progressOf(await jobEvents(h, jobId)).map((p) => p.data.message ?? '');
  expect(messages).toContain('Resumed at chapter 2 (token budget lifted).');
}, 180_000);

test('maxTokens is validated', async () => {
  const { projectId } = await createProjectAndSession(h);
  const r = await api<{ error: { code: string } }>(h, 'POST', '/api/v1/jobs', {
    projectId,
    chapters: { from: 1, to: 2 },
    maxTokens: 0,
  });
  expect(r.status).toBe(400);
  expect(await h.runtime.models.Job.countDocuments({ projectId })).toBe(0);
});
