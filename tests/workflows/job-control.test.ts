/**
 * Pause, resume and cancel of a running job, on real services with the persona model.
 * Jobs continue-as-new every two chapters here, so a pause asked for during chapter 2 has
 * to survive the switch to the next run.
 */
import { api, createHarness, createProjectAndSession, type Harness, postTurn, waitTurn } from '../helpers/harness';
import type { JobProgress } from '../../src/core/job/job-messages';
import { chapterSnapshot, jobEvents, progressOf, startJob, waitFor, waitJob, temporalStatus } from './job-helpers';

let h: Harness;
beforeAll(async () => {
  // A short heartbeat timeout makes cancellation reach a streaming LLM step within ~2 s.
  h = await createHarness({ config: { JOB_CHAPTERS_PER_RUN: '2', LLM_HEARTBEAT_TIMEOUT_SECONDS: '2' } });
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => h.model.setTiming({ ttftMs: 0, tokensPerSecond: 1e6 }));

type JobView = { status: string; chaptersDone: number[]; live: JobProgress | null };
const getJob = async (jobId: string) => (await api<JobView>(h, 'GET', `/api/v1/jobs/${jobId}`)).body;
const announced = (jobId: string, chapter: number) =>
  waitFor(`chapter ${chapter} to start`, async () =>
    progressOf(await jobEvents(h, jobId)).find((p) => p.data.message === `Writing chapter ${chapter}.`),
  );

test('pause lets the chapter in flight finish and waits (across continue-as-new); resume finishes the job', async () => {
  const { projectId } = await createProjectAndSession(h);
  // Slow enough that chapter 2 is certainly still being written when the pause arrives.
  h.model.setTiming({ tokensPerSecond: 400 });
  const { jobId } = await startJob(h, { projectId, chapters: { from: 1, to: 4 }, wordsPerChapter: 200 });
  const inFlight = await announced(jobId, 2);
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/pause`)).status).toBe(202);
  // Pausing is visible at once (query) and on the stream, while chapter 2 is still being written.
  await waitFor('pausing', async () => (await getJob(jobId)).live?.pauseRequested);
  const paused = await waitFor('paused', async () => {
    const j = await getJob(jobId);
    return j.status === 'paused' ? j : null;
  });
  // The chapter in flight was finished, nothing after it started, and the pause crossed into run 2.
  expect(paused.chaptersDone).toEqual([1, 2]);
  expect(paused.live).toMatchObject({ status: 'paused', chaptersDone: 2, chapter: 3, pauseRequested: true, run: 2 });
  const turnsAtPause = await h.runtime.models.Turn.countDocuments({ jobId });
  await new Promise((r) => setTimeout(r, 1500));
  expect(await h.runtime.models.Turn.countDocuments({ jobId })).toBe(turnsAtPause);
  expect([...(await chapterSnapshot(h, projectId)).keys()].sort()).toEqual([1, 2]);
  const statuses = progressOf(await jobEvents(h, jobId)).map((p) => p.data.status);
  expect(statuses.indexOf('pausing')).toBeGreaterThan(-1);
  expect(statuses.indexOf('paused')).toBeGreaterThan(statuses.indexOf('pausing'));
  const written2 = progressOf(await jobEvents(h, jobId)).find((p) => p.data.message?.startsWith('Chapter 2 written'));
  expect(written2?.turnId).toBe(inFlight.turnId);
  // Pausing again is harmless; resuming a running job is a conflict.
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/pause`)).status).toBe(202);

  h.model.setTiming({ tokensPerSecond: 1e6 });
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/resume`)).status).toBe(202);
  const result = await waitJob(h, jobId);
  expect(result).toMatchObject({ status: 'completed', chaptersDone: 4 });
  const chapters = await chapterSnapshot(h, projectId);
  expect([...chapters.keys()].sort()).toEqual([1, 2, 3, 4]);
  for (const files of chapters.values()) expect(files).toHaveLength(1);
  const after = progressOf(await jobEvents(h, jobId)).map((p) => p.data.message ?? '');
  expect(after).toContain('Resumed at chapter 3.');
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/resume`)).status).toBe(409);
}, 90_000);

test('cancel stops the chapter in flight at once and keeps every finished chapter', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  const { jobId } = await startJob(h, { projectId, sessionId, chapters: { from: 1, to: 4 }, wordsPerChapter: 300 });
  // Chapter 1 is on record ("written" goes out before chapter 2's turn opens). From here on,
  // chapter 2's body streams for ~15 s: cancel lands in the middle of it.
  await waitFor(
    'chapter 1 written',
    async () => progressOf(await jobEvents(h, jobId)).find((p) => p.data.message?.startsWith('Chapter 1 written')),
    60000,
    20,
  );
  h.model.setTiming({ tokensPerSecond: 20 });
  await announced(jobId, 2);
  const before = await chapterSnapshot(h, projectId);
  // Written so far: chapter 1 (chapter 2's file may exist already, still empty).
  expect([...before].filter(([, files]) => files.some((f) => f.words > 0)).map(([n]) => n)).toEqual([1]);
  const chapter2 = await waitFor('chapter 2 turn', async () =>
    h.runtime.models.Turn.findOne({ jobId, message: /^Write Chapter 2 / }).lean(),
  );
  await waitFor(
    'chapter 2 streaming',
    async () =>
      (await h.runtime.models.File.exists({ projectId, title: 'Chapter 2' })) && h.model.activeResponses() > 0,
  );
  await new Promise((r) => setTimeout(r, 300));

  const t0 = Date.now();
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/cancel`, { reason: 'enough' })).status).toBe(202);
  const result = await waitJob(h, jobId);
  expect(Date.now() - t0).toBeLessThan(7000); // the rest of the chapter alone would take ~15 s
  expect(result).toMatchObject({ status: 'cancelled', chaptersDone: 1 });
  // Cancelled in Temporal too, not "Completed" with only the JobStatus attribute saying so.
  expect(await temporalStatus(h, jobId)).toBe('CANCELLED');
  // The model request was aborted (heartbeat cancellation), not left to finish.
  await waitFor('LLM request aborted', async () => h.model.activeResponses() === 0, 5000);

  // Chapter 2's turn ended interrupted; its empty file was rolled back; chapter 1 is untouched.
  const turn2 = await h.runtime.models.Turn.findById(chapter2._id).lean();
  expect(turn2).toMatchObject({ status: 'interrupted' });
  const after = await chapterSnapshot(h, projectId);
  expect([...after.keys()]).toEqual([1]);
  expect(after.get(1)).toEqual(before.get(1));
  expect(await h.runtime.models.SessionLock.countDocuments({ _id: sessionId })).toBe(0);

  const job = await getJob(jobId);
  expect(job).toMatchObject({ status: 'cancelled', chaptersDone: [1], live: null });
  const events = await jobEvents(h, jobId);
  expect(events[events.length - 1]).toMatchObject({ type: 'done', data: { status: 'cancelled' } });
  const project = await h.runtime.models.Project.findById(projectId).lean();
  // The board says the job was cancelled, with what it wrote: no longer in progress.
  expect(project!.tasks.find((t) => t.id === `job-${jobId}`)).toMatchObject({
    title: 'Chapters 1–4',
    status: 'todo',
    doneUnits: [1],
    progress: '1/4 chapters written; job cancelled',
  });
  // The session is free for the author again.
  h.model.setTiming({ tokensPerSecond: 1e6 });
  expect((await waitTurn(h, await postTurn(h, sessionId, 'How is it going?'))).status).toBe('completed');
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/cancel`)).status).toBe(409);
}, 90_000);

test('two simultaneous job requests for one project: exactly one starts', async () => {
  const { projectId } = await createProjectAndSession(h);
  const body = { projectId, chapters: { from: 1, to: 1 }, wordsPerChapter: 200 };
  const answers = await Promise.all([1, 2, 3].map(() => api<{ jobId?: string }>(h, 'POST', '/api/v1/jobs', body)));
  expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409]);
  expect(await h.runtime.models.Job.countDocuments({ projectId })).toBe(1);
  const started = answers.find((a) => a.status === 202)!.body.jobId!;
  expect(await waitJob(h, started)).toMatchObject({ status: 'completed' });
  // Once it has ended, the project takes a new job.
  const next = await api(h, 'POST', '/api/v1/jobs', { ...body, chapters: { from: 2, to: 2 } });
  expect(next.status).toBe(202);
  await waitJob(h, (next.body as { jobId: string }).jobId);
});

test('a job whose session is busy waits for the turn holding it, then writes its chapters', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  // An author's turn holds the session (its request is live: within the start grace).
  const holder = await h.runtime.models.Turn.create({
    sessionId,
    projectId,
    ownerId: 'local',
    message: 'Still thinking',
    workflowId: 'turn-held',
    status: 'running',
  });
  await h.runtime.models.SessionLock.create({ _id: sessionId, turnId: String(holder._id) });
  const { jobId, workflowId } = await startJob(h, {
    projectId,
    sessionId,
    chapters: { from: 1, to: 1 },
    wordsPerChapter: 300,
  });
  // The job tried to open its first turn and is now waiting as a regular activity, whose heartbeat and Temporal UI entry show it.
  const history = () => h.runtime.temporal.workflow.getHandle(workflowId).fetchHistory();
  await waitFor('the job waiting for the session', async () =>
    (await h.runtime.temporal.workflow.getHandle(workflowId).describe()).raw.pendingActivities?.some(
      (a) => a.activityType?.name === 'openJobTurn',
    ),
  );
  expect(await h.runtime.models.Turn.countDocuments({ jobId })).toBe(0);
  await new Promise((r) => setTimeout(r, 1000));
  expect(await h.runtime.models.Turn.countDocuments({ jobId })).toBe(0);

  // The author's turn ends: the job goes on and finishes.
  const released = new Date();
  await h.runtime.models.Turn.updateOne({ _id: holder._id }, { $set: { status: 'completed', endedAt: released } });
  await h.runtime.models.SessionLock.deleteOne({ _id: sessionId });
  const result = await waitJob(h, jobId);
  expect(result).toMatchObject({ status: 'completed', chaptersDone: 1 });
  const turns = await h.runtime.models.Turn.find({ jobId }).sort({ createdAt: 1 }).lean();
  expect(turns.length).toBeGreaterThan(0);
  expect(turns[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(released.getTime());
  expect([...(await chapterSnapshot(h, projectId)).keys()]).toEqual([1]);
  // Every other turn opened at once, as a local activity; only the busy session needed the regular one.
  const events = (await history()).events ?? [];
  const remoteOpens = events.filter(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'openJobTurn',
  );
  expect(remoteOpens).toHaveLength(1);
  expect(
    events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length,
  ).toBeGreaterThanOrEqual(turns.length);
}, 90_000);
