/**
 * What the stream shows and what is stored say the same true thing: a turn
 * that ends at the run cap while an empty file's correction round was due released the
 * writer's held "Chapter 3 is saved." to the live stream, and only the stored message said
 * the file was not saved. Now the live stream ends with the same "not saved" line.
 */
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { call, chatText, ofType, router, say } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { MAX_AGENT_RUNS: '1' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

test('a turn stopped at the run cap with an unwritten file says so live, as in its stored reply', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { title: 'Chapter 3', type: 'draft' }),
    say('writer', 'Chapter 3 is saved.'),
  ]);
  const r = await runTurn(h, sessionId, 'Write chapter 3');
  expect(r.outcome.status).toBe('exhausted');
  // The empty file is gone, and nothing claims otherwise on either side.
  expect(await h.runtime.models.File.countDocuments({ projectId, title: 'Chapter 3', deletedAt: null })).toBe(0);
  const live = chatText(r.events);
  expect(live).toContain('(Not saved: "Chapter 3" was never written and was removed.)');
  const stored = await h.runtime.models.Message.findOne({ turnId: r.turnId, role: 'assistant' })
    .sort({ seq: -1 })
    .lean();
  expect(stored!.content).toContain('(Not saved: "Chapter 3" was never written and was removed.)');
  // The correction comes after any claim, before the stop.
  const types = r.events.map((e) => e.type);
  expect(types.lastIndexOf('content')).toBeLessThan(types.indexOf('workflow_stopped'));
  expect(ofType(r.events, 'done')).toHaveLength(1);
});
