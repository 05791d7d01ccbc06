/**
 * Spend limits: turns and jobs per user per window, counted in Redis so a second API
 * replica (a real process) enforces the same count; 429 with Retry-After and the JSON error
 * body; only requests that start something count; another user is not affected.
 */
import { WorkflowFailedError } from '@temporalio/client';
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  waitTurn,
} from '../helpers/harness';
import { startReplica, type Replica } from '../helpers/replica';
import { router, say } from '../helpers/script';

const LIMITS = {
  RATE_LIMIT_TURNS: '2',
  RATE_LIMIT_TURNS_WINDOW_SECONDS: '120',
  RATE_LIMIT_JOBS: '1',
  RATE_LIMIT_JOBS_WINDOW_SECONDS: '3600',
};
const ALICE = { authorization: 'Bearer alice-token-0123456789' };
const BOB = { authorization: 'Bearer bob-token-0123456789' };

let h: Harness;
let replica: Replica;
beforeAll(async () => {
  h = await createHarness({
    config: {
      ...LIMITS,
      API_TOKENS: 'alice-token-0123456789:alice,bob-token-0123456789:bob',
      STREAM_TOKEN_SECRET: 'rate-limit-test-secret-0123456789abcdef',
      REVIEW_WORD_THRESHOLD: '100000',
    },
  });
  replica = await startReplica(h, LIMITS);
}, 60000);
afterAll(async () => {
  await replica?.stop();
  await h?.close();
});
afterEach(() => expectScriptFullyUsed(h));

const quickTurn = () => [router({ current_agent: 'writer', workflow_plan: 'quick' }), say('writer', 'A line.')];

test('turns per user: the limit holds across replicas, answers 429 with Retry-After and a JSON body; refused requests do not count; other users are unaffected', async () => {
  const a = await createProjectAndSession(h, 'novel', ALICE);
  const s2 = await api<{ id: string }>(h, 'POST', '/api/v1/sessions', { projectId: a.projectId }, ALICE);
  const s3 = await api<{ id: string }>(h, 'POST', '/api/v1/sessions', { projectId: a.projectId }, ALICE);

  // Bad input does not start a turn, so it does not count.
  expect((await api(h, 'POST', `/api/v1/sessions/${a.sessionId}/turns`, { message: '' }, ALICE)).status).toBe(400);
  h.model.script([...quickTurn(), ...quickTurn()]);
  const t1 = await api<{ turnId: string }>(
    h,
    'POST',
    `/api/v1/sessions/${a.sessionId}/turns`,
    { message: 'Write a line' },
    ALICE,
  );
  expect(t1.status).toBe(202);
  // The second one goes through the other replica: same counter.
  const t2 = await api<{ turnId: string }>(
    replica,
    'POST',
    `/api/v1/sessions/${s2.body.id}/turns`,
    { message: 'Write a line' },
    ALICE,
  );
  expect(t2.status).toBe(202);
  await Promise.all([waitTurn(h, t1.body.turnId), waitTurn(h, t2.body.turnId)]);

  for (const target of [h, replica]) {
    const res = await fetch(`${target.baseUrl}/api/v1/sessions/${s3.body.id}/turns`, {
      method: 'POST',
      headers: { ...ALICE, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Write a line' }),
    });
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(120);
    const body = (await res.json()) as { error: { code: string; message: string; details: Record<string, number> } };
    expect(body.error.code).toBe('rate_limited');
    expect(body.error.details).toMatchObject({ limit: 2, windowSeconds: 120, retryAfterSeconds: retryAfter });
  }
  expect(await h.runtime.models.Turn.countDocuments({ sessionId: s3.body.id })).toBe(0);

  // Bob has his own budget.
  const b = await createProjectAndSession(h, 'novel', BOB);
  h.model.script(quickTurn());
  const tb = await api<{ turnId: string }>(
    replica,
    'POST',
    `/api/v1/sessions/${b.sessionId}/turns`,
    { message: 'Write a line' },
    BOB,
  );
  expect(tb.status).toBe(202);
  await waitTurn(h, tb.body.turnId);
});

test('jobs per user: the second job in the window answers 429 and starts nothing', async () => {
  const p1 = await createProjectAndSession(h, 'novel', BOB);
  const p2 = await createProjectAndSession(h, 'novel', BOB);
  const first = await api<{ jobId: string }>(
    h,
    'POST',
    '/api/v1/jobs',
    { projectId: p1.projectId, chapters: { from: 1, to: 2 } },
    BOB,
  );
  expect(first.status).toBe(202);
  expect((await api(h, 'POST', `/api/v1/jobs/${first.body.jobId}/cancel`, {}, BOB)).status).toBe(202);
  // The job ends cancelled (its result rejects) or, when it finished before the cancel landed,
  // completed: either way it no longer runs, and it still counts in the window.
  await h.runtime.temporal.workflow
    .getHandle(`job-${first.body.jobId}`)
    .result()
    .catch((err: unknown) => expect(err).toBeInstanceOf(WorkflowFailedError));

  const second = await api<{ error: { code: string } }>(
    replica,
    'POST',
    '/api/v1/jobs',
    { projectId: p2.projectId, chapters: { from: 1, to: 2 } },
    BOB,
  );
  expect(second.status).toBe(429);
  expect(second.body.error.code).toBe('rate_limited');
  expect(await h.runtime.models.Job.countDocuments({ projectId: p2.projectId })).toBe(0);
  h.model.reset();
});
