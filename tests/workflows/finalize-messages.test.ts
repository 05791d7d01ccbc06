/**
 * The turn's closing record (finalizeTurn, src/activities/turn/turn-finalize.ts): the reply
 * messages' sequence numbers are reserved while finalize looks up which of the turn's files
 * are gone, not after, and the messages still follow the author's in order.
 */
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { beforeCalls, interceptQueries, sleep } from '../helpers/model-spies';
import { router, say, streamFile, words } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '5000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

test('the reply’s sequence number is reserved while the turn’s files are looked up; the messages keep their order', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...streamFile('writer', 'Chapter 1', words(40)),
    say('writer', 'Chapter 1 is written.'),
  ]);
  const order: string[] = [];
  // finalize's lookup of the files gone (by `_id` alone) answers slowly.
  const isGoneLookup = (filter: Record<string, unknown>) => Object.keys(filter).length === 1 && '_id' in filter;
  const files = interceptQueries(h.runtime.models.File, 'find', (filter: Record<string, unknown>) => {
    if (!isGoneLookup(filter)) return undefined;
    order.push('files looked up');
    return async (run) => {
      await sleep(200);
      const found = await run();
      order.push('files found');
      return found;
    };
  });
  const seq = beforeCalls(h.runtime.models.Session, 'findOneAndUpdate', () => {
    if (order.length) order.push('numbers reserved');
  });
  try {
    const r = await runTurn(h, sessionId, 'Write chapter 1');
    expect(r.outcome.status).toBe('completed');
    expect(order).toEqual(['files looked up', 'numbers reserved', 'files found']);
  } finally {
    files.mockRestore();
    seq.mockRestore();
  }
  h.model.reset();
  h.model.script([router({ current_agent: 'writer', workflow_plan: 'quick' }), say('writer', 'A second thought.')]);
  await runTurn(h, sessionId, 'And now?');
  const messages = await h.runtime.models.Message.find({ sessionId }).sort({ seq: 1 }).lean();
  // Every number used, in order: the author's message, the first turn's replies, the second turn's.
  expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
  expect(messages.map((m) => (m.role === 'user' ? m.content : m.role))).toEqual([
    'Write chapter 1',
    'assistant',
    'assistant',
    'And now?',
    'assistant',
  ]);
  expect(messages[1]!.breadcrumb).toEqual([{ op: 'created', fileId: expect.any(String), title: 'Chapter 1' }]);
});
