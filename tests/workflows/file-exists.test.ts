/**
 * create_file with the title of a file that already exists in the same folder: the model
 * gets `file_exists` with that file's id, to edit it, instead of a second "Chapter 2" beside
 * the first.
 */
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { call, ofType, requestsOf, router, say } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '100000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

test('a second file with an existing title in the same folder is refused with the existing id', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  const mine = await api<{ id: string }>(h, 'POST', '/api/v1/files', {
    projectId,
    type: 'draft',
    title: 'Chapter 2',
    content: 'The author wrote this chapter.',
  });
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { title: 'Chapter 2', type: 'draft' }),
    say('writer', 'Chapter 2 already exists; I left it as it is.'),
  ]);
  const r = await runTurn(h, sessionId, 'Write chapter 2');
  expect(r.outcome.status).toBe('completed');

  const drafts = await h.runtime.models.File.find({ projectId, title: 'Chapter 2', deletedAt: null }).lean();
  expect(drafts.map((f) => String(f._id))).toEqual([mine.body.id]);
  expect(drafts[0]).toMatchObject({ content: 'The author wrote this chapter.', versionCount: 1 });
  expect(ofType(r.events, 'file_created')).toEqual([]);
  expect(ofType(r.events, 'tool_result').map((e) => [e.data.name, e.data.ok, e.data.errorType])).toEqual([
    ['create_file', false, 'file_exists'],
  ]);
  // The model is told which file to edit.
  const followUp = requestsOf(h.model, 'writer')[1]!;
  expect(followUp.all).toContain(`"error_type":"file_exists"`);
  expect(followUp.all).toContain(mine.body.id);
});

test('the same title in another folder is a different file', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  await api(h, 'POST', '/api/v1/files', { projectId, type: 'draft', title: 'Notes', content: 'Top-level notes.' });
  const folder = await api<{ id: string }>(h, 'POST', '/api/v1/files', { projectId, type: 'folder', title: 'Part II' });
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', {
      title: 'Notes',
      type: 'setting',
      parent_id: folder.body.id,
      content: 'Notes for part two.',
    }),
    say('writer', 'Saved the notes for part two.'),
  ]);
  const r = await runTurn(h, sessionId, 'Add notes for part two');
  expect(r.outcome.status).toBe('completed');
  expect(await h.runtime.models.File.countDocuments({ projectId, title: 'Notes', deletedAt: null })).toBe(2);
});
