/**
 * Next-step suggestions at the end of a turn: a `suggestions` event in the author's language
 * just before `done`, kept on the turn (GET /turns/:id); none when the turn failed or
 * SUGGESTIONS_ENABLED is off; an unusable answer costs only the suggestions. The first two
 * tests run on the offline model's default persona, as `npm start` does.
 */
import { SUGGESTIONS_HEADER } from '../../src/core/model/markers';
import { detectLanguage } from '../../src/core/text';
import { Worker } from '@temporalio/worker';
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
  testBundle,
} from '../helpers/harness';
import { call, ofType, router, say, types } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { SUGGESTIONS_ENABLED: 'true', REVIEW_WORD_THRESHOLD: '5000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

const suggestionRequests = () =>
  h.model.requests.filter((r) => String(r.body.messages[0]?.content ?? '').startsWith(SUGGESTIONS_HEADER));

test.each([
  ['English', 'Write chapter 1: a storm hits the harbour', 'en'],
  ['Chinese', '写第一章：暴风雨袭击港口', 'zh'],
] as const)(
  'a suggestions event in the author’s language (%s) comes just before done and is kept on the turn',
  async (_name, message, language) => {
    h.model.reset(); // the default persona answers every call, suggestions included
    const { sessionId } = await createProjectAndSession(h);
    const r = await runTurn(h, sessionId, message);
    expect(r.outcome.status).toBe('completed');
    const kinds = types(r.events);
    expect(kinds.slice(-2)).toEqual(['suggestions', 'done']);
    const event = ofType(r.events, 'suggestions')[0]!;
    expect(event.data.language).toBe(language);
    expect(event.data.items.length).toBeGreaterThanOrEqual(2);
    expect(event.data.items.length).toBeLessThanOrEqual(4);
    for (const item of event.data.items) expect({ item, lang: detectLanguage(item) }).toEqual({ item, lang: language });
    expect(r.turn.suggestions).toEqual(event.data.items);
    const shown = await api<{ suggestions: string[] }>(h, 'GET', `/api/v1/turns/${r.turnId}`);
    expect(shown.body.suggestions).toEqual(event.data.items);
    // The request asked for the author's language and carried the turn's facts.
    const req = suggestionRequests()[0]!;
    expect(String(req.body.messages[0]!.content)).toContain(
      language === 'zh' ? '简体中文' : "English (the author's language)",
    );
    expect(String(req.body.messages[1]!.content)).toContain(message);
    // The patched suggestions step replays deterministically.
    const history = await h.runtime.temporal.workflow.getHandle(`turn-${r.turnId}`).fetchHistory();
    await Worker.runReplayHistory(
      { workflowBundle: testBundle(), replayName: 'suggestions' },
      history,
      `turn-${r.turnId}`,
    );
  },
);

test('the model’s answer is cleaned: fences, numbering and extra items go, items in another language are dropped', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    say('writer', 'Chapter 2 is done.'),
    {
      match: { contains: SUGGESTIONS_HEADER },
      reply: {
        content:
          '```json\n["1. Write chapter 3", "写第三章", "- Tighten the ending of chapter 2", "Add a map of the harbour", "Name the ship", "A sixth"]\n```',
      },
    },
  ]);
  const r = await runTurn(h, sessionId, 'Write chapter 2');
  expect(ofType(r.events, 'suggestions')[0]!.data.items).toEqual([
    'Write chapter 3',
    'Tighten the ending of chapter 2',
    'Add a map of the harbour',
    'Name the ship',
  ]);
  const req = suggestionRequests()[0]!;
  expect(String(req.body.messages[1]!.content)).toContain('Chapter 2 is done.');
});

test('an unusable answer or a failed model call costs only the suggestions', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    say('writer', 'Done.'),
    { match: { contains: SUGGESTIONS_HEADER }, reply: { content: 'Sure! Maybe write more?' } },
  ]);
  const r = await runTurn(h, sessionId, 'Write a line');
  expect(r.outcome.status).toBe('completed');
  expect(ofType(r.events, 'suggestions')).toEqual([]);
  expect(r.turn.suggestions).toEqual([]);
  h.model.reset();

  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    say('writer', 'Done.'),
    { match: { contains: SUGGESTIONS_HEADER }, error: { status: 400, message: 'bad request' } },
  ]);
  const r2 = await runTurn(h, sessionId, 'Write another line');
  expect(r2.outcome.status).toBe('completed');
  expect(types(r2.events).slice(-1)).toEqual(['done']);
  expect(ofType(r2.events, 'suggestions')).toEqual([]);
});

test('no suggestions when the turn failed', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const bad = call('quality_reviewer', 'edit_file', { id: 'a'.repeat(24), operation: 'append', text: 'x' });
  h.model.script([
    router({ current_agent: 'quality_reviewer', workflow_plan: 'review_only', write_content: false }),
    bad,
    bad,
    bad,
  ]);
  const r = await runTurn(h, sessionId, 'Review and fix chapter 1');
  expect(r.outcome.status).toBe('failed');
  expect(suggestionRequests()).toEqual([]);
  expect(ofType(r.events, 'suggestions')).toEqual([]);
});

test('SUGGESTIONS_ENABLED=false: no suggestions call and no event', async () => {
  const off = await createHarness({ config: { SUGGESTIONS_ENABLED: 'false' } });
  try {
    const { sessionId } = await createProjectAndSession(off);
    off.model.script([router({ current_agent: 'writer', workflow_plan: 'quick' }), say('writer', 'Hello.')]);
    const r = await runTurn(off, sessionId, 'Say hello');
    expect(types(r.events).slice(-1)).toEqual(['done']);
    expect(ofType(r.events, 'suggestions')).toEqual([]);
    expect(off.model.requests.map((q) => q.agent)).toEqual(['router', 'writer']);
    expectScriptFullyUsed(off);
  } finally {
    await off.close();
  }
});
