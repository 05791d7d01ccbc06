/**
 * The session keeps its reply language: a Chinese author answering "OK", "👍" or
 * "1" still gets Chinese; an explicit request switches it.
 */
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { requestsOf, router, say } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '100000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

const lastWriterSystem = () => requestsOf(h.model, 'writer').at(-1)!.system;

test('"OK" in a Chinese session gets a Chinese reply; "reply in English from now on" switches', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const turn = () => [
    router({ current_agent: 'writer', workflow_plan: 'quick', write_content: false }),
    say('writer', '好的。'),
  ];
  h.model.script(turn());
  await runTurn(h, sessionId, '我们聊聊主角林夏的性格吧');
  expect(lastWriterSystem()).toContain('使用简体中文回复');
  for (const m of ['OK', '👍 ok', '1']) {
    h.model.script(turn());
    const r = await runTurn(h, sessionId, m);
    expect({ m, system: lastWriterSystem().includes('使用简体中文回复') }).toEqual({ m, system: true });
    expect(r.outcome.status).toBe('completed');
  }
  h.model.script(turn());
  await runTurn(h, sessionId, 'reply in English from now on please');
  expect(lastWriterSystem()).toContain('Reply language: English');
  h.model.script(turn());
  await runTurn(h, sessionId, 'ok');
  expect(lastWriterSystem()).toContain('Reply language: English');
});

test('a new session that opens with "OK" or "1" answers in the author’s interface language, from the turn or the session', async () => {
  const turn = () => [
    router({ current_agent: 'writer', workflow_plan: 'quick', write_content: false }),
    say('writer', '好的。'),
  ];
  // The interface language given with the turn.
  const { sessionId } = await createProjectAndSession(h);
  h.model.script(turn());
  await runTurn(h, sessionId, 'OK', { uiLanguage: 'zh' });
  expect(lastWriterSystem()).toContain('使用简体中文回复');
  // … or kept on the session when it was opened.
  const { projectId } = await createProjectAndSession(h);
  const session = await h.runtime.models.Session.create({ projectId, ownerId: 'local', uiLanguage: 'zh' });
  h.model.script(turn());
  await runTurn(h, String(session._id), '1');
  expect(lastWriterSystem()).toContain('使用简体中文回复');
  // A message in a language of its own sets it, whatever the interface says.
  h.model.script(turn());
  await runTurn(h, String(session._id), 'Write the opening scene, please', { uiLanguage: 'zh' });
  expect(lastWriterSystem()).toContain('Reply language: English');
  // Without an interface language, "OK" in a new session is read as it always was (English).
  const plain = await createProjectAndSession(h);
  h.model.script(turn());
  await runTurn(h, plain.sessionId, 'OK');
  expect(lastWriterSystem()).toContain('Reply language: English');
});
