/**
 * Honest saves: an agent that created an empty file and did
 * not write it gets one correction round; a file still empty after it ends the turn with
 * a plain notice, and the record (files, messages, outcome) agrees with what the author saw.
 * Real services, scripted offline model.
 */
import {
  createHarness,
  expectScriptFullyUsed,
  createProjectAndSession,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { agentsSelected, call, chatText, ofType, requestsOf, router, say, words } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '300', MAX_AGENT_RUNS: '6' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

test('empty-file correction round: the agent that created the empty file (here the planner, not the writer) writes it in one more round', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'standard', workflow_agents: ['planner'], write_content: false }),
    call('planner', 'create_file', { type: 'outline', title: 'Outline' }),
    say('planner', 'The outline is saved.'),
    say('planner', '<file>\nChapter 1: Rain\nChapter 2: Boats\n</file>'),
  ]);
  const { outcome, events, turn } = await runTurn(h, sessionId, 'Outline my novel');
  expect(outcome.status).toBe('completed');
  expect(agentsSelected(events)).toEqual(['planner', 'planner']);
  expect(ofType(events, 'handoff').map((e) => `${e.data.from}>${e.data.to}:${e.data.kind}`)).toEqual([
    'planner>planner:empty_file_repair',
  ]);
  const repair = requestsOf(h.model, 'planner')[2]!;
  expect(repair.all).toContain('[empty file correction]');
  expect(repair.all).toMatch(/"Outline" \(id=[0-9a-f]{24}\) was created but is still empty/);
  const outline = await h.runtime.models.File.findOne({ projectId, type: 'outline' }).lean();
  expect(outline?.content).toContain('Chapter 2: Boats');
  expect(turn.filesTouched).toEqual([String(outline!._id)]);
  expect(outcome.filesWritten.map((f) => f.title)).toEqual(['Outline']);
});

test('a file still empty after its correction round: workflow_stopped(empty_file_unwritten), the message says it was not written, never "completed"', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'draft', title: '第3章' }),
    say('writer', '第3章已保存。'),
    say('writer', '好的，第3章已经写好并保存了。'),
  ]);
  const { outcome, events, turn, turnId } = await runTurn(h, sessionId, '写第3章');
  expect(agentsSelected(events)).toEqual(['writer', 'writer']);
  expect(outcome).toMatchObject({ status: 'failed', stopReason: 'empty_file_unwritten', filesWritten: [] });
  expect(turn.status).toBe('failed');
  const stops = ofType(events, 'workflow_stopped');
  expect(stops.map((s) => [s.data.reason, s.data.terminal])).toEqual([['empty_file_unwritten', true]]);
  expect(stops[0]!.data.message).toMatch(/《第3章》没有写成.*已移除/);
  expect(ofType(events, 'done')[0]!.data.status).toBe('failed');
  // The record agrees: no file, nothing touched, and the saved reply says it was not written.
  expect(await h.runtime.models.File.countDocuments({ projectId })).toBe(0);
  expect(turn.filesTouched).toEqual([]);
  const msgs = await h.runtime.models.Message.find({ turnId, role: 'assistant' }).sort({ seq: 1 }).lean();
  expect(msgs.flatMap((m) => m.breadcrumb)).toEqual([]);
  expect(msgs[msgs.length - 1]!.content).toMatch(/未保存：《第3章》没有写入正文，已移除/);
});

test('a question to the author from the interrupted run carries over the correction round; the turn then stops for the author', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 1' }),
    say('writer', 'Chapter 1 is done. Shall I write chapter 2 as well?'),
    say('writer', `<file>\n${words(60)}\n</file>`),
  ]);
  const { outcome, events } = await runTurn(h, sessionId, 'Write a short chapter 1');
  expect(agentsSelected(events)).toEqual(['writer', 'writer']);
  expect(ofType(events, 'handoff').map((e) => e.data.kind)).toEqual(['empty_file_repair']);
  expect(outcome).toMatchObject({ status: 'awaiting_author', stopReason: 'question_to_author' });
  expect(ofType(events, 'workflow_stopped')[0]!.data).toMatchObject({
    reason: 'question_to_author',
    message: 'Shall I write chapter 2 as well?',
  });
  const file = await h.runtime.models.File.findOne({ projectId, title: 'Chapter 1' }).lean();
  expect(file?.words).toBe(60);
  // The held writer text is released (no review followed): the author sees the question.
  expect(chatText(events)).toContain('Shall I write chapter 2 as well?');
});

test('with the review gate: after the correction round the reviewer gets the carried question', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 5' }),
    say('writer', 'HELD: done. Want chapter 6 next?'),
    say('writer', `<file>\n${words(400)}\n</file>`),
    say('quality_reviewer', 'Verdict: pass.'),
  ]);
  const { outcome, events } = await runTurn(h, sessionId, 'Write chapter 5');
  expect(agentsSelected(events)).toEqual(['writer', 'writer', 'quality_reviewer']);
  expect(outcome.status).toBe('completed');
  expect(requestsOf(h.model, 'quality_reviewer')[0]!.all).toContain(
    '[writer question for the author] Want chapter 6 next?',
  );
  expect(chatText(events)).not.toContain('HELD');
});
