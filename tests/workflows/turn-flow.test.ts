/**
 * The multi-agent flow on real services: plans, handoffs, continuation rounds, the review
 * gate, the writer summary hold, closing questions, planner repair, exhaustion.
 * Each test scripts the model, runs one turn through the real workflow and asserts the
 * agent sequence, what each agent was sent, files in MongoDB and events on the stream.
 */
import {
  createHarness,
  expectScriptFullyUsed,
  createProjectAndSession,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { agentsSelected, call, chatText, ofType, requestsOf, router, say, streamFile, words } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '300', MAX_AGENT_RUNS: '6' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

test('standard plan: planner writes the outline, continuation round, then the writer with a handoff packet', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script([
    router({
      current_agent: 'planner',
      workflow_plan: 'standard',
      workflow_agents: ['planner', 'writer'],
      scope: 'outline + chapter 1',
    }),
    ...streamFile('planner', 'Outline', 'Chapter 1: Rain\nChapter 2: Boats', 'outline'),
    say('planner', 'The outline is saved.'),
    ...streamFile('writer', 'Chapter 1', words(120)),
    say('writer', 'Chapter 1 is written.'),
  ]);
  const { outcome, events, turn } = await runTurn(h, sessionId, 'Outline the book and write chapter 1');
  expect(outcome.status).toBe('completed');
  expect(agentsSelected(events)).toEqual(['planner', 'planner', 'writer', 'writer']);
  expect(ofType(events, 'handoff').map((e) => `${e.data.from}>${e.data.to}:${e.data.kind}`)).toEqual([
    'planner>planner:continuation',
    'planner>writer:planned',
    'writer>writer:continuation',
  ]);
  // Each card also reads as a sentence in the session's language.
  expect(ofType(events, 'handoff').map((e) => e.data.text)).toEqual([
    'The planner carries on where it stopped.',
    expect.stringMatching(/^Next in the plan: the writer/),
    'The writer carries on where it stopped.',
  ]);
  const writer = requestsOf(h.model, 'writer')[0]!;
  expect(writer.all).toContain('[handoff packet]');
  expect(writer.all).toContain('Do not redo what is already done.');
  expect(writer.all).toContain('Do not modify the files just delivered');
  expect(writer.all).toContain('Do not add output the author did not ask for.');
  expect(writer.all).toContain('outline + chapter 1');
  expect(writer.all).toMatch(/Outline \(id=[0-9a-f]{24}, outline\)/);
  const planner2 = requestsOf(h.model, 'planner')[2]!;
  expect(planner2.all).toContain('[file-stream continuation]');
  const files = await h.runtime.models.File.find({ projectId }).sort({ type: 1 }).lean();
  expect(files.map((f) => [f.type, f.title])).toEqual([
    ['draft', 'Chapter 1'],
    ['outline', 'Outline'],
  ]);
  expect(turn.routing).toMatchObject({ workflow_plan: 'standard', current_agent: 'planner', source: 'llm' });
  // Writer wrote 120 body words < threshold 300: no review.
  expect(agentsSelected(events)).not.toContain('quality_reviewer');
});

test('review gate: enough body words go to the reviewer with evidence; the writer’s summary is held and dropped', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', scope: 'chapter 2' }),
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 2' }, 'Starting chapter 2 now.'),
    say('writer', `<file>\n${words(400)}\n</file>`),
    say('writer', 'WRITER-SUMMARY: chapter 2 done. Shall I write chapter 3?'),
    say('quality_reviewer', 'Verdict: pass. Chapter 2 holds.'),
  ]);
  const { outcome, events, turnId } = await runTurn(h, sessionId, 'Write chapter 2, about 400 words');
  expect(outcome.status).toBe('completed');
  expect(agentsSelected(events)).toEqual(['writer', 'writer', 'quality_reviewer']);
  const chat = chatText(events);
  expect(chat).toContain('Starting chapter 2 now.');
  expect(chat).not.toContain('WRITER-SUMMARY');
  expect(chat).toContain('Verdict: pass');
  const reviewer = requestsOf(h.model, 'quality_reviewer')[0]!;
  expect(reviewer.all).toContain('[review evidence]');
  expect(reviewer.all).toContain('Body words written in this turn: 400');
  expect(reviewer.all).toMatch(/Author's length requirements: .*about 400 words/);
  expect(reviewer.all).toContain('[writer question for the author] Shall I write chapter 3?');
  // The reviewer is sent the writer's tool list (one cached prompt start for the turn); the
  // ones it may not call say so, and are refused when called (tool-inputs.test.ts).
  const writer = requestsOf(h.model, 'writer')[0]!;
  expect(reviewer.tools).toEqual(writer.tools);
  expect(reviewer.toolDescriptions.create_file).toContain('Not for the quality reviewer');
  expect(reviewer.toolDescriptions.query_files).not.toContain('Not for the quality reviewer');
  // Its prompt repeats the writer's up to its role: the project, history and turn context.
  const rolePos = reviewer.all.indexOf('# Scriptorium agent: quality_reviewer');
  expect(rolePos).toBeGreaterThan(0);
  expect(writer.all.slice(0, rolePos - 1)).toBe(reviewer.all.slice(0, rolePos - 1));
  // The author sees one summary: the held writer text is not in the saved messages.
  const msgs = await h.runtime.models.Message.find({ turnId, role: 'assistant' }).lean();
  expect(msgs.map((m) => m.content).join('\n')).not.toContain('WRITER-SUMMARY');
});

test('held writer text is released when no review follows', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...streamFile('writer', 'Chapter 9', words(50)),
    say('writer', 'SHORT-SUMMARY: a short scene.'),
  ]);
  const { events } = await runTurn(h, sessionId, 'Write a short scene for chapter 9');
  expect(agentsSelected(events)).toEqual(['writer', 'writer']);
  expect(chatText(events)).toContain('SHORT-SUMMARY');
  const release = ofType(events, 'content').find((e) => e.data.delta.includes('SHORT-SUMMARY'))!;
  const done = events.findIndex((e) => e.type === 'done');
  expect(events.indexOf(release)).toBeLessThan(done);
});

test('a closing question stops the plan; the planner exception sends the writer on with the recommended option', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'standard', workflow_agents: ['planner'], write_content: false }),
    say('planner', 'Two options: A or B. Which do you prefer?'),
  ]);
  const stopped = await runTurn(h, sessionId, 'Sketch the plot options');
  expect(stopped.outcome).toMatchObject({ status: 'awaiting_author', stopReason: 'question_to_author' });
  expect(ofType(stopped.events, 'workflow_stopped')[0]?.data).toMatchObject({
    reason: 'question_to_author',
    terminal: true,
  });

  const s2 = await createProjectAndSession(h);
  h.model.reset();
  h.model.script([
    router({
      current_agent: 'planner',
      workflow_plan: 'standard',
      workflow_agents: ['planner', 'writer'],
      write_content: true,
    }),
    say('planner', 'I would go with option A. Or would you prefer B?'),
    say('writer', 'Going with option A as recommended.'),
  ]);
  const went = await runTurn(h, s2.sessionId, 'Plan and write the opening');
  expect(agentsSelected(went.events)).toEqual(['planner', 'writer']);
  expect(requestsOf(h.model, 'writer')[0]!.all).toContain('do not ask again');
  expect(went.outcome.status).toBe('completed');
});

test('planner repair: a plan pasted only in chat is written into the outline once', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const plan = [1, 2, 3, 4, 5, 6].map((n) => `Chapter ${n}: beat ${n}`).join('\n');
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'standard', workflow_agents: ['planner'], write_content: false }),
    say('planner', `Here is the plan:\n${plan}`),
    ...streamFile('planner', 'Outline', plan, 'outline'),
    say('planner', 'Saved the outline.'),
  ]);
  const { events } = await runTurn(h, sessionId, 'Make a chapter outline for my novel');
  expect(ofType(events, 'handoff').map((e) => e.data.kind)).toEqual(['planner_repair', 'continuation']);
  const outline = await h.runtime.models.File.findOne({ projectId, type: 'outline' }).lean();
  expect(outline?.content).toContain('Chapter 6: beat 6');
});

test('MAX_AGENT_RUNS exhaustion ends the turn resumably; "continue" picks up the route', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const handoff = (from: 'planner' | 'hook_designer', to: string) =>
    call(from, 'handoff_to_agent', { agent: to, reason: 'ping' });
  h.model.script([
    router({
      current_agent: 'planner',
      workflow_plan: 'full',
      workflow_agents: ['planner', 'hook_designer', 'writer'],
    }),
    handoff('planner', 'hook_designer'),
    handoff('hook_designer', 'planner'),
    handoff('planner', 'hook_designer'),
    handoff('hook_designer', 'planner'),
    handoff('planner', 'hook_designer'),
    handoff('hook_designer', 'planner'),
  ]);
  const first = await runTurn(h, sessionId, 'Plan, hook and write chapter 1');
  expect(first.outcome).toMatchObject({ status: 'exhausted', stopReason: 'max_agent_runs' });
  expect(first.turn.resume).toEqual({ agent: 'planner', remaining: ['writer'] });
  h.model.reset();
  h.model.script([say('planner', 'Picking up where we stopped.'), say('writer', 'Chapter 1 follows.')]);
  const second = await runTurn(h, sessionId, 'continue');
  expect(second.turn.routing).toMatchObject({ source: 'resume_after_exhaustion', workflow_plan: 'full' });
  expect(agentsSelected(second.events)).toEqual(['planner', 'writer']);
  expect(h.model.requests.some((r) => r.agent === 'router')).toBe(false);
});
