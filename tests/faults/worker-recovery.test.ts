/**
 * How fast a turn recovers when the worker running its LLM step goes away mid-stream, with
 * the default settings. Two real worker processes poll the queue; both carry the fault for
 * the step's first attempt, so whichever runs it goes away and the other runs attempt 2.
 * - SIGKILL (a crash): noticed by the short LLM heartbeat timeout (3 s) — the retried step's
 *   first event about 4 s later (it was 20 s with the old 20 s timeout).
 * - SIGTERM (an orderly shutdown): the worker cancels the step and hands it back at once —
 *   the retried step starts about 1 s later, and the process exits instead of finishing the
 *   stream (before, the step was never handed back: it streamed to the end, or died with the
 *   process).
 * The bounds leave room for a busy test machine; `npm run bench:recovery` reports the figures.
 */
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  postTurn,
  turnEvents,
  waitTurn,
} from '../helpers/harness';
import { readSse } from '../helpers/sse-client';
import { spawnWorker, type WorkerProcess } from '../helpers/worker-process';
import type { FaultRule } from '../../src/shared/faults';
import { recoveryScript } from '../helpers/recovery';

jest.setTimeout(120000);
let h: Harness;
let workers: WorkerProcess[] = [];

beforeAll(async () => {
  h = await createHarness({ noWorker: true, config: { REVIEW_WORD_THRESHOLD: '100000' } });
});
afterEach(async () => {
  await Promise.all(workers.map((w) => w.kill()));
  workers = [];
});
afterAll(async () => h?.close());

async function recoverAfter(signal: 'SIGKILL' | 'SIGTERM') {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const rule: FaultRule = { point: 'llm.mid_stream', match: { agent: 'writer', attempt: 1 }, signal };
  // One after the other: two cold starts at once are slow on a busy machine.
  workers.push(await spawnWorker(h, { TEST_FAULTS: JSON.stringify([rule]) }));
  workers.push(await spawnWorker(h, { TEST_FAULTS: JSON.stringify([rule]) }));
  let faultAt = 0;
  let exitedAt = 0;
  for (const w of workers) {
    w.proc.stderr!.on('data', (d: Buffer) => {
      if (!faultAt && d.toString().includes('FAULT llm.mid_stream')) faultAt = Date.now();
    });
    w.proc.once('exit', () => (exitedAt ||= Date.now()));
  }
  h.model.script(recoveryScript());
  const turnId = await postTurn(h, sessionId, 'Write chapter 1');
  let retryAt = 0;
  const sse = await readSse(`${h.baseUrl}/api/v1/turns/${turnId}/events`, {
    timeoutMs: 100000,
    onFrame: (f) => {
      // The retried step's first event: it goes on from the streamed text (step_resumed).
      if (f.event === 'step_resumed' || f.event === 'step_retry') retryAt ||= Date.now();
    },
  });
  const outcome = await waitTurn(h, turnId);
  const files = await h.runtime.models.File.find({ projectId }).lean();
  return { sse, outcome, faultAt, retryAt, exitedAt, files, events: await turnEvents(h, turnId) };
}

test('SIGKILL mid-stream with default settings: the step is retried on the other worker in seconds, not 20 s', async () => {
  const r = await recoverAfter('SIGKILL');
  expect(r.faultAt).toBeGreaterThan(0);
  expect(r.retryAt).toBeGreaterThan(0);
  console.log(`SIGKILL → step_resumed: ${r.retryAt - r.faultAt} ms`);
  expect(r.retryAt - r.faultAt).toBeLessThan(8000);
  expect(r.outcome.status).toBe('completed');
  expect(r.files.map((f) => [f.versionCount, f.words])).toEqual([[1, 600]]);
  expectScriptFullyUsed(h);
});

test('SIGTERM mid-stream: the worker hands the step back at once and exits', async () => {
  const r = await recoverAfter('SIGTERM');
  expect(r.faultAt).toBeGreaterThan(0);
  expect(r.retryAt).toBeGreaterThan(0);
  console.log(`SIGTERM → step_resumed: ${r.retryAt - r.faultAt} ms; worker exited after ${r.exitedAt - r.faultAt} ms`);
  expect(r.retryAt - r.faultAt).toBeLessThan(4000);
  // It stopped streaming and left, rather than finishing the chapter first.
  expect(r.exitedAt).toBeGreaterThan(0);
  expect(r.exitedAt - r.faultAt).toBeLessThan(5000);
  expect(r.outcome.status).toBe('completed');
  // The cancelled attempt's text was on the stream: the retry goes on from it.
  expect(r.events.filter((e) => e.type === 'step_retry' || e.type === 'step_resumed').map((e) => e.type)).toEqual([
    'step_resumed',
  ]);
  expect(r.files.map((f) => [f.versionCount, f.words])).toEqual([[1, 600]]);
  expectScriptFullyUsed(h);
});
