/**
 * The REST surface on real services: files with versions (author create/edit/restore,
 * stale base version → 409, soft delete), usage roll-ups with the estimate flag, one
 * running turn per session (409 with its id), interrupt/steer on ended turns.
 */
import { waitFor } from '../helpers/streams';
import {
  api,
  createHarness,
  createProjectAndSession,
  type Harness,
  postTurn,
  routerReply,
  runTurn,
  waitTurn,
} from '../helpers/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});
// A stalled entry left over from one test would be taken by the next one's writer.
beforeEach(() => h.model.reset());
afterEach(() => expect(h.model.failures).toEqual([]));

type FileBody = {
  id: string;
  version: number;
  latestAuthor: string;
  content: string;
  title: string;
  changed?: boolean;
  versions: {
    version: number;
    author: string;
    operation: string;
    words: number;
    turnId: string | null;
    content?: string;
  }[];
};

test('author files: create is version 1 by the author; edits add versions; a stale base version is refused with the head', async () => {
  const { projectId } = await createProjectAndSession(h);
  const created = await api<FileBody>(h, 'POST', '/api/v1/files', {
    projectId,
    type: 'character',
    title: 'Mara',
    content: 'A harbour pilot.',
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({
    version: 1,
    latestAuthor: 'author',
    content: 'A harbour pilot.',
    title: 'Mara',
  });
  expect(created.body.versions).toEqual([
    expect.objectContaining({ version: 1, author: 'author', operation: 'author_create', words: 3, turnId: null }),
  ]);
  expect(created.body.versions[0]!.content).toBeUndefined();
  const id = created.body.id;

  const edit = await api<FileBody>(h, 'PUT', `/api/v1/files/${id}`, {
    content: 'A harbour pilot. Fears deep water.',
    baseVersion: 1,
    title: 'Mara Voss',
  });
  expect(edit.status).toBe(200);
  expect(edit.body).toMatchObject({ version: 2, latestAuthor: 'author', title: 'Mara Voss', changed: true });
  expect(edit.body.versions.map((v) => [v.version, v.author, v.operation])).toEqual([
    [1, 'author', 'author_create'],
    [2, 'author', 'author_edit'],
  ]);

  const stale = await api<{ error: { code: string; details: { version: number } } }>(h, 'PUT', `/api/v1/files/${id}`, {
    content: 'Overwrite',
    baseVersion: 1,
  });
  expect(stale.status).toBe(409);
  expect(stale.body.error.code).toBe('version_conflict');
  expect(stale.body.error.details.version).toBe(2);

  const same = await api<FileBody>(h, 'PUT', `/api/v1/files/${id}`, { content: 'A harbour pilot. Fears deep water.' });
  expect(same.body).toMatchObject({ version: 2, changed: false });

  const v1 = await api<{ content: string; version: number; author: string }>(
    h,
    'GET',
    `/api/v1/files/${id}/versions/1`,
  );
  expect(v1.body).toMatchObject({ version: 1, author: 'author', content: 'A harbour pilot.' });

  const restored = await api<FileBody & { restoredFrom: number }>(h, 'POST', `/api/v1/files/${id}/restore`, {
    version: 1,
  });
  expect(restored.status).toBe(201);
  expect(restored.body).toMatchObject({
    version: 3,
    content: 'A harbour pilot.',
    latestAuthor: 'author',
    restoredFrom: 1,
  });
  expect(restored.body.versions[2]).toMatchObject({ version: 3, author: 'author', operation: 'restore' });
  // The history on its own: every version, oldest first, who made it and how, no text.
  const history = await api<{
    fileId: string;
    title: string;
    headVersion: number;
    items: { version: number; author: string; operation: string; content?: string }[];
  }>(h, 'GET', `/api/v1/files/${id}/versions`);
  expect(history.status).toBe(200);
  expect(history.body).toMatchObject({ fileId: id, title: 'Mara Voss', headVersion: 3 });
  expect(history.body.items.map((v) => [v.version, v.author, v.operation])).toEqual([
    [1, 'author', 'author_create'],
    [2, 'author', 'author_edit'],
    [3, 'author', 'restore'],
  ]);
  expect(history.body.items.every((v) => v.content === undefined)).toBe(true);
  expect((await api(h, 'GET', '/api/v1/files/0123456789abcdef01234567/versions')).status).toBe(404);
  // History only grows: version 2 is still there.
  expect((await api<{ content: string }>(h, 'GET', `/api/v1/files/${id}/versions/2`)).body.content).toBe(
    'A harbour pilot. Fears deep water.',
  );

  expect((await api(h, 'POST', `/api/v1/files/${id}/restore`, { version: 9 })).status).toBe(404);
  expect((await api(h, 'GET', `/api/v1/files/${id}/versions/9`)).status).toBe(404);
  for (const bad of ['0', 'abc', '1e3', '-1', '01'])
    expect(
      (await api<{ error: { code: string } }>(h, 'GET', `/api/v1/files/${id}/versions/${bad}`)).body.error.code,
    ).toBe('invalid_version');
});

test('listing by type carries no content; folders delete recursively only when asked; deleted files are gone', async () => {
  const { projectId } = await createProjectAndSession(h);
  const folder = await api<FileBody>(h, 'POST', '/api/v1/files', { projectId, type: 'folder', title: 'Part I' });
  const ch = await api<FileBody>(h, 'POST', '/api/v1/files', {
    projectId,
    type: 'draft',
    title: 'Chapter 1',
    content: 'It rained.',
    parentId: folder.body.id,
  });
  expect(ch.status).toBe(201);
  const notFolder = await api<{ error: { code: string } }>(h, 'POST', '/api/v1/files', {
    projectId,
    type: 'draft',
    title: 'x',
    parentId: ch.body.id,
  });
  expect(notFolder.body.error.code).toBe('invalid_parent');

  const drafts = await api<{ items: Record<string, unknown>[] }>(
    h,
    'GET',
    `/api/v1/projects/${projectId}/files?type=draft`,
  );
  expect(drafts.body.items.map((f) => f.title)).toEqual(['Chapter 1']);
  expect(drafts.body.items[0]).not.toHaveProperty('content');
  expect(drafts.body.items[0]).toMatchObject({
    version: 1,
    words: 2,
    latestAuthor: 'author',
    parentId: folder.body.id,
  });
  const all = await api<{ items: unknown[] }>(h, 'GET', `/api/v1/projects/${projectId}/files`);
  expect(all.body.items).toHaveLength(2);
  expect((await api(h, 'GET', `/api/v1/projects/${projectId}/files?type=poem`)).status).toBe(400);

  const refused = await api<{ error: { code: string } }>(h, 'DELETE', `/api/v1/files/${folder.body.id}`);
  expect(refused.status).toBe(409);
  expect(refused.body.error.code).toBe('folder_not_empty');
  expect((await api(h, 'DELETE', `/api/v1/files/${folder.body.id}?recursive=true`)).status).toBe(204);
  expect((await api(h, 'GET', `/api/v1/files/${ch.body.id}`)).status).toBe(404);
  expect((await api<{ items: unknown[] }>(h, 'GET', `/api/v1/projects/${projectId}/files`)).body.items).toHaveLength(0);
  // Soft delete: the versions are still in MongoDB.
  expect(await h.runtime.models.FileVersion.countDocuments({ fileId: ch.body.id })).toBe(1);
});

test('an author edit of an AI-written file is a new version marked author; usage rolls up per agent and turn with the estimate flag', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  h.model.script([
    routerReply({ current_agent: 'writer', workflow_plan: 'quick', workflow_agents: ['writer'], scope: 'ch1' }),
    {
      match: { agent: 'writer' },
      reply: {
        content: 'Writing.',
        toolCalls: [{ name: 'create_file', arguments: { type: 'draft', title: 'Chapter 1' } }],
      },
    },
    // No provider usage for this step: the activity estimates it and says so.
    { match: { agent: 'writer' }, reply: { content: '<file>\nThe tide turned.\n</file>\nSaved.', usage: null } },
  ]);
  const run = await runTurn(h, sessionId, 'Write chapter 1');
  expect(run.outcome.status).toBe('completed');
  const file = (await api<{ items: { id: string }[] }>(h, 'GET', `/api/v1/projects/${projectId}/files`)).body.items[0]!;
  const before = await api<FileBody>(h, 'GET', `/api/v1/files/${file.id}`);
  expect(before.body.versions).toEqual([expect.objectContaining({ version: 1, author: 'ai', turnId: run.turnId })]);
  const edited = await api<FileBody>(h, 'PUT', `/api/v1/files/${file.id}`, {
    content: 'The tide turned at dawn.\n',
    baseVersion: 1,
  });
  expect(edited.body.latestAuthor).toBe('author');
  expect(edited.body.versions.map((v) => v.author)).toEqual(['ai', 'author']);

  type Usage = {
    totals: { totalTokens: number; promptTokens: number; steps: number; estimated: boolean };
    byAgent: { agent: string; totalTokens: number; estimated: boolean }[];
    byTurn: { turnId: string; totalTokens: number; estimated: boolean; status: string }[];
  };
  const project = await api<Usage>(h, 'GET', `/api/v1/projects/${projectId}/usage`);
  const session = await api<Usage>(h, 'GET', `/api/v1/sessions/${sessionId}/usage`);
  expect(project.status).toBe(200);
  const records = await h.runtime.models.UsageRecord.find({ turnId: run.turnId }).lean();
  const sum = records.reduce((s, r) => s + r.totalTokens, 0);
  expect(sum).toBeGreaterThan(0);
  expect(project.body.totals).toMatchObject({ totalTokens: sum, steps: records.length, estimated: true });
  expect(session.body.totals).toEqual(project.body.totals);
  expect(project.body.totals.totalTokens).toBe(run.turn.usage!.totalTokens);
  const agents = Object.fromEntries(project.body.byAgent.map((a) => [a.agent, a]));
  expect(agents.router).toMatchObject({ estimated: false });
  expect(agents.writer).toMatchObject({ estimated: true });
  expect(project.body.byAgent.reduce((s, a) => s + a.totalTokens, 0)).toBe(sum);
  expect(project.body.byTurn).toEqual([
    expect.objectContaining({ turnId: run.turnId, totalTokens: sum, estimated: true, status: 'completed' }),
  ]);

  const mine = await api<Usage>(h, 'GET', '/api/v1/usage');
  expect(mine.body.totals.totalTokens).toBeGreaterThanOrEqual(sum);
});

test('a second turn while one runs gets 409 with the running turn id; signals to an ended turn get 409', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    routerReply({ current_agent: 'writer', workflow_plan: 'quick', workflow_agents: ['writer'], scope: 'x' }),
    // The writer hangs mid-answer, so the turn stays running until interrupted.
    {
      match: { agent: 'writer' },
      reply: { content: 'Let me think about the opening line for a long while.' },
      stallAfterChars: 10,
    },
  ]);
  const first = await postTurn(h, sessionId, 'Write chapter 1');
  await waitFor(() => h.model.requests.some((r) => r.agent === 'writer'), 10000, 'the writer to start');
  const second = await api<{ error: { code: string; details: { turnId: string } } }>(
    h,
    'POST',
    `/api/v1/sessions/${sessionId}/turns`,
    { message: 'And chapter 2' },
  );
  expect(second.status).toBe(409);
  expect(second.body.error.details.turnId).toBe(first);
  expect(await h.runtime.models.Turn.countDocuments({ sessionId })).toBe(1);

  const steer = await api(h, 'POST', `/api/v1/turns/${first}/steer`, { message: 'Make it rain.' });
  expect(steer.status).toBe(202);
  const stop = await api(h, 'POST', `/api/v1/turns/${first}/interrupt`, {});
  expect(stop.status).toBe(202);
  const outcome = await waitTurn(h, first);
  expect(outcome.status).toBe('interrupted');
  expect((await api<{ status: string }>(h, 'GET', `/api/v1/turns/${first}`)).body.status).toBe('interrupted');
  expect((await api(h, 'POST', `/api/v1/turns/${first}/interrupt`, {})).status).toBe(409);
  expect((await api(h, 'POST', `/api/v1/turns/${first}/steer`, { message: 'late' })).status).toBe(409);
});

test('projects and sessions: list, get, messages in order', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  const projects = await api<{ items: { id: string }[] }>(h, 'GET', '/api/v1/projects?limit=100');
  expect(projects.body.items.map((p) => p.id)).toContain(projectId);
  const sessions = await api<{ items: { id: string }[] }>(h, 'GET', `/api/v1/sessions?projectId=${projectId}`);
  expect(sessions.body.items.map((s) => s.id)).toEqual([sessionId]);
  h.model.script([
    routerReply({ current_agent: 'writer', workflow_plan: 'quick', workflow_agents: ['writer'], scope: 'hi' }),
    { match: { agent: 'writer' }, reply: { content: 'Hello, author.' } },
  ]);
  await runTurn(h, sessionId, 'Say hello');
  const messages = await api<{ items: { role: string; content: string; seq: number }[] }>(
    h,
    'GET',
    `/api/v1/sessions/${sessionId}/messages`,
  );
  expect(messages.body.items.map((m) => [m.role, m.content])).toEqual([
    ['user', 'Say hello'],
    ['assistant', 'Hello, author.'],
  ]);
});
