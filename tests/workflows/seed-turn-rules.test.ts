/**
 * Rules of a turn on real services with the scripted offline model: the outline coverage
 * repair when the outline saved this turn holds only part of the plan posted in chat, the
 * writer's chat hold (held only once a review is likely, on every plan whose review gate is on), the
 * review gate counting only the words written into drafts, and a
 * read-only turn that still updates the project while refusing every file write.
 */
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
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

/** Whether the step whose text contains `marker` had its chat held. */
async function heldStep(turnId: string, marker: string): Promise<boolean | undefined> {
  const step = await h.runtime.models.AgentStep.findOne({ turnId, text: new RegExp(marker) }).lean();
  expect(step).toBeTruthy();
  return step?.held;
}

test('outline coverage: an outline saved with chapters 1-3 while chapters 4-10 sit in chat still gets the repair round', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const part = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `Chapter ${from + i}: beat ${from + i}`).join('\n');
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'standard', workflow_agents: ['planner'], write_content: false }),
    ...streamFile('planner', 'Outline', part(1, 3), 'outline', `\nThe whole plan:\n${part(1, 10)}`),
    ...streamFile('planner', 'Outline, part two', part(4, 10), 'outline', '\nSaved the rest.'),
  ]);
  const { events } = await runTurn(h, sessionId, 'Make a ten-chapter outline for my novel');
  expect(ofType(events, 'handoff').map((e) => e.data.kind)).toEqual(['planner_repair']);
  expect(requestsOf(h.model, 'planner')[2]!.all).toContain(
    'the outline saved in this turn lacks 7 of them (chapters 4, 5, 6, 7, 8, 9, 10)',
  );
  const outlines = await h.runtime.models.File.find({ projectId, type: 'outline' }).lean();
  expect(outlines.map((f) => f.content).join('\n')).toContain('Chapter 10: beat 10');
});

test('outline coverage: an outline that holds the whole plan posted in chat needs no repair', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const plan = Array.from({ length: 6 }, (_, i) => `Chapter ${i + 1}: beat ${i + 1}`).join('\n');
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'standard', workflow_agents: ['planner'], write_content: false }),
    ...streamFile('planner', 'Outline', plan, 'outline', `\nSaved:\n${plan}`),
  ]);
  const { events } = await runTurn(h, sessionId, 'Make a chapter outline for my novel');
  expect(ofType(events, 'handoff')).toEqual([]);
});

test('held chat: a short write on the standard plan shows the writer reply live; a long one is held and dropped for the reviewer', async () => {
  const writerAlone = router({ current_agent: 'writer', workflow_plan: 'standard', workflow_agents: ['writer'] });
  const short = await createProjectAndSession(h);
  h.model.script([
    writerAlone,
    call('writer', 'create_file', { type: 'draft', title: 'Scene', content: words(50) }),
    say('writer', 'SHORT-NOTE: a short scene.'),
  ]);
  const r1 = await runTurn(h, short.sessionId, 'Write a short scene');
  expect(agentsSelected(r1.events)).toEqual(['writer']);
  expect(chatText(r1.events)).toContain('SHORT-NOTE');
  // Fifty words are far below the review threshold: the reply was never held.
  expect(await heldStep(r1.turnId, 'SHORT-NOTE')).toBe(false);

  const long = await createProjectAndSession(h);
  h.model.reset();
  h.model.script([
    writerAlone,
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 1', content: words(400) }),
    say('writer', 'LONG-NOTE: chapter 1 done.'),
    say('quality_reviewer', 'Verdict: pass.'),
  ]);
  const r2 = await runTurn(h, long.sessionId, 'Write chapter 1');
  expect(agentsSelected(r2.events)).toEqual(['writer', 'quality_reviewer']);
  expect(await heldStep(r2.turnId, 'LONG-NOTE')).toBe(true);
  expect(chatText(r2.events)).not.toContain('LONG-NOTE');
});

test('held chat on the quick plan too: its review gate sends a long chapter to the reviewer, whose summary is the one the author reads', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 2', content: words(400) }),
    say('writer', 'QUICK-NOTE: chapter 2 done.'),
    say('quality_reviewer', 'Verdict: pass.'),
  ]);
  const { events, turnId } = await runTurn(h, sessionId, 'Write chapter 2');
  expect(agentsSelected(events)).toEqual(['writer', 'quality_reviewer']);
  expect(await heldStep(turnId, 'QUICK-NOTE')).toBe(true);
  expect(chatText(events)).not.toContain('QUICK-NOTE');
  expect(chatText(events)).toContain('Verdict: pass.');
});

test('the review gate counts only draft words: a long card, setting and outline, and a long chat reply, send nothing to review', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const outline = await api<{ id: string }>(h, 'POST', '/api/v1/files', {
    projectId,
    type: 'outline',
    title: 'Outline',
    content: 'Chapter 1: the harbour.',
  });
  expect(outline.status).toBe(201);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'character', title: 'Mara', content: words(400, 'keeper') }),
    call('writer', 'edit_file', { id: outline.body.id, operation: 'append', text: words(400, 'beat') }),
    // The setting's body streams in the run's last answer, the long chat reply after it.
    ...streamFile(
      'writer',
      'The harbour town',
      words(400, 'harbour'),
      'setting',
      `\nCHAT-NOTE: ${words(400, 'lantern')}`,
    ),
  ]);
  // 1,600 words of cards, setting, outline and chat, at a threshold of 300: none of them is the story's text.
  const { outcome, events, turnId } = await runTurn(h, sessionId, 'Set up Mara, the harbour town and the outline');
  expect(outcome.status).toBe('completed');
  expect(agentsSelected(events)).toEqual(['writer']);
  expect(ofType(events, 'tool_result').map((e) => [e.data.name, e.data.ok])).toEqual([
    ['create_file', true],
    ['edit_file', true],
    ['create_file', true],
  ]);
  const files = await h.runtime.models.File.find({ projectId }).lean();
  expect(files.map((f) => [f.type, f.words >= 400])).toEqual(
    expect.arrayContaining([
      ['outline', true],
      ['character', true],
      ['setting', true],
    ]),
  );
  // Never held: no review could follow, so the writer's reply reached the author as it was written.
  expect(await heldStep(turnId, 'CHAT-NOTE')).toBe(false);
  expect(chatText(events)).toContain('CHAT-NOTE');
});

test('read-only turn: update_project succeeds and changes the project; create, edit and delete of files are refused', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const made = await api<{ id: string }>(h, 'POST', '/api/v1/files', {
    projectId,
    type: 'draft',
    title: 'Chapter 1',
    content: 'The harbour was quiet.',
  });
  expect(made.status).toBe(201);
  const fileId = made.body.id;
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'standard', read_only: true, write_content: false }),
    call('planner', 'update_project', { summary: 'A lighthouse mystery on a quiet harbour.' }),
    call('planner', 'create_file', { type: 'draft', title: 'Chapter 2', content: 'New text.' }),
    call('planner', 'edit_file', { id: fileId, operation: 'append', text: 'More.' }),
    call('planner', 'delete_file', { id: fileId }),
    say('planner', 'Noted the summary; no files changed.'),
  ]);
  const { outcome, events } = await runTurn(h, sessionId, 'Just note the summary for me, do not change any files');
  expect(outcome.status).toBe('completed');
  expect(ofType(events, 'tool_result').map((e) => [e.data.name, e.data.ok, e.data.errorType ?? null])).toEqual([
    ['update_project', true, null],
    ['create_file', false, 'read_only_request'],
    ['edit_file', false, 'read_only_request'],
    ['delete_file', false, 'read_only_request'],
  ]);
  const project = await h.runtime.models.Project.findById(projectId).lean();
  expect(project?.summary).toBe('A lighthouse mystery on a quiet harbour.');
  const files = await h.runtime.models.File.find({ projectId }).lean();
  expect(files.map((f) => [f.title, f.content, f.deletedAt ?? null])).toEqual([
    ['Chapter 1', 'The harbour was quiet.', null],
  ]);
});
