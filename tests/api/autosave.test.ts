/**
 * The editor's autosaves against the real API and MongoDB (src/db/author-saves.ts): a burst
 * of autosaves is one version in the history, not fifty; every save still moves the version
 * number, so a stale `baseVersion` is a 409 and an agent that read the text before the
 * author's latest autosave is told (`stale_content`) instead of writing over it; anything
 * else that becomes the head, a save by hand, the end of the window or a big cut ends a burst.
 */
import { createApp } from '../../src/api/app';
import { createLogger } from '../../src/logger';
import type { Models } from '../../src/db/models';
import { writeVersion } from '../../src/db/file-store';
import { createStartedServer } from '../helpers/app-server';
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { call, ofType, router, say } from '../helpers/script';

// One test runs a real turn on services shared with other suites.
jest.setTimeout(240_000);

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '5000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

interface Saved {
  version: number;
  content: string;
  changed: boolean;
  folded: boolean;
}
type Entry = [number, string, string, number];
type Server = Pick<Harness, 'baseUrl'>;

async function newFile(content: string): Promise<{ id: string; projectId: string; sessionId: string }> {
  const { projectId, sessionId } = await createProjectAndSession(h);
  const r = await api<{ id: string }>(h, 'POST', '/api/v1/files', {
    projectId,
    type: 'draft',
    title: 'Chapter 1',
    content,
  });
  expect(r.status).toBe(201);
  return { id: r.body.id, projectId, sessionId };
}

/** The editor's save: PUT with the version it started from; `autosave` unless saved by hand. */
async function save(
  id: string,
  content: string,
  baseVersion: number,
  autosave = true,
  server: Server = h,
): Promise<Saved> {
  const r = await api<Saved>(server, 'PUT', `/api/v1/files/${id}`, {
    content,
    baseVersion,
    ...(autosave ? { autosave: true } : {}),
  });
  expect(r.status).toBe(200);
  return r.body;
}

/** The history as the author sees it: [version, author, operation, saves] per entry, oldest first. */
async function history(id: string): Promise<Entry[]> {
  const r = await api<{ items: { version: number; author: string; operation: string; saves: number }[] }>(
    h,
    'GET',
    `/api/v1/files/${id}/versions`,
  );
  return r.body.items.map((v) => [v.version, v.author, v.operation, v.saves]);
}

const versionStatus = async (id: string, version: number) =>
  (await api(h, 'GET', `/api/v1/files/${id}/versions/${version}`)).status;

test('fifty autosaves are one version in the history; each save still moves the version number; the text before the burst is kept', async () => {
  const { id } = await newFile('Chapter one.');
  let text = 'Chapter one.';
  let version = 1;
  for (let i = 0; i < 50; i++) {
    text += ` word${i}`;
    const r = await save(id, text, version);
    expect(r).toMatchObject({ changed: true, folded: i > 0, version: version + 1, content: text });
    version = r.version;
  }
  expect(version).toBe(51);
  expect(await history(id)).toEqual([
    [1, 'author', 'author_create', 1],
    [51, 'author', 'author_autosave', 50],
  ]);
  const head = await api<{ content: string; version: number; versions: unknown[] }>(h, 'GET', `/api/v1/files/${id}`);
  expect(head.body).toMatchObject({ content: text, version: 51 });
  expect(head.body.versions).toHaveLength(2);
  expect((await api<{ content: string }>(h, 'GET', `/api/v1/files/${id}/versions/1`)).body.content).toBe(
    'Chapter one.',
  );
  // No turn was running: the folded versions are gone, not hidden.
  expect(await versionStatus(id, 2)).toBe(404);
  expect(await h.runtime.models.FileVersion.countDocuments({ fileId: id })).toBe(2);
});

test("an agent's write between autosaves splits the bursts, and an autosave from before it is a 409", async () => {
  const { id } = await newFile('The sea was calm.');
  let r = await save(id, 'The sea was calm. A gull.', 1);
  r = await save(id, 'The sea was calm. A gull cried.', r.version);
  r = await save(id, 'The sea was calm. A gull cried twice.', r.version);
  const beforeAgent = r.version;
  const agent = await writeVersion(h.runtime.models, id, 'The sea was calm. A gull cried twice.\nThe bell rang.', {
    author: 'ai',
    agent: 'writer',
    turnId: 'a-turn',
    operation: 'edit:append',
  });

  const stale = await api<{ error: { code: string; details: { version: number; latestAuthor: string } } }>(
    h,
    'PUT',
    `/api/v1/files/${id}`,
    {
      content: 'The sea was calm. A gull cried twice, then thrice.',
      baseVersion: beforeAgent,
      autosave: true,
    },
  );
  expect(stale.status).toBe(409);
  expect(stale.body.error).toMatchObject({
    code: 'version_conflict',
    details: { version: agent.version, latestAuthor: 'ai' },
  });
  expect((await api<{ content: string }>(h, 'GET', `/api/v1/files/${id}`)).body.content).toContain('The bell rang.');

  r = await save(id, 'The sea was calm. A gull cried twice.\nThe bell rang once.', agent.version);
  expect(r.folded).toBe(false);
  r = await save(id, 'The sea was calm. A gull cried twice.\nThe bell rang once more.', r.version);
  expect(r.folded).toBe(true);
  expect(await history(id)).toEqual([
    [1, 'author', 'author_create', 1],
    [beforeAgent, 'author', 'author_autosave', 3],
    [agent.version, 'ai', 'edit:append', 1],
    [r.version, 'author', 'author_autosave', 2],
  ]);
  // An autosave needs the version it was made from.
  const baseless = await api<{ error: { code: string } }>(h, 'PUT', `/api/v1/files/${id}`, {
    content: 'x',
    autosave: true,
  });
  expect(baseless.status).toBe(400);
});

test('a save by hand folds into the burst and closes it; saving the same text by hand only closes it', async () => {
  const { id } = await newFile('Rain.');
  let r = await save(id, 'Rain fell.', 1);
  r = await save(id, 'Rain fell hard.', r.version);
  const byHand = await save(id, 'Rain fell hard all night.', r.version, false);
  expect(byHand).toMatchObject({ changed: true, folded: true });
  r = await save(id, 'Rain fell hard all night. Mara slept.', byHand.version);
  expect(r.folded).toBe(false);
  r = await save(id, 'Rain fell hard all night. Mara slept badly.', r.version);
  expect(r.folded).toBe(true);
  const same = await save(id, 'Rain fell hard all night. Mara slept badly.', r.version, false);
  expect(same).toMatchObject({ changed: false, folded: false, version: r.version });
  const after = await save(id, 'Rain fell hard all night. Mara slept badly. Dawn.', r.version);
  expect(after.folded).toBe(false);
  expect(await history(id)).toEqual([
    [1, 'author', 'author_create', 1],
    [byHand.version, 'author', 'author_edit', 3],
    [r.version, 'author', 'author_autosave', 2],
    [after.version, 'author', 'author_autosave', 1],
  ]);
});

test('a burst folds saves for AUTOSAVE_BURST_MINUTES from its first save, then the next autosave starts a new entry', async () => {
  const { id } = await newFile('Fog.');
  let now = new Date('2030-01-01T10:00:00Z');
  const app = createApp({
    config: h.config,
    models: h.runtime.models,
    redis: h.runtime.redis,
    temporal: h.runtime.temporal,
    logger: createLogger('silent'),
    clock: () => now,
  });
  const server = await createStartedServer(app);
  try {
    expect(h.config.AUTOSAVE_BURST_MINUTES).toBe(10);
    let r = await save(id, 'Fog rolled.', 1, true, server);
    now = new Date('2030-01-01T10:09:59Z');
    r = await save(id, 'Fog rolled in.', r.version, true, server);
    expect(r.folded).toBe(true);
    now = new Date('2030-01-01T10:10:00Z');
    r = await save(id, 'Fog rolled in at dawn.', r.version, true, server);
    expect(r.folded).toBe(false);
    expect(await history(id)).toEqual([
      [1, 'author', 'author_create', 1],
      [3, 'author', 'author_autosave', 2],
      [4, 'author', 'author_autosave', 1],
    ]);
  } finally {
    await server.close();
  }
});

test('a save that cuts more than a paragraph is not folded: the text before the cut stays in the history', async () => {
  const long = `${'Mara walked the seawall and counted the lamps. '.repeat(30)}The end.`;
  const { id } = await newFile('Start.');
  const first = await save(id, long, 1);
  const cut = await save(id, 'The end.', first.version);
  expect(cut).toMatchObject({ changed: true, folded: false });
  expect((await history(id)).map((e) => e[0])).toEqual([1, first.version, cut.version]);
  expect((await api<{ content: string }>(h, 'GET', `/api/v1/files/${id}/versions/${first.version}`)).body.content).toBe(
    long,
  );
});

test("an agent's version landing between the check and a fold's write is a 409: the agent's text and the burst are kept", async () => {
  const { id } = await newFile('Draft.');
  const r = await save(id, 'Draft one.', 1);
  let raced = false;
  const real = h.runtime.models;
  const racingVersions = new Proxy(real.FileVersion, {
    get(target, prop) {
      if (prop === 'create')
        return async (doc: { author?: string }) => {
          if (!raced && doc.author === 'author') {
            raced = true;
            await writeVersion(real, id, 'Draft one, and the agent.', {
              author: 'ai',
              agent: 'writer',
              turnId: 'another-turn',
              operation: 'edit:append',
            });
          }
          return target.create(doc as never);
        };
      const v = Reflect.get(target, prop) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const app = createApp({
    config: h.config,
    models: { ...real, FileVersion: racingVersions } as Models,
    redis: h.runtime.redis,
    temporal: h.runtime.temporal,
    logger: createLogger('silent'),
    clock: () => new Date(),
  });
  const server = await createStartedServer(app);
  try {
    const res = await api<{ error: { code: string; details: { version: number } } }>(
      server,
      'PUT',
      `/api/v1/files/${id}`,
      { content: 'Draft one, mine.', baseVersion: r.version, autosave: true },
    );
    expect(raced).toBe(true);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'version_conflict', details: { version: r.version + 1 } });
  } finally {
    await server.close();
  }
  expect((await api<{ content: string }>(h, 'GET', `/api/v1/files/${id}`)).body.content).toBe(
    'Draft one, and the agent.',
  );
  expect(await history(id)).toEqual([
    [1, 'author', 'author_create', 1],
    [r.version, 'author', 'author_autosave', 1],
    [r.version + 1, 'ai', 'edit:append', 1],
  ]);
});

test("an agent that read the burst's head is refused (stale_content) after the author's next autosave, with the changes since the text it read", async () => {
  const { id, sessionId } = await newFile('The sea was calm.');
  const open = await save(id, 'The sea was calm.\nNobody spoke.', 1);
  const edit = { id, operation: 'replace', anchor: 'The sea was calm.', text: 'The sea was furious.' };
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    // Held back long enough for the author's autosave to land first.
    { ...call('writer', 'edit_file', edit), ttftMs: 5000 },
    call('writer', 'query_files', { id }),
    call('writer', 'edit_file', edit),
    say('writer', 'Done, keeping your new line.'),
  ]);
  // The writer's first request carries the burst's head in full; the author then types on.
  let folded: Saved | null = null;
  const autosave = h.model
    .waitForRequests(2, 120_000)
    .then(async () => (folded = await save(id, 'The sea was calm.\nNobody spoke a word.', open.version)));
  const run = await runTurn(h, sessionId, 'Make the sea in chapter 1 angrier');
  await autosave;
  expect(folded).toMatchObject({ folded: true, version: open.version + 1 });
  const results = ofType(run.events, 'tool_result').map((e) => e.data);
  expect(results.map((x) => [x.name, x.errorType ?? 'ok'])).toEqual([
    ['edit_file', 'stale_content'],
    ['query_files', 'ok'],
    ['edit_file', 'ok'],
  ]);
  // The folded version was kept for the running turn: its changes are the author's, line by line.
  expect(results[0]!.result).toMatchObject({
    seen_version: open.version,
    version: open.version + 1,
    changes: { added: ['Nobody spoke a word.'], removed: ['Nobody spoke.'] },
  });
  expect((await api<{ content: string }>(h, 'GET', `/api/v1/files/${id}`)).body.content).toBe(
    'The sea was furious.\nNobody spoke a word.',
  );
  const agentVersion = open.version + 2;
  expect(await history(id)).toEqual([
    [1, 'author', 'author_create', 1],
    [open.version + 1, 'author', 'author_autosave', 2],
    [agentVersion, 'ai', 'edit:replace', 1],
  ]);
  expect(await versionStatus(id, open.version)).toBe(200);
  // Once the project is quiet, the next fold removes what was kept hidden.
  const next = await save(id, 'The sea was furious.\nNobody spoke a word. Rain.', agentVersion);
  await save(id, 'The sea was furious.\nNobody spoke a word. Rain fell.', next.version);
  expect(await versionStatus(id, open.version)).toBe(404);
  expect(await versionStatus(id, next.version)).toBe(404);
});
