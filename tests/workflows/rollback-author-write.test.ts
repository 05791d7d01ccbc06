/**
 * Author safety at the end of a turn: an empty file the AI created and never wrote is rolled
 * back, but if the author saves text into it at that very moment, the file stays with its
 * whole history (the rollback used to delete the versions of every candidate file, including
 * one it no longer deleted).
 */
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { call, router, say } from '../helpers/script';

const AUTHOR_TEXT = 'The author wrote this while the turn was closing.';
let writeDuringRollback = false;
let failOnceAtRollback = false;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    config: { REVIEW_WORD_THRESHOLD: '300', MAX_AGENT_RUNS: '6' },
    faults: {
      hit: () => undefined,
      async pause(point, info) {
        if (point === 'finalize.before_rollback' && failOnceAtRollback) {
          failOnceAtRollback = false;
          throw new Error('finalize fails once, after its writes');
        }
        if (point !== 'finalize.before_rollback' || !writeDuringRollback) return;
        writeDuringRollback = false;
        const [fileId] = info.fileIds as string[];
        const res = await api(h, 'PUT', `/api/v1/files/${fileId}`, { content: AUTHOR_TEXT });
        if (res.status !== 200) throw new Error(`author save failed ${res.status}: ${JSON.stringify(res.body)}`);
      },
    },
  });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

const unwrittenChapter = () => [
  router({ current_agent: 'writer', workflow_plan: 'quick' }),
  call('writer', 'create_file', { type: 'draft', title: 'Chapter 3' }),
  say('writer', 'Chapter 3 is saved.'),
  say('writer', 'Saved again.'),
];

test('an unwritten AI file the author writes into while the turn rolls it back keeps the author text and its versions', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script(unwrittenChapter());
  writeDuringRollback = true;
  const { outcome } = await runTurn(h, sessionId, 'Write chapter 3');
  expect(outcome).toMatchObject({ status: 'failed', stopReason: 'empty_file_unwritten' });
  expect(writeDuringRollback).toBe(false); // the author's save happened inside the rollback

  const file = await h.runtime.models.File.findOne({ projectId, title: 'Chapter 3' }).lean();
  expect(file).toMatchObject({ content: AUTHOR_TEXT, latestAuthor: 'author' });
  const versions = await h.runtime.models.FileVersion.find({ fileId: String(file!._id) }).lean();
  expect(versions.map((v) => [v.author, v.content])).toContainEqual(['author', AUTHOR_TEXT]);
});

test('without an author save, the unwritten file and its versions are both gone', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script(unwrittenChapter());
  await runTurn(h, sessionId, 'Write chapter 3');
  expect(await h.runtime.models.File.countDocuments({ projectId })).toBe(0);
  expect(await h.runtime.models.FileVersion.countDocuments({ projectId })).toBe(0);
});

test('a finalize retried after its writes adds no message twice and reserves no sequence numbers again', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script(unwrittenChapter());
  failOnceAtRollback = true;
  const { turnId, outcome } = await runTurn(h, sessionId, 'Write chapter 3');
  expect(failOnceAtRollback).toBe(false); // the first attempt failed after writing the messages
  expect(outcome).toMatchObject({ status: 'failed', stopReason: 'empty_file_unwritten' });
  const replies = await h.runtime.models.Message.find({ turnId, role: 'assistant' }).sort({ seq: 1 }).lean();
  expect(replies.length).toBeGreaterThan(0);
  expect(new Set(replies.map((m) => m.key)).size).toBe(replies.length);
  // The retry found what the first attempt wrote: the session's counter ends at the last message.
  const session = await h.runtime.models.Session.findById(sessionId).lean();
  const all = await h.runtime.models.Message.find({ sessionId }).sort({ seq: 1 }).lean();
  expect(session!.messageSeq).toBe(all[all.length - 1]!.seq);
  expect(all.map((m) => m.seq)).toEqual(all.map((_, i) => i + 1));
  expect(await h.runtime.models.File.countDocuments({ projectId })).toBe(0);
});
