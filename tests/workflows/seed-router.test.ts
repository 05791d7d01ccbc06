/**
 * The router call: small and capped (its model, temperature 0, a max_tokens cap, as the
 * offline model recorded the request), and its degrade chain, link by link: a request the provider rejects (4xx) falls back
 * at once, a router that keeps failing (5xx, a request that never answers) falls back after
 * its retries, and each fallback is the writer alone on the quick plan with the reason in the
 * routing's notes — on the Turn and in what the API answers for it. The turn itself goes on.
 */
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { agentsSelected, requestsOf, router, say } from '../helpers/script';
import type { RoutingDecision } from '../../src/core/plans';
import { OPENAI_ROUTER_MODEL, routerModelOf } from '../../src/config';
import { ROUTER_MAX_TOKENS } from '../../src/activities/turn/router';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '5000', ROUTER_TIMEOUT_SECONDS: '1' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

const FALLBACK = { source: 'fallback', current_agent: 'writer', workflow_plan: 'quick', workflow_agents: [] };

/** Runs one turn whose router answers `routerEntries` in turn, then the writer; returns the routing on record. */
async function routedAfter(routerEntries: object[]): Promise<{ routing: RoutingDecision; turnId: string }> {
  const { sessionId } = await createProjectAndSession(h);
  h.model.reset();
  h.model.script([...routerEntries, say('writer', 'Here is the scene.')] as Parameters<typeof h.model.script>[0]);
  const r = await runTurn(h, sessionId, 'Write the opening scene of the heist');
  expect(r.outcome.status).toBe('completed');
  expect(agentsSelected(r.events)).toEqual(['writer']);
  expect(requestsOf(h.model, 'router')).toHaveLength(routerEntries.length);
  const record = await api<{ routing: RoutingDecision }>(h, 'GET', `/api/v1/turns/${r.turnId}`);
  expect(record.body.routing).toEqual(r.turn.routing);
  return { routing: r.turn.routing!, turnId: r.turnId };
}

test('a router request the provider rejects (400) falls back at once, the rejection in the notes', async () => {
  const { routing } = await routedAfter([
    { match: { agent: 'router' }, error: { status: 400, message: 'model rejected the request: bad parameter' } },
  ]);
  expect(routing).toMatchObject(FALLBACK);
  expect(routing.notes).toHaveLength(1);
  expect(routing.notes[0]).toMatch(/^router fallback: router call rejected: 400 .*bad parameter/);
});

test('a router failing with 5xx on every attempt falls back after its three attempts, saying it was unavailable', async () => {
  const down = { match: { agent: 'router' }, error: { status: 503, message: 'upstream overloaded' } };
  const { routing } = await routedAfter([down, down, down]);
  expect(routing).toMatchObject(FALLBACK);
  expect(routing.notes[0]).toMatch(/^router fallback: router unavailable: .*upstream overloaded/);
}, 60_000);

test('a router that never answers times out on each attempt and falls back, saying it was unavailable', async () => {
  const silent = { match: { agent: 'router' }, stallAfterChars: 0, reply: { content: '{}' } };
  const { routing } = await routedAfter([silent, silent, silent]);
  expect(routing).toMatchObject(FALLBACK);
  expect(routing.notes[0]).toMatch(/^router fallback: router unavailable: router timed out after 1 s/);
}, 60_000);

test('a router that recovers on its second attempt routes as it answered: no fallback', async () => {
  const { routing } = await routedAfter([
    { match: { agent: 'router' }, error: { status: 500, message: 'internal error' } },
    {
      match: { agent: 'router' },
      reply: {
        content: JSON.stringify({
          current_agent: 'writer',
          workflow_plan: 'quick',
          workflow_agents: [],
          write_content: true,
          read_only: false,
          scope: 'opening scene',
        }),
      },
    },
  ]);
  expect(routing).toMatchObject({ source: 'llm', current_agent: 'writer', scope: 'opening scene' });
  expect(routing.notes).toEqual([]);
}, 60_000);

test('the router request names its model, asks for temperature 0 and caps its answer at a few hundred tokens', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.reset();
  h.model.script([router({ current_agent: 'writer', workflow_plan: 'quick' }), say('writer', 'Done.')]);
  await runTurn(h, sessionId, 'Write the opening scene of the heist');
  const bodyOf = (agent: string) => h.model.requests.find((r) => r.agent === agent)?.body as Record<string, unknown>;
  const sent = bodyOf('router');
  const writer = bodyOf('writer');
  // Offline, the router names the model every agent names: the offline model's own.
  expect(sent).toMatchObject({ model: h.config.OPENAI_MODEL, temperature: 0, max_tokens: ROUTER_MAX_TOKENS });
  expect(sent!.model).toBe(writer!.model);
  expect(ROUTER_MAX_TOKENS).toBeGreaterThanOrEqual(150);
  expect(ROUTER_MAX_TOKENS).toBeLessThanOrEqual(500);
  // An agent's answer is not capped this way: the cap is the router's.
  expect(writer!.max_tokens).toBeUndefined();
});

test('the router request carries no tools: it only classifies, and its answer is the one routing decision', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.reset();
  h.model.script([router({ current_agent: 'writer', workflow_plan: 'quick' }), say('writer', 'Done.')]);
  await runTurn(h, sessionId, 'Write the opening scene of the heist');
  const bodyOf = (agent: string) => h.model.requests.find((r) => r.agent === agent)?.body as Record<string, unknown>;
  const sent = bodyOf('router');
  expect(sent).not.toHaveProperty('tools');
  expect(sent).not.toHaveProperty('tool_choice');
  expect(sent).not.toHaveProperty('parallel_tool_calls');
  // Only a system prompt and the author's message: no tool turns either.
  expect((sent.messages as { role: string }[]).map((m) => m.role)).toEqual(['system', 'user']);
  // The same request shape for an agent does carry tools: the check can tell.
  expect((bodyOf('writer').tools as unknown[]).length).toBeGreaterThan(0);
  expect(h.model.requests.filter((r) => r.agent === 'router')).toHaveLength(1);
});

test("the router's model: ROUTER_MODEL, else a small model on OpenAI's API, else the agents' model", () => {
  const on = (env: Partial<Parameters<typeof routerModelOf>[0]>) =>
    routerModelOf({ OPENAI_MODEL: 'gpt-4o', ...env } as Parameters<typeof routerModelOf>[0]);
  expect(OPENAI_ROUTER_MODEL).toBe('gpt-4o-mini');
  // OpenAI's API (the default base URL or its address): its small model, whatever the agents use.
  expect(on({ OPENAI_API_KEY: 'sk-x' })).toBe('gpt-4o-mini');
  expect(on({ OPENAI_API_KEY: 'sk-x', OPENAI_MODEL: 'gpt-5' })).toBe('gpt-4o-mini');
  expect(on({ OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: 'https://api.openai.com/v1' })).toBe('gpt-4o-mini');
  // A small GPT-4 model is kept.
  expect(on({ OPENAI_API_KEY: 'sk-x', OPENAI_MODEL: 'gpt-4.1-nano' })).toBe('gpt-4.1-nano');
  // Another provider's small model cannot be guessed: the agents' model.
  expect(on({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'https://api.deepseek.com', OPENAI_MODEL: 'deepseek-chat' })).toBe(
    'deepseek-chat',
  );
  // Offline: the id the agents send.
  expect(on({})).toBe('gpt-4o');
  // ROUTER_MODEL wins everywhere.
  expect(on({ OPENAI_API_KEY: 'sk-x', ROUTER_MODEL: 'gpt-4.1-mini' })).toBe('gpt-4.1-mini');
  expect(on({ ROUTER_MODEL: 'local-small' })).toBe('local-small');
});
