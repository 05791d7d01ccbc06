/**
 * Run control from chat: "pause the job", "进度怎么样", "cancel job <id>"
 * are answered without a model call, on the project's running job (or the one named), and a
 * job that stops leaves a closing message in its session saying what was written and what is left.
 */
import { api, createHarness, createProjectAndSession, type Harness, runTurn } from '../helpers/harness';
import { chatText } from '../helpers/script';
import { startJob, waitFor, waitJob, temporalStatus } from './job-helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { LLM_HEARTBEAT_TIMEOUT_SECONDS: '2' } });
});
afterAll(async () => h?.close());
afterEach(() => h.model.setTiming({ ttftMs: 0, tokensPerSecond: 1e6 }));

const jobStatus = async (jobId: string) =>
  (await api<{ status: string; chaptersDone: number[] }>(h, 'GET', `/api/v1/jobs/${jobId}`)).body;

test('pause, status and cancel from the author’s chat, with no model call; the job’s session gets its closing summary', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  h.model.setTiming({ tokensPerSecond: 400 });
  const { jobId, sessionId: jobSession } = await startJob(h, {
    projectId,
    chapters: { from: 1, to: 3 },
    wordsPerChapter: 200,
  });
  await waitFor('chapter 1 to be written', async () =>
    (await jobStatus(jobId)).chaptersDone.length >= 1 ? true : null,
  );

  const before = h.model.requests.length;
  const paused = await runTurn(h, sessionId, 'pause the job');
  expect(chatText(paused.events)).toContain('Pausing: the chapter being written is finished first');
  await waitFor('paused', async () => ((await jobStatus(jobId)).status === 'paused' ? true : null));

  const status = await runTurn(h, sessionId, '进度怎么样');
  expect(chatText(status.events)).toMatch(/^任务（第1–3章）：已完成 \d\/3 章/);
  expect(chatText(status.events)).toContain('状态：已暂停');

  const cancelled = await runTurn(h, sessionId, `cancel job ${jobId}`);
  expect(chatText(cancelled.events)).toContain('Cancelled');
  expect(await waitJob(h, jobId)).toMatchObject({ status: 'cancelled' });
  expect(await temporalStatus(h, jobId)).toBe('CANCELLED');
  // The chat turns themselves called no model (the job's own chapters did, before the pause).
  const chatTurns = [paused, status, cancelled].map((r) => r.turnId);
  expect(
    h.model.requests.slice(before).filter((r) => chatTurns.some((t) => JSON.stringify(r.body).includes(t))),
  ).toEqual([]);
  for (const r of [paused, status, cancelled]) expect(r.outcome.agents).toEqual([]);

  const summary = await waitFor('closing summary', async () =>
    h.runtime.models.Message.findOne({
      sessionId: jobSession,
      key: { $regex: `^job:${jobId}:summary:cancelled` },
    }).lean(),
  );
  expect(summary.content).toMatch(
    /^The job for chapters 1–3 was cancelled\. Written: chapters? [\d–, ]+ \(\d+ words\)\. Left: chapters? [\d–, ]+\.$/,
  );
});

test('no running job, or another author’s id, is a clear answer, not an action', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const none = await runTurn(h, sessionId, 'job status');
  expect(chatText(none.events)).toBe('There is no running job in this project.');
  const unknown = await runTurn(h, sessionId, 'cancel job 0123456789abcdef01234567');
  expect(chatText(unknown.events)).toBe('That job was not found.');
});

test('a completed job says what it wrote, in its session', async () => {
  const { projectId } = await createProjectAndSession(h);
  const { jobId, sessionId } = await startJob(h, { projectId, chapters: { from: 1, to: 2 }, wordsPerChapter: 150 });
  expect(await waitJob(h, jobId)).toMatchObject({ status: 'completed' });
  const msg = await waitFor('closing summary', async () =>
    h.runtime.models.Message.findOne({ sessionId, key: { $regex: `^job:${jobId}:summary:completed` } }).lean(),
  );
  expect(msg.content).toMatch(
    /^The job for chapters 1–2 is complete\. Written: chapters 1–2 \(\d+ words\)\. Nothing is left\.$/,
  );
});
