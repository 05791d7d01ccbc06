/**
 * The noise gate in front of the router: noise gets a friendly question with no
 * agent work, and the first stream event goes out before the router's model call.
 */
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  postTurn,
  runTurn,
  turnEvents,
  waitTurn,
} from '../helpers/harness';
import { chatText, ofType, router, say, types } from '../helpers/script';
import { NOISE_REPLY } from '../../src/activities/turn/turn-opening';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

test('a noise message ("???") gets a friendly question, no router or agent model call, and the turn waits for the author', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([router({ current_agent: 'writer', workflow_plan: 'quick' }), say('writer', 'Chapter 1 is planned.')]);
  await runTurn(h, sessionId, 'Plan chapter 1 for me');
  h.model.reset();

  const r = await runTurn(h, sessionId, '???');
  expect(h.model.requests).toHaveLength(0);
  expect(r.outcome).toMatchObject({ status: 'awaiting_author', stopReason: 'clarification_requested', agents: [] });
  expect(types(r.events)).toEqual(['turn_started', 'content', 'workflow_stopped', 'done']);
  // In the language the author last wrote in.
  expect(chatText(r.events)).toBe(NOISE_REPLY.en);
  expect(ofType(r.events, 'workflow_stopped')[0]!.data).toMatchObject({
    reason: 'clarification_requested',
    terminal: true,
  });
  const reply = await h.runtime.models.Message.findOne({ turnId: r.turnId, role: 'assistant' }).lean();
  expect(reply).toMatchObject({ agent: 'router', content: NOISE_REPLY.en });

  for (const noise of ['…', '。。。', '？！']) {
    const n = await runTurn(h, sessionId, noise);
    expect([n.outcome.status, h.model.requests.length]).toEqual(['awaiting_author', 0]);
  }
});

test('the first event (turn_started) is on the stream before the router’s model call', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([router({ current_agent: 'writer', workflow_plan: 'quick' }), say('writer', 'Hello.')]);
  const routerAsked = h.model.waitForRequests(1);
  const turnId = await postTurn(h, sessionId, 'Say hello');
  await routerAsked;
  // The router has just been asked; the client can already see the turn has started.
  const seen = await turnEvents(h, turnId);
  expect(seen[0]).toMatchObject({ type: 'turn_started', turnId, data: { sessionId } });
  await waitTurn(h, turnId);
  const all = await turnEvents(h, turnId);
  expect(all.filter((e) => e.type === 'turn_started')).toHaveLength(1);
  expect(all[0]!.type).toBe('turn_started');
  expect(all[1]!.type).toBe('agent_selected');
});
