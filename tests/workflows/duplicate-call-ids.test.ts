/**
 * A model that gives two tool calls of one answer the same id: each call
 * runs and is answered on its own — two create_file calls make two files, each announced
 * once — instead of the second being answered with the first's outcome and never made.
 */
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { ofType, router, say } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '100000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

test('two calls with one id in one answer are two calls', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    {
      match: { agent: 'writer' },
      reply: {
        content: '',
        toolCalls: [
          {
            id: 'same',
            name: 'create_file',
            arguments: { title: 'Mara Voss', type: 'character', content: 'A harbour pilot.' },
          },
          {
            id: 'same',
            name: 'create_file',
            arguments: { title: 'Ilse Brandt', type: 'character', content: 'The lighthouse keeper.' },
          },
        ],
      },
    },
    say('writer', 'Both characters are saved.'),
  ]);
  const r = await runTurn(h, sessionId, 'Create two character cards: Mara and Ilse');
  expect(r.outcome.status).toBe('completed');

  const files = await h.runtime.models.File.find({ projectId, type: 'character', deletedAt: null }).lean();
  expect(files.map((f) => f.title).sort()).toEqual(['Ilse Brandt', 'Mara Voss']);
  const created = ofType(r.events, 'file_created');
  expect(created.map((e) => e.data.title).sort()).toEqual(['Ilse Brandt', 'Mara Voss']);
  expect(new Set(created.map((e) => e.data.fileId)).size).toBe(2);
  // The tool results answer two distinct ids, and the next request's history pairs each call with its own result.
  const results = ofType(r.events, 'tool_result').filter((e) => e.data.name === 'create_file');
  expect(results).toHaveLength(2);
  expect(new Set(results.map((e) => e.toolCallId)).size).toBe(2);
  const followUp = h.model.requests.filter((q) => q.agent === 'writer')[1]!;
  const toolMessages = (followUp.body.messages as { role: string; tool_call_id?: string }[]).filter(
    (m) => m.role === 'tool',
  );
  expect(new Set(toolMessages.map((m) => m.tool_call_id)).size).toBe(2);
});
