/**
 * Routing inputs and fallbacks, prompt composition, human-in-the-loop signals (interrupt,
 * steer), the state query, search attributes, activity summaries and finalization.
 */
import {
  api,
  createHarness,
  expectScriptFullyUsed,
  createProjectAndSession,
  type Harness,
  postTurn,
  runTurn,
  turnEvents,
  waitTurn,
} from '../helpers/harness';
import { agentsSelected, call, ofType, requestsOf, router, say, streamFile, words } from '../helpers/script';
import { stateQuery } from '../../src/core/turn/messages';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '5000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

test('the router sees the previous ending (600 chars), a status card and the previous routing as one JSON line', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const longEnding = `${'x'.repeat(700)} ENDING-MARK`;
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', scope: 'first' }),
    say('writer', longEnding),
  ]);
  await runTurn(h, sessionId, 'Write a scene');
  h.model.reset();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', scope: 'x'.repeat(120) }),
    say('writer', 'ok'),
  ]);
  const second = await runTurn(h, sessionId, 'Now a different scene');
  const routerMsg = String(h.model.requests.find((r) => r.agent === 'router')!.body.messages[1]!.content);
  expect(routerMsg).toContain('[previous assistant ending]');
  const ending = routerMsg.split('[previous assistant ending]\n')[1]!.split('\n')[0]!;
  expect(Array.from(ending)).toHaveLength(600);
  expect(ending.endsWith('ENDING-MARK')).toBe(true);
  expect(routerMsg).toMatch(/\[status\] completed/);
  const routingLine = routerMsg.split('[previous routing]\n')[1]!.split('\n')[0]!;
  expect(JSON.parse(routingLine)).toMatchObject({ scope: 'first', workflow_plan: 'quick' });
  expect(routerMsg.endsWith('[user message]\nNow a different scene')).toBe(true);
  expect(Array.from(String(second.turn.routing!.scope))).toHaveLength(80);
});

test('an invalid router answer degrades to the writer alone and records why', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    { match: { agent: 'router' }, reply: { content: 'I think the planner should go first!' } },
    say('writer', 'Here you go.'),
  ]);
  const r = await runTurn(h, sessionId, 'Write something');
  expect(r.turn.routing).toMatchObject({ source: 'fallback', current_agent: 'writer', workflow_plan: 'quick' });
  expect(r.turn.routing!.notes[0]).toMatch(/router answer is not JSON/);
  h.model.reset();
  h.model.script([
    { match: { agent: 'router' }, reply: { content: '{"current_agent":"editor","workflow_plan":"quick"}' } },
    say('writer', 'ok'),
  ]);
  const r2 = await runTurn(h, (await createProjectAndSession(h)).sessionId, 'Write');
  expect(r2.turn.routing!.notes[0]).toMatch(/router answer invalid: current_agent/);
});

test('prompts are composed per agent: role header, project type, scope directive, reply language', async () => {
  const p = await api<{ id: string }>(h, 'POST', '/api/v1/projects', { title: '剧本', type: 'screenplay' });
  const s = await api<{ id: string }>(h, 'POST', '/api/v1/sessions', { projectId: p.body.id });
  h.model.script([
    router({
      current_agent: 'planner',
      workflow_plan: 'standard',
      workflow_agents: ['planner', 'writer'],
      scope: '第一集大纲和正文',
    }),
    say('planner', '大纲已经想好了。'),
    say('writer', '第一集写好了。'),
  ]);
  await runTurn(h, s.body.id, '帮我规划并写出第一集');
  const planner = requestsOf(h.model, 'planner')[0]!;
  const writer = requestsOf(h.model, 'writer')[0]!;
  expect(planner.system).toMatch(/^# Scriptorium agent: planner$/m);
  expect(writer.system).toMatch(/^# Scriptorium agent: writer$/m);
  // What every agent shares comes first, the role after it, this turn's directives last (a
  // provider's prefix cache serves the shared start to every agent).
  const shared = (a: string, b: string) => [...a].findIndex((c, i) => c !== b[i]);
  expect(shared(planner.system, writer.system)).toBe(
    planner.system.indexOf('# Scriptorium agent: planner') + '# Scriptorium agent: '.length,
  );
  // The role follows the project and this turn's context, and both are sent one tool list, so
  // the writer's whole prompt up to its role repeats the planner's.
  expect(planner.system.indexOf('# Scriptorium agent: planner')).toBeGreaterThan(
    planner.system.indexOf('## Project files'),
  );
  expect(writer.tools).toEqual(planner.tools);
  expect(JSON.stringify(requestsOf(h.model, 'writer')[0]!.toolDescriptions)).toBe(
    JSON.stringify(planner.toolDescriptions),
  );
  expect(planner.system.indexOf("Author's scope for this turn")).toBeGreaterThan(
    planner.system.indexOf('Project type: screenplay'),
  );
  for (const r of [planner, writer]) {
    expect(r.system).toContain('Project type: screenplay');
    expect(r.system).toContain("Author's scope for this turn: 第一集大纲和正文");
    expect(r.system).toContain('Reply language: Simplified Chinese');
  }
  // Only planning roles are told the writer takes over.
  expect(planner.system).toContain('the writer takes over automatically');
  expect(writer.system).not.toContain('the writer takes over automatically');
});

test('request_clarification stops the turn; the short answer inherits the routing and goes back to that agent', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({
      current_agent: 'planner',
      workflow_plan: 'standard',
      workflow_agents: ['planner', 'writer'],
      scope: 'plan and write',
    }),
    call('planner', 'request_clarification', { question: 'First person or third?', options: ['first', 'third'] }),
  ]);
  const first = await runTurn(h, sessionId, 'Plan my novel and write chapter 1');
  expect(first.outcome).toMatchObject({ status: 'awaiting_author', stopReason: 'clarification_requested' });
  expect(ofType(first.events, 'workflow_stopped')[0]!.data).toMatchObject({
    reason: 'clarification_requested',
    message: 'First person or third?',
  });
  h.model.reset();
  h.model.script([say('planner', 'Third person it is; plan saved.'), say('writer', 'Chapter 1 in third person.')]);
  const second = await runTurn(h, sessionId, 'third');
  expect(second.turn.routing).toMatchObject({ source: 'inherit_after_question', scope: 'plan and write' });
  expect(agentsSelected(second.events)).toEqual(['planner', 'writer']);
});

test('steer: the next LLM step sees the extra instruction and the stream shows steering_received', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    {
      match: { agent: 'writer' },
      reply: { content: 'Thinking…', toolCalls: [{ name: 'query_files', arguments: { query: 'storm' } }] },
      ttftMs: 1500,
    },
    say('writer', 'Done, and shorter.'),
  ]);
  const turnId = await postTurn(h, sessionId, 'Write a storm scene');
  await h.model.waitForRequests(2);
  const steer = await api(h, 'POST', `/api/v1/turns/${turnId}/steer`, { message: 'Keep it under 200 words' });
  expect(steer.status).toBe(202);
  await waitTurn(h, turnId);
  const last = requestsOf(h.model, 'writer')[1]!;
  expect(last.all).toContain('[author steering] Keep it under 200 words');
  const events = await turnEvents(h, turnId);
  expect(ofType(events, 'steering_received')[0]!.data.message).toBe('Keep it under 200 words');
  // After the turn, signals are refused with 409 rather than lost.
  expect((await api(h, 'POST', `/api/v1/turns/${turnId}/steer`, { message: 'late' })).status).toBe(409);
});

test('interrupt cancels the in-flight LLM step; the turn ends interrupted; the pending empty file is rolled back', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 4' }),
    { match: { agent: 'writer' }, reply: { content: `<file>\n${words(400)}\n</file>` }, stallAfterChars: 200 },
  ]);
  const turnId = await postTurn(h, sessionId, 'Write chapter 4');
  await h.model.waitForRequests(3);
  // While the model stalls mid-file, the state query reports the writer at step 2.
  const handle = h.runtime.temporal.workflow.getHandle(`turn-${turnId}`);
  const state = await handle.query(stateQuery);
  expect(state).toMatchObject({ agent: 'writer', step: 2, status: 'running', plan: 'quick' });
  const started = Date.now();
  expect((await api(h, 'POST', `/api/v1/turns/${turnId}/interrupt`, {})).status).toBe(202);
  const outcome = await waitTurn(h, turnId);
  expect(Date.now() - started).toBeLessThan(10000);
  expect(outcome).toMatchObject({ status: 'interrupted', stopReason: 'interrupted' });
  const events = await turnEvents(h, turnId);
  expect(ofType(events, 'workflow_stopped')[0]!.data).toMatchObject({ reason: 'interrupted', terminal: true });
  expect(events[events.length - 1]!.type).toBe('done');
  expect(await h.runtime.models.File.countDocuments({ projectId })).toBe(0);
  // The model's stream was abandoned (the activity's cancellation reached the HTTP request).
  for (let i = 0; i < 50 && h.model.activeResponses() > 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(h.model.activeResponses()).toBe(0);
});

test('search attributes, activity summaries and finalization (breadcrumbs, routing, usage roll-up)', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', scope: 'chapter 3' }),
    ...streamFile('writer', '第3章', words(40)),
    say('writer', 'Saved.'),
  ]);
  const r = await runTurn(h, sessionId, 'Write chapter 3');
  const handle = h.runtime.temporal.workflow.getHandle(`turn-${r.turnId}`);
  const desc = await handle.describe();
  const sa = desc.typedSearchAttributes;
  const get = (name: string) => sa.getAll().find((p) => p.key.name === name)?.value;
  expect(get('ProjectId')).toBe(projectId);
  expect(get('SessionId')).toBe(sessionId);
  expect(get('TurnStatus')).toBe('completed');
  expect(get('WorkflowPlan')).toBe('quick');
  expect(get('CurrentAgent')).toBe('writer');
  const history = await handle.fetchHistory();
  const summaries = (history.events ?? [])
    // Short activities run local (h9-local-activities): their summaries sit on their markers.
    .filter((e) => e.activityTaskScheduledEventAttributes || e.markerRecordedEventAttributes)
    .map((e) => e.userMetadata?.summary?.data)
    .filter(Boolean)
    .map((d) => JSON.parse(Buffer.from(d as Uint8Array).toString()));
  // The step runs its own tool calls (h11-tools-in-step): its result names them for Temporal UI.
  expect(summaries).toContain('writer · step 1 · model');
  const results = (history.events ?? [])
    .map((e) => e.activityTaskCompletedEventAttributes?.result?.payloads?.[0]?.data)
    .filter(Boolean)
    .map(
      (d) =>
        JSON.parse(Buffer.from(d as Uint8Array).toString()) as {
          toolCalls?: { summary: string }[];
          toolOutcomes?: unknown[];
        },
    );
  expect(
    results.some((r) => r.toolCalls?.some((c) => c.summary === 'create_file 第3章') && r.toolOutcomes?.length === 1),
  ).toBe(true);
  // The step that streams the chapter also saves it (h10-capture-in-step).
  expect(summaries).toContain('writer · step 2 · model · save <file>');
  // Usage: one record per LLM step, rolled up on the turn.
  const records = await h.runtime.models.UsageRecord.find({ turnId: r.turnId }).lean();
  expect(records.length).toBeGreaterThanOrEqual(4);
  const sum = records.reduce((n, x) => n + x.totalTokens, 0);
  expect(r.turn.usage).toMatchObject({ totalTokens: sum, estimated: false });
  expect(ofType(r.events, 'usage').every((e) => e.data.source === 'provider')).toBe(true);
  const msgs = await h.runtime.models.Message.find({ sessionId }).sort({ seq: 1 }).lean();
  expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
  expect(msgs[1]!.breadcrumb).toEqual([{ op: 'created', fileId: expect.any(String), title: '第3章' }]);
});
