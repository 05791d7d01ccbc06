/**
 * A 50-chapter job end to end on real services with the offline model's persona: one POST,
 * the planner writes the missing outline, fifty chapter turns write fifty drafts, the job
 * continues-as-new every ten chapters, and the stream, the Job document, the task board and
 * Temporal all agree at the end. Plus the API's refusals.
 */
import { api, createHarness, createProjectAndSession, type Harness } from '../helpers/harness';
import { readSse } from '../helpers/sse-client';
import { SA } from '../../src/core/turn/messages';
import {
  chapterSnapshot,
  jobEvents,
  progressOf,
  runHistories,
  startJob,
  waitFor,
  waitJob,
  workflowTaskOutputs,
} from './job-helpers';

/**
 * Events in one run's history, whatever the job's length: an outline turn plus ten
 * chapters measured ~300, later runs ~260. A history that grows with the job (no continue-as-new, text in
 * payloads) breaks this long before Temporal's 51,200-event limit would.
 */
const MAX_EVENTS_PER_RUN = 400;
const MAX_BYTES_PER_RUN = 128 * 1024;

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { JOB_CHAPTERS_PER_RUN: '10' } });
});
afterAll(async () => {
  await h?.close();
});

test('a 50-chapter job writes 50 drafts in order, one version each, with a bounded history per run', async () => {
  const { projectId } = await createProjectAndSession(h);
  // 300-word chapters keep the suite quick; the persona keeps to a shorter length target.
  const { jobId, workflowId, streamUrl, sessionId } = await startJob(h, {
    projectId,
    chapters: { from: 1, to: 50 },
    instructions: 'Keep the harbour town bleak.',
    wordsPerChapter: 300,
  });
  expect(workflowId).toBe(`job-${jobId}`);

  // The SSE client reads the whole job live, from its first event to `done`.
  const sse = readSse(`${h.baseUrl}${streamUrl}`, { timeoutMs: 290_000 });

  // One job per project while it runs.
  const second = await api<{ error: { code: string; details: { jobId: string } } }>(h, 'POST', '/api/v1/jobs', {
    projectId,
    chapters: { from: 51, to: 52 },
  });
  expect(second.status).toBe(409);
  expect(second.body.error.details.jobId).toBe(jobId);
  // The progress query answers while it runs.
  const live = await waitFor(
    'live progress',
    async () =>
      (await api<{ live: { jobId: string; to: number } | null }>(h, 'GET', `/api/v1/jobs/${jobId}`)).body.live,
  );
  expect(live).toMatchObject({ jobId, to: 50 });

  const result = await waitJob(h, jobId);
  expect(result).toMatchObject({ status: 'completed', chaptersDone: 50 });

  // MongoDB: exactly one draft per chapter, with body text, written once (one version).
  const chapters = await chapterSnapshot(h, projectId);
  expect([...chapters.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  const jobTurns = new Set(
    (await h.runtime.models.Turn.find({ jobId }).select({ _id: 1 }).lean()).map((t) => String(t._id)),
  );
  let words = 0;
  for (const [n, files] of chapters) {
    expect(files).toHaveLength(1);
    const [f] = files;
    expect(f!.title).toBe(`Chapter ${n}`);
    expect(f!.content).toMatch(new RegExp(`^# Chapter ${n}: `));
    expect(f!.words).toBeGreaterThanOrEqual(300);
    expect(f!.versions).toHaveLength(1);
    expect(jobTurns.has(f!.versions[0]!.turnId!)).toBe(true);
    words += f!.words;
  }
  // The planner wrote one outline covering the whole range, and each chapter took its title from it.
  const outlines = await h.runtime.models.File.find({ projectId, type: 'outline' }).lean();
  expect(outlines).toHaveLength(1);
  const entry50 = /^Chapter 50: (.+?) — /m.exec(outlines[0]!.content);
  expect(entry50).not.toBeNull();
  expect(chapters.get(50)![0]!.content.split('\n')[0]).toBe(`# Chapter 50: ${entry50![1]}`);

  // Chapter turns ran in the job's own session, in order, each one after the previous chapter existed.
  const turns = await h.runtime.models.Turn.find({ jobId }).sort({ createdAt: 1 }).lean();
  expect(turns).toHaveLength(51); // outline + 50 chapters
  expect(turns.every((t) => t.sessionId === sessionId && t.status === 'completed')).toBe(true);
  expect(turns.slice(1).map((t) => /^Write Chapter (\d+) /.exec(t.message)?.[1])).toEqual(
    Array.from({ length: 50 }, (_, i) => String(i + 1)),
  );
  expect(turns[2]!.message).toContain(`Previous chapter: "Chapter 1" (id=${chapters.get(1)![0]!.id})`);
  expect(turns[2]!.message).toContain('Keep the harbour town bleak.');
  expect(await h.runtime.models.SessionLock.countDocuments({ _id: sessionId })).toBe(0);

  // The Job document and the API agree with the files; usage is every LLM step of the job.
  const job = await api<{
    status: string;
    chaptersDone: number[];
    words: number;
    usage: { totalTokens: number };
    live: unknown;
  }>(h, 'GET', `/api/v1/jobs/${jobId}`);
  expect(job.body).toMatchObject({ status: 'completed', words, live: null });
  expect(job.body.chaptersDone).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  const records = await h.runtime.models.UsageRecord.find({ jobId }).lean();
  expect(job.body.usage.totalTokens).toBe(records.reduce((s, r) => s + r.totalTokens, 0));
  expect(job.body.usage.totalTokens).toBeGreaterThan(0);

  // Task board: the job's range, done, with every chapter as a done unit.
  const project = await h.runtime.models.Project.findById(projectId).lean();
  const task = project!.tasks.find((t) => t.id === `job-${jobId}`);
  expect(task).toMatchObject({ title: 'Chapters 1–50', status: 'done', progress: '50/50 chapters written' });
  expect(task!.doneUnits).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));

  // The stream: progress for every chapter (with the chapter turn's id to open), strictly ordered, then done.
  const { frames, ended } = await sse;
  expect(ended).toBe(true);
  expect(frames[frames.length - 1]!.event).toBe('done');
  const events = await jobEvents(h, jobId);
  expect(frames.map((f) => f.id)).toHaveLength(events.length);
  const seqs = events.map((e) => e.seq);
  expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  expect(new Set(seqs).size).toBe(seqs.length);
  const progress = progressOf(events);
  const written = progress.filter((p) => p.data.message?.startsWith('Chapter '));
  expect(written.map((p) => p.data.chapter)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  expect(written.map((p) => p.data.chaptersDone)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  expect(written.every((p) => p.data.of === 50 && p.turnId && jobTurns.has(p.turnId))).toBe(true);
  expect(written[49]!.data.words).toBe(words);
  // Each chapter was announced with the id of the turn writing it, before its "written".
  const announced = progress.filter((p) => /^Writing chapter \d+\.$/.test(p.data.message ?? ''));
  expect(announced.map((p) => p.data.chapter)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  expect(announced.map((p) => p.turnId)).toEqual(turns.slice(1).map((t) => String(t._id)));
  for (const a of announced) expect(a.seq).toBeLessThan(written.find((w) => w.data.chapter === a.data.chapter)!.seq);
  expect(progress[progress.length - 1]!.data).toMatchObject({ status: 'completed', chaptersDone: 50, words });
  expect(events[events.length - 1]).toMatchObject({ type: 'done', jobId, data: { status: 'completed' } });

  // Temporal: continue-as-new every ten chapters; every run's history under a fixed bound,
  // and no chapter text in any of them.
  const runs = await runHistories(h, workflowId);
  expect(runs).toHaveLength(5);
  expect(runs.slice(0, -1).every((r) => r.continuedAsNew)).toBe(true);
  const sample = chapters.get(25)![0]!.content.split('\n')[2]!.slice(0, 80);
  for (const r of runs) {
    expect(r.events).toBeLessThan(MAX_EVENTS_PER_RUN);
    expect(r.bytes).toBeGreaterThan(0);
    expect(r.bytes).toBeLessThan(MAX_BYTES_PER_RUN);
  }
  const histories = await Promise.all(
    runs.map((r) => h.runtime.temporal.workflow.getHandle(workflowId, r.runId).fetchHistory()),
  );
  expect(histories.some((hist) => JSON.stringify(hist).includes(sample))).toBe(false);
  // A chapter's turn starts without waiting for its announcement: no workflow task that starts
  // a child runs a recordJob after opening the turn (a task completes only once its local
  // activities have). The job's first task records its start before anything else.
  const tasks = histories.flatMap((hist) => workflowTaskOutputs(hist.events ?? []));
  const starting = tasks.filter((t) => t.commands.includes('startChildWorkflowExecutionInitiated'));
  expect(starting).toHaveLength(51);
  const afterOpen = (t: (typeof tasks)[number]) =>
    t.localActivities.slice(t.localActivities.lastIndexOf('openJobTurn'));
  expect(starting.every((t) => t.localActivities.includes('openJobTurn'))).toBe(true);
  expect(starting.filter((t) => afterOpen(t).includes('recordJob'))).toEqual([]);
  expect(tasks.filter((t) => t.localActivities.includes('recordJob')).length).toBeGreaterThanOrEqual(51);
  console.log(
    `50-chapter job: ${runs.length} runs, events per run ${runs.map((r) => r.events).join('/')}, bytes per run ${runs.map((r) => r.bytes).join('/')}`,
  );

  // Search attributes for operators.
  const desc = await h.runtime.temporal.workflow.getHandle(workflowId).describe();
  expect(desc.typedSearchAttributes.get(SA.JobStatus)).toBe('completed');
  expect(desc.typedSearchAttributes.get(SA.Chapter)).toBe(50);
  expect(desc.typedSearchAttributes.get(SA.ProjectId)).toBe(projectId);

  // A finished job refuses control.
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/pause`)).status).toBe(409);
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/resume`)).status).toBe(409);
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/cancel`)).status).toBe(409);
  expect(h.model.failures).toEqual([]);
}, 300_000);

test('bad job requests answer 400/404 and start nothing', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  const other = await createProjectAndSession(h);
  const bad = async (body: unknown, status: number, code?: string) => {
    const r = await api<{ error: { code: string } }>(h, 'POST', '/api/v1/jobs', body);
    expect(r.status).toBe(status);
    if (code) expect(r.body.error.code).toBe(code);
  };
  await bad({ projectId, chapters: { from: 5, to: 2 } }, 400, 'validation_failed');
  await bad({ projectId, chapters: { from: 1, to: 2 }, workflowId: 'mine' }, 400, 'validation_failed');
  await bad({ projectId, chapters: { from: 1, to: 2 }, wordsPerChapter: 5 }, 400, 'validation_failed');
  await bad({ projectId: 'a'.repeat(24), chapters: { from: 1, to: 2 } }, 404);
  await bad({ projectId, sessionId: other.sessionId, chapters: { from: 1, to: 2 } }, 400, 'session_project_mismatch');
  expect(await h.runtime.models.Job.countDocuments({ projectId })).toBe(0);
  expect((await api(h, 'GET', `/api/v1/jobs/${'b'.repeat(24)}`)).status).toBe(404);
  expect((await api(h, 'GET', '/api/v1/jobs/nope')).status).toBe(400);
  expect((await api(h, 'POST', `/api/v1/jobs/${'b'.repeat(24)}/pause`)).status).toBe(404);
  expect(sessionId).toBeTruthy();
  // Every job route is in the OpenAPI document.
  const doc = await api<{ paths: Record<string, unknown> }>(h, 'GET', '/api/v1/openapi.json');
  for (const p of [
    '/api/v1/jobs',
    '/api/v1/jobs/{jobId}',
    '/api/v1/jobs/{jobId}/pause',
    '/api/v1/jobs/{jobId}/resume',
    '/api/v1/jobs/{jobId}/cancel',
    '/api/v1/jobs/{jobId}/events',
  ])
    expect(doc.body.paths[p]).toBeDefined();
});

test('a job speaks the author’s language: a Chinese project’s job reports in Chinese, counting chapters right', async () => {
  const p = await api<{ id: string }>(h, 'POST', '/api/v1/projects', {
    title: '港口小镇',
    type: 'novel',
    summary: '一个关于灯塔看守人的故事。',
  });
  const { jobId } = await startJob(h, { projectId: p.body.id, chapters: { from: 1, to: 2 }, wordsPerChapter: 300 });
  expect(await waitJob(h, jobId)).toMatchObject({ status: 'completed', chaptersDone: 2 });
  const messages = progressOf(await jobEvents(h, jobId)).map((e) => e.data.message ?? '');
  expect(messages[0]).toBe('任务开始：写第1–2章。');
  expect(messages).toContain('正在写第1章。');
  expect(messages.some((m) => /^第1章写好了：《.+》（\d+字）。$/.test(m))).toBe(true);
  expect(messages.at(-1)).toBe('任务完成：写好了2章。');
}, 120_000);
