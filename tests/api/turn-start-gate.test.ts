/**
 * Turn starts queue in arrival order past TURN_START_CONCURRENCY: in a burst the
 * first turns start first instead of all of them sharing the API process. With one start at
 * a time, a second author's POST waits while the first start is held, then goes through.
 */
import { api, createHarness, createProjectAndSession, type Harness, postTurn, waitTurn } from '../helpers/harness';
import { router, say } from '../helpers/script';

let h: Harness;
let hold: { released: Promise<void>; reached: () => void } | null = null;

beforeAll(async () => {
  h = await createHarness({
    config: { TURN_START_CONCURRENCY: '1' },
    faults: {
      hit: () => undefined,
      async pause(point) {
        if (point !== 'api.turn.start' || !hold) return;
        const held = hold;
        hold = null;
        held.reached();
        await held.released;
      },
    },
  });
});
afterAll(async () => h?.close());

test('a second start waits for the one running, in arrival order, and both turns run', async () => {
  const first = await createProjectAndSession(h);
  const second = await createProjectAndSession(h);
  const reply = say('writer', 'Hello. Chapter one is ready when you are.');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    reply,
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    reply,
  ]);
  let release!: () => void;
  const reached = new Promise<void>((resolve) => {
    hold = { released: new Promise<void>((r) => (release = r)), reached: resolve };
  });
  const firstTurn = postTurn(h, first.sessionId, 'hello there');
  await reached;
  const secondTurn = api<{ turnId: string }>(h, 'POST', `/api/v1/sessions/${second.sessionId}/turns`, {
    message: 'hi there',
  });
  // The second request is in, and the start it needs is taken: nothing of its turn exists yet.
  await new Promise((r) => setTimeout(r, 300));
  expect(await h.runtime.models.Turn.countDocuments({ sessionId: { $in: [first.sessionId, second.sessionId] } })).toBe(
    0,
  );

  release();
  const [firstId, secondRes] = await Promise.all([firstTurn, secondTurn]);
  expect(secondRes.status).toBe(202);
  const turns = await h.runtime.models.Turn.find({ _id: { $in: [firstId, secondRes.body.turnId] } })
    .sort({ createdAt: 1, _id: 1 })
    .lean();
  expect(turns.map((t) => String(t._id))).toEqual([firstId, secondRes.body.turnId]);
  expect((await waitTurn(h, firstId)).status).toBe('completed');
  expect((await waitTurn(h, secondRes.body.turnId)).status).toBe('completed');
});
