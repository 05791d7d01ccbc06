/**
 * Author-file protection bound to what the author said about that file,
 * inside real turns: whole references, folders, the open file.
 */
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { call, ofType, router, say } from '../helpers/script';
import { writeVersion } from '../../src/db/file-store';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '5000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

async function authorFile(
  projectId: string,
  title: string,
  content: string,
  parentId: string | null = null,
  type = 'draft',
): Promise<string> {
  const f = await h.runtime.models.File.create({
    projectId,
    ownerId: 'local',
    type,
    title,
    parentId,
    content: '',
    versionCount: 0,
  });
  if (content)
    await writeVersion(h.runtime.models, String(f._id), content, { author: 'author', operation: 'author_edit' });
  return String(f._id);
}

const live = async (id: string) => (await h.runtime.models.File.findById(id).lean())?.deletedAt === null;

test('"delete Chapter 10" deletes the author’s Chapter 10 and refuses their Chapter 1 (whole references, numerals equal)', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const ch1 = await authorFile(projectId, 'Chapter 1', 'My opening.');
  const ch10 = await authorFile(projectId, '第十章', 'My ending.');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', write_content: false }),
    call('writer', 'delete_file', { id: ch1 }),
    call('writer', 'delete_file', { id: ch10 }),
    say('writer', 'Deleted chapter 10; chapter 1 is untouched.'),
  ]);
  const r = await runTurn(h, sessionId, 'Please delete Chapter 10');
  const results = ofType(r.events, 'tool_result').map((e) => e.data);
  // Chapter 1 was not named: the author is asked (and says no here); Chapter 10 was, so it goes at once.
  expect(ofType(r.events, 'approval_requested').map((e) => e.data)).toEqual([
    expect.objectContaining({ fileId: ch1, title: 'Chapter 1', action: 'delete' }),
  ]);
  expect(ofType(r.events, 'approval_decided').map((e) => e.data.decision)).toEqual(['deny']);
  expect(results[0]).toMatchObject({
    name: 'delete_file',
    ok: false,
    errorType: 'author_declined',
    refusal: 'kept_your_edits',
  });
  expect(results[1]).toMatchObject({ name: 'delete_file', ok: true });
  expect(await live(ch1)).toBe(true);
  expect(await live(ch10)).toBe(false);
});

test('a recursive folder delete protects the author files inside unless each is named; the open file counts as named', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const folder = await h.runtime.models.File.create({ projectId, ownerId: 'local', type: 'folder', title: 'Act I' });
  const folderId = String(folder._id);
  const mine = await authorFile(projectId, 'Prologue', 'The author wrote this.', folderId);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', write_content: false }),
    call('writer', 'delete_file', { id: folderId, recursive: true }),
    say('writer', 'Your Prologue is inside Act I; shall I delete it too?'),
  ]);
  const r = await runTurn(h, sessionId, 'Delete the Act I folder');
  const refused = ofType(r.events, 'tool_result')[0]!.data;
  expect(refused).toMatchObject({ ok: false, errorType: 'author_declined' });
  // The approval asked names exactly the author's file inside the folder.
  expect(ofType(r.events, 'approval_requested')[0]!.data).toMatchObject({
    action: 'delete',
    files: [{ id: mine, title: 'Prologue' }],
  });
  expect(await live(folderId)).toBe(true);
  expect(await live(mine)).toBe(true);

  // With the Prologue open in the editor, "delete this" names it.
  h.model.reset();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', write_content: false }),
    call('writer', 'delete_file', { id: mine }),
    say('writer', 'Deleted.'),
  ]);
  const r2 = await runTurn(h, sessionId, 'delete this', { focusFileId: mine });
  expect(ofType(r2.events, 'tool_result')[0]!.data).toMatchObject({ name: 'delete_file', ok: true });
  expect(await live(mine)).toBe(false);
});
