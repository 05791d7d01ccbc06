/**
 * ROUTER_STRATEGY (`llm` or `off`): with `off` every turn starts with the writer
 * and no router call is made, even for a message the router would send to the planner.
 */
import { Worker } from '@temporalio/worker';
import { loadConfig } from '../../src/config';
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
  testBundle,
} from '../helpers/harness';
import { agentsSelected, say } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { ROUTER_STRATEGY: 'off', REVIEW_WORD_THRESHOLD: '5000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

test('ROUTER_STRATEGY=off: the writer starts every turn and the router model is never called', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    say('writer', 'Here is a first idea for the plan.'),
    say('writer', 'What should I change: pacing or dialogue?'),
  ]);
  const r = await runTurn(h, sessionId, 'Plan a 30-chapter mystery novel with an outline');
  // And a vague edit request, which pre-routing would otherwise turn into a clarify-first turn.
  const r2 = await runTurn(h, sessionId, 'polish it');
  expect(h.model.requests.map((q) => q.agent)).toEqual(['writer', 'writer']);
  expect(agentsSelected(r.events)).toEqual(['writer']);
  expect(r.turn.routing).toMatchObject({
    current_agent: 'writer',
    workflow_plan: 'quick',
    workflow_agents: [],
    source: 'router_off',
    clarify_first: false,
  });
  expect(r2.turn.routing).toMatchObject({ current_agent: 'writer', source: 'router_off' });
  const history = await h.runtime.temporal.workflow.getHandle(`turn-${r.turnId}`).fetchHistory();
  await Worker.runReplayHistory(
    { workflowBundle: testBundle(), replayName: 'router-off' },
    history,
    `turn-${r.turnId}`,
  );
});

test('ROUTER_STRATEGY accepts llm or off only; llm is the default', () => {
  expect(loadConfig({ env: { SCRIPTORIUM_ENV_PRIORITY: 'none' } }).ROUTER_STRATEGY).toBe('llm');
  expect(() => loadConfig({ env: { SCRIPTORIUM_ENV_PRIORITY: 'none', ROUTER_STRATEGY: 'sometimes' } })).toThrow(
    /ROUTER_STRATEGY/,
  );
});
