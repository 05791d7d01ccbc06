/**
 * The trash on real services: a delete (the author's or an agent's) is recoverable with
 * its versions until FILE_TRASH_RETENTION_DAYS ends; a folder's undelete brings back what
 * its recursive delete took; an undelete never overwrites a live file.
 */
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { call, ofType, router, say } from '../helpers/script';

// Turns on services shared with other suites: a loaded machine makes each take seconds.
jest.setTimeout(240_000);

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

type FileBody = {
  id: string;
  title: string;
  content: string;
  parentId: string | null;
  versions: { version: number; author: string }[];
};
type Trashed = { id: string; title: string; deletedAt: string; purgeAt: string; deletedWith: string | null };
type Restored = FileBody & { restored: { id: string; title: string; renamedFrom?: string; movedToTop?: true }[] };

async function file(
  projectId: string,
  title: string,
  content = '',
  extra: Record<string, unknown> = {},
): Promise<string> {
  const r = await api<FileBody>(h, 'POST', '/api/v1/files', { projectId, type: 'draft', title, content, ...extra });
  expect(r.status).toBe(201);
  return r.body.id;
}
const trash = async (projectId: string) =>
  (await api<{ items: Trashed[] }>(h, 'GET', `/api/v1/projects/${projectId}/files?deleted=true`)).body.items;
const live = async (projectId: string) =>
  (await api<{ items: { id: string; title: string }[] }>(h, 'GET', `/api/v1/projects/${projectId}/files`)).body.items;

test('deletes are recoverable: a deleted file is listed in the trash and undelete brings it back with all its versions', async () => {
  const { projectId } = await createProjectAndSession(h);
  const id = await file(projectId, 'Chapter 1', 'First draft.');
  expect((await api(h, 'PUT', `/api/v1/files/${id}`, { content: 'Second draft.', baseVersion: 1 })).status).toBe(200);
  expect((await api(h, 'DELETE', `/api/v1/files/${id}`)).status).toBe(204);

  expect(await live(projectId)).toEqual([]);
  expect((await api(h, 'GET', `/api/v1/files/${id}`)).status).toBe(404);
  const listed = await trash(projectId);
  expect(listed.map((f) => f.title)).toEqual(['Chapter 1']);
  // The retention period (30 days by default) is part of the listing.
  expect(Date.parse(listed[0]!.purgeAt) - Date.parse(listed[0]!.deletedAt)).toBe(30 * 86_400_000);
  // The same listing addressed by query, as the files routes are.
  const byQuery = await api<{ items: Trashed[] }>(h, 'GET', `/api/v1/files?projectId=${projectId}&deleted=true`);
  expect(byQuery.body.items.map((f) => f.id)).toEqual([id]);
  expect((await api<{ items: unknown[] }>(h, 'GET', `/api/v1/files?projectId=${projectId}`)).body.items).toEqual([]);

  const back = await api<Restored>(h, 'POST', `/api/v1/files/${id}/undelete`);
  expect(back.status).toBe(200);
  expect(back.body).toMatchObject({ id, title: 'Chapter 1', content: 'Second draft.' });
  expect(back.body.versions.map((v) => v.version)).toEqual([1, 2]);
  expect(back.body.restored).toEqual([{ id, title: 'Chapter 1', type: 'draft' }]);
  expect((await live(projectId)).map((f) => f.id)).toEqual([id]);
  expect(await trash(projectId)).toEqual([]);
  const again = await api<{ error: { code: string } }>(h, 'POST', `/api/v1/files/${id}/undelete`);
  expect([again.status, again.body.error.code]).toEqual([409, 'not_deleted']);
});

test('undeleting a folder restores what its recursive delete removed, not what was deleted on its own before', async () => {
  const { projectId } = await createProjectAndSession(h);
  const folder = (await api<FileBody>(h, 'POST', '/api/v1/files', { projectId, type: 'folder', title: 'Part I' })).body
    .id;
  const sub = (
    await api<FileBody>(h, 'POST', '/api/v1/files', {
      projectId,
      type: 'folder',
      title: 'Interludes',
      parentId: folder,
    })
  ).body.id;
  const ch1 = await file(projectId, 'Chapter 1', 'One.', { parentId: folder });
  const ch2 = await file(projectId, 'Chapter 2', 'Two.', { parentId: folder });
  const inter = await file(projectId, 'Interlude', 'Rain.', { parentId: sub });
  expect((await api(h, 'DELETE', `/api/v1/files/${ch2}`)).status).toBe(204);
  expect((await api(h, 'DELETE', `/api/v1/files/${folder}?recursive=true`)).status).toBe(204);
  const listed = await trash(projectId);
  expect(listed).toHaveLength(5);
  expect(listed.find((f) => f.id === ch1)!.deletedWith).toBe(folder);
  expect(listed.find((f) => f.id === ch2)!.deletedWith).toBeNull();

  const back = await api<Restored>(h, 'POST', `/api/v1/files/${folder}/undelete`);
  expect(back.status).toBe(200);
  expect(back.body.restored.map((r) => r.id).sort()).toEqual([folder, sub, ch1, inter].sort());
  expect((await live(projectId)).map((f) => f.title).sort()).toEqual([
    'Chapter 1',
    'Interlude',
    'Interludes',
    'Part I',
  ]);
  expect((await trash(projectId)).map((f) => f.id)).toEqual([ch2]);
  const restoredChild = await api<FileBody>(h, 'GET', `/api/v1/files/${inter}`);
  expect(restoredChild.body).toMatchObject({ parentId: sub, content: 'Rain.' });
});

test('undelete of a title that exists again never overwrites the live file: the restored one is renamed', async () => {
  const { projectId } = await createProjectAndSession(h);
  const old = await file(projectId, 'Chapter 1', 'The old opening.');
  expect((await api(h, 'DELETE', `/api/v1/files/${old}`)).status).toBe(204);
  const fresh = await file(projectId, 'Chapter 1', 'The new opening.');

  const back = await api<Restored>(h, 'POST', `/api/v1/files/${old}/undelete`);
  expect(back.status).toBe(200);
  expect(back.body.restored).toEqual([
    { id: old, title: 'Chapter 1 (restored)', type: 'draft', renamedFrom: 'Chapter 1' },
  ]);
  expect(back.body.content).toBe('The old opening.');
  const current = await api<FileBody>(h, 'GET', `/api/v1/files/${fresh}`);
  expect(current.body).toMatchObject({ title: 'Chapter 1', content: 'The new opening.' });
  expect(current.body.versions).toHaveLength(1);
});

test('a file whose folder is still in the trash comes back at the top level', async () => {
  const { projectId } = await createProjectAndSession(h);
  const folder = (await api<FileBody>(h, 'POST', '/api/v1/files', { projectId, type: 'folder', title: 'Act I' })).body
    .id;
  const ch = await file(projectId, 'Scene 1', 'Dawn.', { parentId: folder });
  expect((await api(h, 'DELETE', `/api/v1/files/${folder}?recursive=true`)).status).toBe(204);
  const back = await api<Restored>(h, 'POST', `/api/v1/files/${ch}/undelete`);
  expect(back.body.restored).toEqual([{ id: ch, title: 'Scene 1', type: 'draft', movedToTop: true }]);
  expect(back.body.parentId).toBeNull();
  expect((await trash(projectId)).map((f) => f.id)).toEqual([folder]);
});

test('after the retention period trashed files and their versions are purged, and undelete answers 404', async () => {
  const { projectId } = await createProjectAndSession(h);
  const expired = await file(projectId, 'Old notes', 'Gone soon.');
  const recent = await file(projectId, 'Recent notes', 'Still here.');
  for (const id of [expired, recent]) expect((await api(h, 'DELETE', `/api/v1/files/${id}`)).status).toBe(204);
  const day = 86_400_000;
  await h.runtime.models.File.updateOne({ _id: expired }, { $set: { deletedAt: new Date(Date.now() - 31 * day) } });
  await h.runtime.models.File.updateOne({ _id: recent }, { $set: { deletedAt: new Date(Date.now() - 29 * day) } });

  expect((await api(h, 'POST', `/api/v1/files/${expired}/undelete`)).status).toBe(404);
  expect((await trash(projectId)).map((f) => f.id)).toEqual([recent]);
  // Listing purged the expired file for good: the file and every version of it.
  expect(await h.runtime.models.File.countDocuments({ _id: expired })).toBe(0);
  expect(await h.runtime.models.FileVersion.countDocuments({ fileId: expired })).toBe(0);
  expect(await h.runtime.models.FileVersion.countDocuments({ fileId: recent })).toBe(1);
  expect((await api(h, 'POST', `/api/v1/files/${recent}/undelete`)).status).toBe(200);
});

test("an agent's delete_file puts the file in the trash, and the author can undelete it", async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'outline', title: 'Outline', content: 'Act one: the storm.' }),
    say('writer', 'Saved the outline.'),
  ]);
  await runTurn(h, sessionId, 'Write an outline');
  const outline = (await live(projectId))[0]!.id;
  h.model.reset();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'delete_file', { id: outline }),
    say('writer', 'Deleted the outline.'),
  ]);
  const r = await runTurn(h, sessionId, 'Delete the Outline');
  expect(ofType(r.events, 'tool_result')[0]!.data).toMatchObject({ ok: true, result: { in_trash: true } });
  expect((await trash(projectId)).map((f) => f.id)).toEqual([outline]);
  const back = await api<Restored>(h, 'POST', `/api/v1/files/${outline}/undelete`);
  expect(back.body).toMatchObject({ title: 'Outline', content: 'Act one: the storm.' });
});
