/**
 * Confirming a proposed next step in real turns: a confirmation routes to
 * the offered step without the router; a short answer to a follow-up question inherits.
 */
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { agentsSelected, call, ofType, requestsOf, router, say, streamFile } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '5000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

const routerCalls = () => h.model.requests.filter((r) => r.agent === 'router').length;

test('confirming a read-only reviewer’s offer ("要我帮你改吗？" → "好的") runs the writer with read_only=false and write_content=true', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({
      current_agent: 'quality_reviewer',
      workflow_plan: 'review_only',
      read_only: true,
      write_content: false,
      scope: '审阅第1章',
    }),
    say('quality_reviewer', '第一章开头节奏偏慢，对话也略显拖沓。要我帮你改吗？'),
  ]);
  const r1 = await runTurn(h, sessionId, '帮我看看第一章写得怎么样，先别改');
  expect(r1.outcome.status).toBe('awaiting_author');

  h.model.reset();
  h.model.script([
    call('writer', 'create_file', { type: 'draft', title: '第1章（修订）', content: '修订后的开头。' }),
    say('writer', '已按建议改好。'),
  ]);
  const r2 = await runTurn(h, sessionId, '好的');
  expect(routerCalls()).toBe(0);
  expect(agentsSelected(r2.events)).toEqual(['writer']);
  expect(r2.turn.routing).toMatchObject({
    current_agent: 'writer',
    read_only: false,
    write_content: true,
    source: 'confirm_proposal',
  });
  // Write tools work: the turn is not read-only any more.
  expect(ofType(r2.events, 'tool_result')[0]!.data).toMatchObject({ name: 'create_file', ok: true });
});

test('"好的" after "要我继续写第二章吗？" runs the writer on chapter 2, not the delivered chapter 1', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', scope: '第1章' }),
    ...streamFile('writer', '第一章 风起', '风从海上来。', 'draft', '\n\n第一章写好了。要我继续写第二章吗？'),
  ]);
  const r1 = await runTurn(h, sessionId, '写第一章');
  expect(r1.outcome.status).toBe('awaiting_author');

  h.model.reset();
  h.model.script([say('writer', '好的，这就写第二章。')]);
  const r2 = await runTurn(h, sessionId, '好的');
  expect(routerCalls()).toBe(0);
  expect(r2.turn.routing).toMatchObject({ current_agent: 'writer', scope: '第2章', source: 'confirm_proposal' });
  expect(requestsOf(h.model, 'writer')[0]!.system).toContain("Author's scope for this turn: 第2章.");
  expect(requestsOf(h.model, 'writer')[0]!.system).not.toContain('第1章');
});

test('"ok, go" after "Shall I write the next chapter?" follows the chapter the previous turn delivered', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', scope: 'chapter 3' }),
    ...streamFile(
      'writer',
      'Chapter 3: The Reef',
      'The reef waited.',
      'draft',
      '\n\nChapter 3 is saved. Shall I write the next chapter?',
    ),
  ]);
  await runTurn(h, sessionId, 'Write chapter 3');

  h.model.reset();
  h.model.script([say('writer', 'Writing chapter 4.')]);
  const r2 = await runTurn(h, sessionId, 'ok, go');
  expect(routerCalls()).toBe(0);
  expect(r2.turn.routing).toMatchObject({ current_agent: 'writer', scope: 'chapter 4', write_content: true });
});

test('a short answer to a follow-up question ("悬疑还是温情？" → "温情") inherits the whole route', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'standard', write_content: false, scope: '全书大纲' }),
    say('planner', '有两个方向：悬疑路线，或温情路线。你想走悬疑路线还是温情路线？'),
  ]);
  const r1 = await runTurn(h, sessionId, '帮我规划大纲');
  expect(r1.outcome.status).toBe('awaiting_author');

  h.model.reset();
  h.model.script([say('planner', '好的，按温情路线规划。')]);
  const r2 = await runTurn(h, sessionId, '温情');
  expect(routerCalls()).toBe(0);
  expect(r2.turn.routing).toMatchObject({
    current_agent: 'planner',
    workflow_plan: 'standard',
    write_content: false,
    scope: '全书大纲',
    source: 'inherit_after_question',
  });
});
