/**
 * Review evidence on real services: what the
 * reviewer is sent, the review-round cap, and held writer text that survives a failed or
 * interrupted turn.
 */
import {
  api,
  createAuthorFile,
  createHarness,
  expectScriptFullyUsed,
  createProjectAndSession,
  type Harness,
  postTurn,
  runTurn,
  turnEvents,
  waitTurn,
} from '../helpers/harness';
import { agentsSelected, call, chatText, ofType, requestsOf, router, say, streamFile, words } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    config: { REVIEW_WORD_THRESHOLD: '300', MAX_AGENT_RUNS: '8', REVIEW_EVIDENCE_MAX_CHARS: '4000' },
  });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

const authorFile = (projectId: string, title: string, content: string) =>
  createAuthorFile(h, projectId, title, content);

test('the reviewer gets this turn’s body files as saved, each with an editor-style word count', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const body = `${'雨'.repeat(340)}\nBODY-END-MARK`;
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...streamFile('writer', '第2章', body),
    say('writer', '第2章写完了。'),
    call('quality_reviewer', 'query_files', { query: '雨' }),
    say('quality_reviewer', 'Verdict: pass.'),
  ]);
  await runTurn(h, sessionId, '写第2章');
  const [reviewer, afterTool] = requestsOf(h.model, 'quality_reviewer');
  // Still in view after the reviewer's own tool call: the run's packet is reused, not dropped.
  expect(afterTool!.all).toMatch(
    /\[content under review\]\n.*\n### 第2章 \(id=[0-9a-f]{24}, draft\) — 341 words as saved/,
  );
  expect(reviewer!.all).toContain('[content under review]');
  // Editor count: each CJK character is a word, the Latin run one more.
  expect(reviewer!.all).toMatch(/### 第2章 \(id=[0-9a-f]{24}, draft\) — 341 words as saved/);
  expect(reviewer!.all).toContain('BODY-END-MARK');
  // The content comes from MongoDB, not through workflow history.
  const turn = await h.runtime.models.Turn.findOne({ sessionId }).lean();
  const history = JSON.stringify(
    await h.runtime.temporal.workflow.getHandle(`turn-${String(turn!._id)}`).fetchHistory(),
  );
  expect(history).not.toContain(Buffer.from('BODY-END-MARK').toString('base64').slice(0, 12));
});

test('for a long file that had text before the turn, the reviewer gets only the segment this turn changed', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const fileId = await authorFile(projectId, 'Prologue', `OPENING-LINE-MARK\n${words(1500, 'harbour')}`);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'edit_file', { id: fileId, operation: 'append', text: `\n${words(350, 'tide')}\nAPPENDED-MARK` }),
    say('writer', 'Extended the prologue.'),
    say('quality_reviewer', 'Verdict: pass.'),
  ]);
  await runTurn(h, sessionId, 'Extend the prologue by about 350 words');
  const reviewer = requestsOf(h.model, 'quality_reviewer')[0]!;
  // The review content section of the packet (context assembly may show the file elsewhere).
  const content = reviewer.all.split('[content under review]')[1]!.split('[review evidence]')[0]!;
  const saved = await h.runtime.models.File.findById(fileId).lean();
  expect(content).toContain(`### Prologue (id=${fileId}, draft) — ${saved!.words} words as saved`);
  expect(content).toContain('only the part changed in this turn is shown');
  expect(content).toContain('APPENDED-MARK');
  expect(content).not.toContain('OPENING-LINE-MARK');
  expect(content.length).toBeLessThan(4000 + 600);
});

test('length requirements come from the project brief, style, notes, the session’s earlier author messages and this message', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  await h.runtime.models.Project.updateOne(
    { _id: projectId },
    {
      $set: {
        summary: 'A harbour saga. 每章3000字左右。',
        style: 'Lean prose; scenes of about 1500 words.',
        notes: 'Keep each chapter over 2500 words.',
      },
    },
  );
  h.model.script([router({ current_agent: 'writer', workflow_plan: 'quick' }), say('writer', 'Noted.')]);
  await runTurn(h, sessionId, 'Chapters should run near 2800 words. Just note that for now.');
  h.model.reset();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...streamFile('writer', 'Chapter 2', words(400)),
    say('writer', 'Done.'),
    say('quality_reviewer', 'Verdict: revise, too short.'),
  ]);
  await runTurn(h, sessionId, 'Write chapter 2, 1800 words.');
  const line = requestsOf(h.model, 'quality_reviewer')[0]!
    .all.split('\n')
    .find((l) => l.startsWith("Author's length requirements:"))!;
  for (const req of ['1800 words', '3000字', '1500 words', '2500 words', '2800 words']) expect(line).toContain(req);
  // This message's requirement comes first.
  expect(line.indexOf('1800 words')).toBeLessThan(line.indexOf('3000字'));
});

test('a review-round cap (REVIEW_MAX_ROUNDS, default 2) stops a writer↔reviewer loop', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const revise = call('quality_reviewer', 'handoff_to_agent', { agent: 'writer', reason: 'revise: too thin' });
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 7', content: words(400) }),
    say('writer', 'Draft done.'),
    revise,
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 7 (revised)', content: words(400) }),
    say('writer', 'Revised.'),
    revise,
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 7 (revised again)', content: words(400) }),
    say('writer', 'REVISED-AGAIN: third pass.'),
  ]);
  const { outcome, events, turnId } = await runTurn(h, sessionId, 'Write chapter 7');
  expect(agentsSelected(events)).toEqual(['writer', 'quality_reviewer', 'writer', 'quality_reviewer', 'writer']);
  expect(ofType(events, 'handoff').map((e) => e.data.kind)).toEqual([
    'review_gate',
    'explicit',
    'review_gate',
    'explicit',
  ]);
  expect(outcome.status).toBe('completed');
  // At the cap no review can follow, so the writer's summary is not held: the author sees it live.
  expect(chatText(events)).toContain('REVISED-AGAIN');
  const last = await h.runtime.models.AgentStep.findOne({ turnId, text: /REVISED-AGAIN/ }).lean();
  expect(last?.held).toBe(false);
});

test('held writer text is saved and released when the turn fails', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...streamFile('writer', 'Chapter 8', words(400)),
    call('writer', 'query_files', { query: 'Chapter 8' }, 'HELD-BEFORE-FAILURE: chapter 8 is saved.'),
    { match: { agent: 'writer' }, error: { status: 400, message: 'context length exceeded' } },
  ]);
  const { outcome, events, turnId } = await runTurn(h, sessionId, 'Write chapter 8');
  expect(outcome.status).toBe('failed');
  const held = ofType(events, 'content').find((e) => e.data.delta.includes('HELD-BEFORE-FAILURE'));
  expect(held).toBeDefined();
  expect(events.indexOf(held!)).toBeLessThan(events.findIndex((e) => e.type === 'done'));
  const msgs = await h.runtime.models.Message.find({ turnId, role: 'assistant' }).lean();
  expect(msgs.map((m) => m.content).join('\n')).toContain('HELD-BEFORE-FAILURE');
});

test('held writer text is saved and released when the turn is interrupted', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...streamFile('writer', 'Chapter 9', words(400)),
    call('writer', 'query_files', { query: 'Chapter 9' }, 'HELD-BEFORE-INTERRUPT: chapter 9 is saved.'),
    { match: { agent: 'writer' }, reply: { content: 'Now a long closing note that never ends' }, stallAfterChars: 5 },
  ]);
  const turnId = await postTurn(h, sessionId, 'Write chapter 9');
  await h.model.waitForRequests(5, 60_000);
  expect((await api(h, 'POST', `/api/v1/turns/${turnId}/interrupt`, {})).status).toBe(202);
  const outcome = await waitTurn(h, turnId);
  expect(outcome.status).toBe('interrupted');
  const events = await turnEvents(h, turnId);
  expect(chatText(events)).toContain('HELD-BEFORE-INTERRUPT');
  const msgs = await h.runtime.models.Message.find({ turnId, role: 'assistant' }).lean();
  expect(msgs.map((m) => m.content).join('\n')).toContain('HELD-BEFORE-INTERRUPT');
});
