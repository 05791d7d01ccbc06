/**
 * The router's reads started by `prepareTurn` (src/activities/turn/router-input.ts): the router
 * takes the message read at the start of the turn, once; a retried router call (or one in
 * another worker) reads anew, and a turn that is gone is reported, not routed.
 */
import { prefetchRouterInput, routerInput } from '../../src/activities/turn/router-input';
import { readSessionMessages } from '../../src/activities/turn/session-messages';
import { createWorkerCaches } from '../../src/activities/worker-caches';
import { newId } from '../../src/db/models';
import { useScratchDb } from '../helpers/scratch-db';

const db = useScratchDb('router_input');

async function session() {
  const projectId = await db.newProject();
  const sessionId = newId();
  const earlier = await db.models.Turn.create({
    sessionId,
    projectId,
    ownerId: 'u1',
    message: 'Write chapter 1',
    workflowId: 'turn-a',
    status: 'completed',
    routing: { workflow_plan: 'write_only' },
  });
  await db.models.Message.create({
    sessionId,
    projectId,
    turnId: String(earlier._id),
    role: 'assistant',
    content: 'Chapter 1 is done. Shall I go on?',
    seq: 2,
    key: `${projectId}:m2`,
  });
  const turn = await db.models.Turn.create({
    sessionId,
    projectId,
    ownerId: 'u1',
    message: 'Yes, go on',
    workflowId: 'turn-b',
  });
  return { projectId, sessionId, turn: turn.toObject() };
}

const readTurn = (id: unknown) => () => db.models.Turn.findById(id).lean();

test('the router gets the previous reply as it was when the turn was prepared, once', async () => {
  const { projectId, sessionId, turn } = await session();
  // One worker's router reads: prepareTurn starts them, the router takes them.
  const { routerInputs } = createWorkerCaches();
  prefetchRouterInput(db.models, routerInputs, turn, readSessionMessages(db.models, sessionId));
  await new Promise((r) => setTimeout(r, 300));
  // A later reply in the session (it cannot happen while the turn holds the lock, but it shows which read is used).
  await db.models.Message.create({
    sessionId,
    projectId,
    turnId: newId(),
    role: 'assistant',
    content: 'Something else entirely.',
    seq: 3,
    key: `${projectId}:m3`,
  });
  const first = await routerInput(db.models, routerInputs, String(turn._id), readTurn(turn._id));
  expect(first!.message).toContain('Chapter 1 is done. Shall I go on?');
  expect(first!.message).toContain('[previous routing]\n{"workflow_plan":"write_only"}');
  expect(first!.message.endsWith('[user message]\nYes, go on')).toBe(true);
  expect(String(first!.turn._id)).toBe(String(turn._id));
  // Taken once: a retry reads the session as it is now.
  const retry = await routerInput(db.models, routerInputs, String(turn._id), readTurn(turn._id));
  expect(retry!.message).toContain('Something else entirely.');
});

test('without an early read the router reads itself; a missing turn gives null', async () => {
  const { turn } = await session();
  const { routerInputs } = createWorkerCaches();
  const read = await routerInput(db.models, routerInputs, String(turn._id), readTurn(turn._id));
  expect(read!.message).toContain('[status] completed; files touched: 0; closing question: ');
  expect(await routerInput(db.models, routerInputs, 'no-such-turn', async () => null)).toBeNull();
});
