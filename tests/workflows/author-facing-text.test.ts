/**
 * Author-facing text in a real turn: what the author sees live
 * and what is stored are shaped the same way, held writer text included.
 */
import {
  createHarness,
  expectScriptFullyUsed,
  createProjectAndSession,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { call, chatText, router, say } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '300', MAX_AGENT_RUNS: '6' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

test('a blank line separates two roles’ texts and one agent’s segments split by tool calls; English process sentences next to tool calls are not sent to a Chinese-writing author', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'standard', workflow_agents: ['planner', 'writer'] }),
    say('planner', '大纲已经有了。'),
    call('writer', 'query_files', { query: '大纲' }, '先看一下大纲。Let me read the outline.'),
    call('writer', 'create_file', { type: 'draft', title: '第1章' }, 'Now create the chapter file.'),
    say('writer', '<file>\n雨一直下。\n</file>'),
    say('writer', '第1章写好了。'),
  ]);
  const { events, turnId } = await runTurn(h, sessionId, '按大纲写第1章');
  const live = chatText(events);
  expect(live).toBe('大纲已经有了。\n\n先看一下大纲。\n\n第1章写好了。');
  // Stored the same way: no process sentence in the record either.
  const msgs = await h.runtime.models.Message.find({ turnId, role: 'assistant' }).sort({ seq: 1 }).lean();
  expect(msgs.map((m) => m.content)).toEqual(['大纲已经有了。', '先看一下大纲。', '第1章写好了。']);
  const steps = await h.runtime.models.AgentStep.find({ turnId }).sort({ step: 1 }).lean();
  expect(steps.map((s) => s.text).join('')).toBe(live);
  // The model still sees its own words.
  expect(steps.some((s) => s.rawContent.includes('Now create the chapter file.'))).toBe(true);
});

test('an English-writing author keeps every sentence, with a blank line between segments', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'query_files', { query: 'outline' }, 'Let me read the outline.'),
    say('writer', 'The outline is thin; tell me the ending first?'),
  ]);
  const { events } = await runTurn(h, sessionId, 'Write chapter 1 from the outline');
  expect(chatText(events)).toBe('Let me read the outline.\n\nThe outline is thin; tell me the ending first?');
});
