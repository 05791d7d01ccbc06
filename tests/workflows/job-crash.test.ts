/**
 * A worker SIGKILLed in the middle of chapter k: chapters 1..k-1 stay exactly as they were
 * (same files, versions and text), and the job finishes once a new worker starts — the
 * LLM step of chapter k is retried (heartbeat timeout) and goes on from the text it had
 * streamed, nothing is written twice.
 */
import { api, createHarness, createProjectAndSession, type Harness, turnEvents } from '../helpers/harness';
import { spawnWorker, type WorkerProcess } from '../helpers/worker-process';
import type { ScriptEntry } from '../../src/offline-model';
import { chapterSnapshot, jobEvents, progressOf, startJob, waitFor, waitJob } from './job-helpers';

let h: Harness;
const workers: WorkerProcess[] = [];
beforeAll(async () => {
  h = await createHarness({
    noWorker: true,
    config: { LLM_HEARTBEAT_TIMEOUT_SECONDS: '2', STORE_HEARTBEAT_TIMEOUT_SECONDS: '2', JOB_CHAPTERS_PER_RUN: '2' },
  });
});
afterAll(async () => {
  for (const w of workers) await w.kill('SIGKILL');
  await h?.close();
});

/** A ten-chapter job, as the kill targets say; chapter 3 is the one killed. */
const CHAPTERS = 10;
const asks = (n: number) => ({ agent: 'writer' as const, contains: `Write Chapter ${n} of the story` });
const bodyOf = (n: number) =>
  `# Chapter ${n}\n\n${`The tide came in over the flats in chapter ${n}, and Mara counted what it took. `.repeat(10).trim()}`;
const opens = (n: number): ScriptEntry => ({
  match: asks(n),
  reply: { toolCalls: [{ name: 'create_file', arguments: { type: 'draft', title: `Chapter ${n}` } }] },
});
const streams = (n: number, stallAfterChars?: number): ScriptEntry => ({
  match: asks(n),
  reply: { content: `<file>\n${bodyOf(n)}\n</file>` },
  ...(stallAfterChars !== undefined ? { stallAfterChars } : {}),
});
const sums = (n: number): ScriptEntry => ({ match: asks(n), reply: { content: `Chapter ${n} is saved.` } });
const writes = (n: number): ScriptEntry[] => [opens(n), streams(n), sums(n)];

test('SIGKILL in the middle of chapter 3 of 10 leaves chapters 1–2 untouched and the job finishes on a new worker', async () => {
  const { projectId } = await createProjectAndSession(h);
  const outline = Array.from({ length: CHAPTERS }, (_, i) => `Chapter ${i + 1}: Part ${i + 1} — the tide turns`).join(
    '\n',
  );
  expect(
    (await api(h, 'POST', '/api/v1/files', { projectId, type: 'outline', title: 'Outline', content: outline })).status,
  ).toBe(201);
  // Chapter 3's body stalls mid-stream (the worker dies there); its retry gets the whole body.
  const rest = Array.from({ length: CHAPTERS - 3 }, (_, i) => writes(i + 4)).flat();
  h.model.script([...writes(1), ...writes(2), opens(3), streams(3, 150), streams(3), sums(3), ...rest]);

  workers.push(await spawnWorker(h));
  const { jobId } = await startJob(h, { projectId, chapters: { from: 1, to: CHAPTERS } });
  // The stalled entry is taken and its response is open: chapter 3 is half-streamed.
  await waitFor(
    'chapter 3 mid-stream',
    async () => h.model.pendingEntries() === 2 + rest.length && h.model.activeResponses() === 1,
    60000,
  );
  const before = await chapterSnapshot(h, projectId);
  expect(before.get(1)?.[0]?.versions).toHaveLength(1);
  expect(before.get(2)?.[0]?.versions).toHaveLength(1);
  expect(before.get(3)?.[0]?.versions ?? []).toHaveLength(0); // opened, body not saved yet

  await workers[0]!.kill('SIGKILL');
  const killedAt = Date.now();
  expect(workers[0]!.proc.signalCode).toBe('SIGKILL');
  workers.push(await spawnWorker(h));
  const replacementUpAt = Date.now();
  const result = await waitJob(h, jobId);
  expect(result).toMatchObject({ status: 'completed', chaptersDone: CHAPTERS });

  const after = await chapterSnapshot(h, projectId);
  expect(after.get(1)).toEqual(before.get(1));
  expect(after.get(2)).toEqual(before.get(2));
  for (let n = 3; n <= CHAPTERS; n++) {
    expect(after.get(n)).toHaveLength(1);
    expect(after.get(n)![0]!.versions).toHaveLength(1);
    expect(after.get(n)![0]!.content.trim()).toBe(bodyOf(n));
  }
  // Chapter 3 is the same file the killed attempt opened.
  expect(after.get(3)![0]!.id).toBe(before.get(3)![0]!.id);

  // The chapter-3 turn went on from the text its killed attempt streamed (its body above is
  // the whole chapter, with no seam); the job stream has no duplicates and records chapter 3
  // exactly once.
  const turn3 = await h.runtime.models.Turn.findOne({ jobId, message: /^Write Chapter 3 / }).lean();
  const comebacks = (await turnEvents(h, String(turn3!._id))).filter(
    (e) => e.type === 'step_retry' || e.type === 'step_resumed',
  );
  expect(comebacks.map((e) => e.type)).toEqual(['step_resumed']);
  expect((comebacks[0]!.data as { keptChars: number }).keptChars).toBeGreaterThan(0);
  // Recovery, printed (a figure, not a timed assertion): from the kill, which here includes
  // booting the replacement worker process, and from when that worker was up.
  const resumedAt = Date.parse(comebacks[0]!.ts);
  console.log(
    `job chapter killed mid-stream → step_resumed: ${resumedAt - killedAt} ms from the kill, ` +
      `${Math.max(0, resumedAt - replacementUpAt)} ms after the replacement worker was up`,
  );
  // The chat on record reads the same for the killed chapter as for one nobody killed.
  const chatOf = async (n: number) => {
    const turn = await h.runtime.models.Turn.findOne({ jobId, message: new RegExp(`^Write Chapter ${n} `) }).lean();
    const messages = await h.runtime.models.Message.find({ turnId: String(turn!._id), role: 'assistant' })
      .sort({ seq: 1 })
      .lean();
    return messages.map((m) => m.content.replaceAll(`Chapter ${n}`, 'Chapter N'));
  };
  expect(await chatOf(1)).toContain('Chapter N is saved.');
  for (let n = 2; n <= CHAPTERS; n++) expect(await chatOf(n)).toEqual(await chatOf(1));
  const events = await jobEvents(h, jobId);
  const seqs = events.map((e) => e.seq);
  expect(new Set(seqs).size).toBe(seqs.length);
  expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  expect(progressOf(events).filter((p) => p.data.message?.startsWith('Chapter 3 written'))).toHaveLength(1);
  expect(events[events.length - 1]).toMatchObject({ type: 'done', data: { status: 'completed' } });
  expect(h.model.failures).toEqual([]);
}, 180_000);
