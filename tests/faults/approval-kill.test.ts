/**
 * The wait for an author's approval is durable: the worker running the turn is
 * SIGKILLed while the turn waits, a fresh worker takes over, the author approves, and the
 * call runs exactly once.
 */
import {
  api,
  createAuthorFile,
  createHarness,
  createProjectAndSession,
  type Harness,
  postTurn,
  turnEvents,
  waitTurn,
} from '../helpers/harness';
import { call, ofType, router, say } from '../helpers/script';
import { spawnWorker, type WorkerProcess } from '../helpers/worker-process';

let h: Harness;
let worker: WorkerProcess | null = null;
beforeAll(async () => {
  h = await createHarness({
    noWorker: true,
    config: {
      LLM_HEARTBEAT_TIMEOUT_SECONDS: '2',
      STORE_HEARTBEAT_TIMEOUT_SECONDS: '2',
      REVIEW_WORD_THRESHOLD: '100000',
    },
  });
});
afterAll(async () => {
  await worker?.kill();
  await h?.close();
});

test('a worker killed while the turn waits for approval loses nothing: the next worker runs the approved call once', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const id = await createAuthorFile(h, projectId, 'Chapter 2', 'The author wrote chapter two.');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'delete_file', { id }),
    say('writer', 'Chapter 2 is in the trash.'),
  ]);
  worker = await spawnWorker(h);
  const turnId = await postTurn(h, sessionId, 'Go through the project files');
  let approvalId = '';
  for (let i = 0; i < 600 && !approvalId; i++) {
    const t = await h.runtime.models.Turn.findById(turnId).lean();
    approvalId =
      t?.status === 'awaiting_approval' ? String((t.pendingApproval as { approvalId: string }).approvalId) : '';
    if (!approvalId) await new Promise((r) => setTimeout(r, 50));
  }
  expect(approvalId).not.toBe('');
  await worker.kill('SIGKILL');
  worker = await spawnWorker(h);
  // The decision reaches the workflow through the new worker (the update needs one to run it).
  const decided = await api(h, 'POST', `/api/v1/turns/${turnId}/approvals/${approvalId}`, { decision: 'approve' });
  expect(decided.status).toBe(200);
  expect(await waitTurn(h, turnId)).toMatchObject({ status: 'completed' });
  expect((await h.runtime.models.File.findById(id).lean())?.deletedAt).not.toBeNull();
  const events = await turnEvents(h, turnId);
  expect(ofType(events, 'approval_requested')).toHaveLength(1);
  expect(ofType(events, 'approval_decided').map((e) => e.data.decision)).toEqual(['approve']);
  expect(ofType(events, 'tool_result').map((e) => [e.data.name, e.data.ok])).toEqual([['delete_file', true]]);
}, 120000);
