/**
 * An API process that dies between taking the session lock (or the project's job claim)
 * and starting the workflow must not lock the session (project) forever. The replica is a
 * real process that SIGKILLs itself at the fault point; the surviving API then answers 409
 * while the holder could still be starting, and clears the dead holder after the grace.
 */
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  waitTurn,
} from '../helpers/harness';
import { startReplica } from '../helpers/replica';
import { router, say } from '../helpers/script';

const GRACE_SECONDS = 3;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { START_GRACE_SECONDS: String(GRACE_SECONDS), REVIEW_WORD_THRESHOLD: '100000' } });
}, 60000);
afterAll(async () => h?.close());

async function dyingReplica(point: string) {
  return startReplica(h, { TEST_FAULTS: JSON.stringify([{ point }]), START_GRACE_SECONDS: String(GRACE_SECONDS) });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a turn whose API process died before starting its workflow does not hold the session lock forever', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const replica = await dyingReplica('api.turn.before_workflow_start');
  const killedAt = Date.now();
  const dying = await fetch(`${replica.baseUrl}/api/v1/sessions/${sessionId}/turns`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'Write chapter 1' }),
  }).catch((err: Error) => err);
  expect(String((dying as Error).message)).toMatch(/fetch failed/);
  await replica.exited;

  // The window the crash left: a lock, a queued Turn, no workflow.
  const lock = await h.runtime.models.SessionLock.findById(sessionId).lean();
  expect(lock).not.toBeNull();
  const orphan = await h.runtime.models.Turn.findById(lock!.turnId).lean();
  expect(orphan?.status).toBe('queued');

  // Within the grace the holder may still be starting its workflow: 409 as before.
  const early = await api<{ error: { details: { turnId: string } } }>(
    h,
    'POST',
    `/api/v1/sessions/${sessionId}/turns`,
    { message: 'Write chapter 1' },
  );
  if (Date.now() - killedAt < GRACE_SECONDS * 1000) {
    expect(early.status).toBe(409);
    expect(early.body.error.details.turnId).toBe(lock!.turnId);
  }

  await sleep(GRACE_SECONDS * 1000 + 200);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    say('writer', 'Here is a thought about chapter 1.'),
  ]);
  const next = await api<{ turnId: string }>(h, 'POST', `/api/v1/sessions/${sessionId}/turns`, {
    message: 'Write chapter 1',
  });
  expect(next.status).toBe(202);
  expect((await waitTurn(h, next.body.turnId)).status).toBe('completed');
  // The dead turn is closed visibly, not left queued.
  const closed = await h.runtime.models.Turn.findById(lock!.turnId).lean();
  expect([closed?.status, closed?.stopReason]).toEqual(['failed', 'abandoned']);
  expectScriptFullyUsed(h);
}, 90000);

test('a job whose API process died before starting its workflow does not block the project forever', async () => {
  const { projectId } = await createProjectAndSession(h);
  const replica = await dyingReplica('api.job.before_workflow_start');
  const killedAt = Date.now();
  const dying = await fetch(`${replica.baseUrl}/api/v1/jobs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ projectId, chapters: { from: 1, to: 2 } }),
  }).catch((err: Error) => err);
  expect(String((dying as Error).message)).toMatch(/fetch failed/);
  await replica.exited;

  const orphan = await h.runtime.models.Job.findOne({ projectId }).lean();
  expect(orphan?.status).toBe('queued');
  expect(await h.runtime.models.JobClaim.countDocuments({ _id: projectId, jobId: String(orphan!._id) })).toBe(1);

  const early = await api(h, 'POST', '/api/v1/jobs', { projectId, chapters: { from: 1, to: 2 } });
  if (Date.now() - killedAt < GRACE_SECONDS * 1000) expect(early.status).toBe(409);

  await sleep(GRACE_SECONDS * 1000 + 200);
  const next = await api<{ jobId: string }>(h, 'POST', '/api/v1/jobs', { projectId, chapters: { from: 1, to: 2 } });
  expect(next.status).toBe(202);
  // The dead job is failed with a reason, and resumable (resume starts its workflow).
  const failed = await h.runtime.models.Job.findById(orphan!._id).lean();
  expect(failed?.status).toBe('failed');
  expect(failed?.failure).toMatch(/never started/);
  // Only the new job runs: stop it before it writes anything worth waiting for.
  expect((await api(h, 'POST', `/api/v1/jobs/${next.body.jobId}/cancel`, {})).status).toBe(202);
  await h.runtime.temporal.workflow.getHandle(`job-${next.body.jobId}`).result();
}, 90000);
