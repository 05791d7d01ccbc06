/**
 * The author's work inside real turns: `stale_content` from the
 * request's read snapshots, edits that land only on the head they checked, the author's
 * net diff (`author_edits`) and `author_edits_touched`.
 */
import { createApp } from '../../src/api/app';
import { createLogger } from '../../src/logger';
import type { Models } from '../../src/db/models';
import { authorEdits, authorLines, rememberSeen, VersionConflict, writeVersion } from '../../src/db/file-store';
import { editFile } from '../../src/activities/tools/file-tools';
import { deleteFile } from '../../src/activities/tools/delete-file';
import { createStartedServer } from '../helpers/app-server';
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { call, ofType, router, say, words } from '../helpers/script';

// Turns on services shared with other suites: a loaded machine makes each take seconds.
jest.setTimeout(240_000);

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '5000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

async function authorFile(projectId: string, title: string, content: string): Promise<string> {
  const r = await api<{ id: string }>(h, 'POST', '/api/v1/files', { projectId, type: 'draft', title, content });
  expect(r.status).toBe(201);
  return r.body.id;
}

/** A file whose version 1 an agent wrote in an earlier turn. */
async function aiFile(projectId: string, title: string, content: string, order = 0): Promise<string> {
  const f = await h.runtime.models.File.create({ projectId, ownerId: 'local', type: 'draft', title, order });
  await writeVersion(h.runtime.models, String(f._id), content, {
    author: 'ai',
    agent: 'writer',
    turnId: 'an-earlier-turn',
    operation: 'create',
  });
  return String(f._id);
}

const authorWrites = (fileId: string, content: string) =>
  writeVersion(h.runtime.models, fileId, content, { author: 'author', operation: 'author_edit' });
const contentOf = async (fileId: string) => (await h.runtime.models.File.findById(fileId).lean())!.content;
/** The model holds this reply back long enough for the author's edit to land first. */
const slow = <T extends object>(entry: T) => ({ ...entry, ttftMs: 5000 });

test('stale_content: an author edit during generation is refused with the new changes, even where the anchor still matches; after a re-read the edit lands', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const id = await authorFile(projectId, 'Chapter 1', 'The sea was calm.\nNobody spoke.');
  const edit = { id, operation: 'replace', anchor: 'The sea was calm.', text: 'The sea was furious.' };
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    slow(call('writer', 'edit_file', edit)),
    call('writer', 'query_files', { id }),
    call('writer', 'edit_file', edit),
    say('writer', 'Done, keeping your new line.'),
  ]);
  // The writer's first request carries chapter 1 [full] (version 1); the author then edits another line.
  const authorEdit = h.model
    .waitForRequests(2, 120_000)
    .then(() => authorWrites(id, 'The sea was calm.\nNobody spoke a word.'));
  const r = await runTurn(h, sessionId, 'Make the sea in chapter 1 angrier');
  await authorEdit;
  const res = ofType(r.events, 'tool_result').map((e) => e.data);
  expect(res.map((x) => [x.name, x.errorType ?? 'ok'])).toEqual([
    ['edit_file', 'stale_content'],
    ['query_files', 'ok'],
    ['edit_file', 'ok'],
  ]);
  expect(res[0]!.result).toMatchObject({
    seen_version: 1,
    version: 2,
    changes: { added: ['Nobody spoke a word.'], removed: ['Nobody spoke.'] },
  });
  expect(String((res[0]!.result as { changes: { diff: string } }).changes.diff)).toContain('+Nobody spoke a word.');
  expect(await contentOf(id)).toBe('The sea was furious.\nNobody spoke a word.');
});

test('a query_files read counts only from the next model call: an edit in the same reply as the read is still stale', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const id = await authorFile(projectId, 'Chapter 1', 'Rain fell.\nThe door creaked.');
  const edit = { id, operation: 'replace', anchor: 'Rain fell.', text: 'Hail fell.' };
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    slow({
      match: { agent: 'writer' as const },
      reply: {
        toolCalls: [
          { name: 'query_files', arguments: { id } },
          { name: 'edit_file', arguments: edit },
        ],
      },
    }),
    call('writer', 'edit_file', edit),
    say('writer', 'Done.'),
  ]);
  const authorEdit = h.model.waitForRequests(2, 120_000).then(() => authorWrites(id, 'Rain fell.\nThe door slammed.'));
  const r = await runTurn(h, sessionId, 'Change the weather in chapter 1');
  await authorEdit;
  expect(ofType(r.events, 'tool_result').map((e) => [e.data.name, e.data.errorType ?? 'ok'])).toEqual([
    ['query_files', 'ok'],
    ['edit_file', 'stale_content'],
    ['edit_file', 'ok'],
  ]);
  expect(await contentOf(id)).toBe('Hail fell.\nThe door slammed.');
});

test("reads are cleared when the agent changes: the planner's read does not vouch for the writer's edit", async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const id = await authorFile(projectId, 'Chapter 1', 'Mara waited.\nThe bell rang.');
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'standard', workflow_agents: ['planner', 'writer'] }),
    slow(call('planner', 'query_files', { id })),
    say('planner', 'Plan: sharpen the first line.'),
    call('writer', 'edit_file', { id, operation: 'replace', anchor: 'Mara waited.', text: 'Mara paced.' }),
    say('writer', 'Your chapter changed meanwhile; I kept it.'),
  ]);
  const authorEdit = h.model
    .waitForRequests(2, 120_000)
    .then(() => authorWrites(id, 'Mara waited.\nThe bell rang twice.'));
  const r = await runTurn(h, sessionId, 'Plan and revise chapter 1');
  await authorEdit;
  expect(ofType(r.events, 'tool_result').map((e) => [e.agent, e.data.name, e.data.errorType ?? 'ok'])).toEqual([
    ['planner', 'query_files', 'ok'],
    ['writer', 'edit_file', 'stale_content'],
  ]);
  expect(await contentOf(id)).toBe('Mara waited.\nThe bell rang twice.');
});

test("the request's own writes count as seen: an author edit after the agent's own write makes its next edit stale", async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  // Chapter 1 stays out of chapter 5's context, so only the writer's own write can make it "seen".
  const first = await aiFile(projectId, 'Chapter 1', 'Old line.', 1);
  for (const n of [2, 3, 4, 5]) await aiFile(projectId, `Chapter ${n}`, `Chapter ${n} text.`, n);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'edit_file', { id: first, operation: 'append', text: 'A coda.' }),
    slow(call('writer', 'edit_file', { id: first, operation: 'replace', anchor: 'Old line.', text: 'New line.' })),
    say('writer', 'Kept your change.'),
  ]);
  const authorEdit = h.model
    .waitForRequests(3, 120_000)
    .then(() => authorWrites(first, 'Old line.\nA coda, as I like it.'));
  const r = await runTurn(h, sessionId, 'Tidy the punctuation in chapter 5');
  await authorEdit;
  expect(JSON.stringify(h.model.requests.filter((q) => q.agent === 'writer')[1]!.body.messages)).not.toContain(
    `(id=${first}) [full]`,
  );
  expect(ofType(r.events, 'tool_result').map((e) => [e.data.name, e.data.errorType ?? 'ok'])).toEqual([
    ['edit_file', 'ok'],
    ['edit_file', 'stale_content'],
  ]);
  expect(await contentOf(first)).toBe('Old line.\nA coda, as I like it.');
});

test('a file not seen in full this request is edited by exact match only (no snapshot, so no stale check)', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  // Chapter 1 is longer than the whole context budget, so it is never shown [full] (at most cut).
  const rest = `\n${words(40_000)}`;
  const first = await authorFile(projectId, 'Chapter 1', `Old harbour.\nGulls.${rest}`);
  for (const n of [2, 3, 4, 5]) await aiFile(projectId, `Chapter ${n}`, `Chapter ${n} text.`, n);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    slow(call('writer', 'edit_file', { id: first, operation: 'replace', anchor: 'Gulls.', text: 'Gulls cried.' })),
    call('writer', 'edit_file', { id: first, operation: 'replace', anchor: 'Old harbour.', text: 'The old harbour.' }),
    say('writer', 'Done.'),
  ]);
  const authorEdit = h.model
    .waitForRequests(2, 120_000)
    .then(() => authorWrites(first, `Old harbour at dusk.\nGulls.${rest}`));
  const r = await runTurn(h, sessionId, 'Tidy the punctuation in chapter 5');
  await authorEdit;
  const requests = h.model.requests.filter((q) => q.agent === 'writer');
  expect(JSON.stringify(requests[0]!.body.messages)).not.toContain(`(id=${first}) [full]`);
  expect(ofType(r.events, 'tool_result').map((e) => [e.data.name, e.data.errorType ?? 'ok'])).toEqual([
    ['edit_file', 'ok'],
    ['edit_file', 'anchor_not_found'],
  ]);
  expect(await contentOf(first)).toBe(`Old harbour at dusk.\nGulls cried.${rest}`);
});

test('edit_file writes only on the head it checked: an author version landing between the check and the write is never overwritten', async () => {
  const { projectId } = await createProjectAndSession(h);
  const id = await authorFile(projectId, 'Chapter 1', 'Calm water.\nA gull.');
  const turnId = 'f'.repeat(24);
  await rememberSeen(h.runtime.models, turnId, id, 1);
  // The author's save lands right before the agent's version insert, after every check passed.
  let raced = false;
  const real = h.runtime.models;
  const racingVersions = new Proxy(real.FileVersion, {
    get(target, prop) {
      if (prop === 'create')
        return async (doc: unknown) => {
          if (!raced) {
            raced = true;
            await authorWrites(id, 'Calm water.\nTwo gulls.');
          }
          return target.create(doc as never);
        };
      const v = Reflect.get(target, prop) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const models = { ...real, FileVersion: racingVersions } as Models;
  const out = await editFile(
    {
      models,
      turnId,
      projectId,
      ownerId: 'local',
      agent: 'writer',
      authorMessage: 'calmer',
      focusFileId: null,
      key: `${turnId}:1:c1`,
      run: 1,
      step: 2,
      event: (d) => d,
    },
    { id, operation: 'replace', anchor: 'Calm water.', text: 'Still water.' },
  );
  expect(raced).toBe(true);
  expect(out.body).toMatchObject({ ok: false, error_type: 'stale_content', version: 2 });
  expect(await contentOf(id)).toBe('Calm water.\nTwo gulls.');
  expect((await real.FileVersion.find({ fileId: id }).lean()).map((v) => v.author)).toEqual(['author', 'author']);
});

test("an agent's delete does not take an author edit that lands between its check and the trash: the file is kept", async () => {
  const { projectId } = await createProjectAndSession(h);
  const id = await aiFile(projectId, 'Chapter 2', 'AI text.');
  let raced = false;
  const real = h.runtime.models;
  const racingFiles = new Proxy(real.File, {
    get(target, prop) {
      if (prop === 'updateMany')
        return async (...args: unknown[]) => {
          if (!raced) {
            raced = true;
            await authorWrites(id, 'AI text, and my own line.');
          }
          return (target.updateMany as (...a: unknown[]) => unknown)(...args);
        };
      const v = Reflect.get(target, prop) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const turnId = 'e'.repeat(24);
  const out = await deleteFile(
    {
      models: { ...real, File: racingFiles } as Models,
      turnId,
      projectId,
      ownerId: 'local',
      agent: 'writer',
      authorMessage: 'tidy up',
      focusFileId: null,
      key: `${turnId}:1:d1`,
      run: 1,
      step: 1,
      event: (d) => d,
    },
    { id },
  );
  expect(raced).toBe(true);
  expect(out.body).toMatchObject({ ok: false, error_type: 'stale_content' });
  expect(await real.File.findById(id).lean()).toMatchObject({ deletedAt: null, content: 'AI text, and my own line.' });
});

test("the author's baseVersion edit is a compare-and-set: an agent's version landing after the check is a 409, not overwritten", async () => {
  const { projectId } = await createProjectAndSession(h);
  const id = await aiFile(projectId, 'Chapter 1', 'Draft one.');
  let raced = false;
  const real = h.runtime.models;
  const racingVersions = new Proxy(real.FileVersion, {
    get(target, prop) {
      if (prop === 'create')
        return async (doc: { author?: string }) => {
          if (!raced && doc.author === 'author') {
            raced = true;
            await writeVersion(real, id, 'Draft two by the agent.', {
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
    const res = await api<{ error: { code: string; details: { version: number; latestAuthor: string } } }>(
      server,
      'PUT',
      `/api/v1/files/${id}`,
      { content: 'My draft.', baseVersion: 1 },
    );
    expect(raced).toBe(true);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'version_conflict', details: { version: 2, latestAuthor: 'ai' } });
  } finally {
    await server.close();
  }
  expect(await contentOf(id)).toBe('Draft two by the agent.');
  await expect(
    writeVersion(real, id, 'late', { author: 'author', operation: 'author_edit', expectedVersion: 1 }),
  ).rejects.toBeInstanceOf(VersionConflict);
});

test("author_edits: query_files by id returns the author's net diff since the last AI version (a real diff: a moved line shows)", async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const id = await aiFile(projectId, 'Chapter 1', 'Alpha.\nBeta.\nGamma.');
  await authorWrites(id, 'Alpha.\nGamma.\nBeta.');
  // Only moved lines: a set of lines would say the author changed nothing.
  expect(await authorLines(h.runtime.models, id)).toEqual(['Beta.']);
  await authorWrites(id, 'Alpha.\nGamma.\nBeta.\nDelta, my own.');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'query_files', { id }),
    say('writer', 'Read it.'),
  ]);
  const r = await runTurn(h, sessionId, 'Read chapter 1');
  const result = ofType(r.events, 'tool_result')[0]!.data.result as {
    author_edits: { since_version: number; version: number; diff: string };
  };
  expect(result.author_edits).toMatchObject({ since_version: 1, version: 3 });
  expect(result.author_edits.diff).toContain('+Delta, my own.');
  // The moved line is both removed and added (whichever of the two the diff moves).
  const lines = result.author_edits.diff.split('\n');
  expect(lines.some((l) => l.startsWith('-') && lines.includes(`+${l.slice(1)}`))).toBe(true);
  expect(result.author_edits.diff).not.toContain('No newline');
  // The model got the diff, not a summary.
  const sent = h.model.requests.filter((q) => q.agent === 'writer')[1]!;
  expect(JSON.stringify(sent.body.messages)).toContain('+Delta, my own.');

  // After the AI writes again, there is nothing of the author's left to report.
  await writeVersion(h.runtime.models, id, 'Alpha.\nGamma.\nBeta.\nDelta, my own.\nEpsilon.', {
    author: 'ai',
    agent: 'writer',
    turnId: 'later',
    operation: 'edit:append',
  });
  expect(await authorEdits(h.runtime.models, id)).toBeNull();
});

test('author_edits_touched: only an edit that changes a paragraph the author wrote carries it, with the version that undoes it', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const id = await aiFile(projectId, 'Chapter 1', 'The AI opening.\nThe AI middle.');
  await authorWrites(id, 'The AI opening.\nMy middle, in my words.');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'edit_file', { id, operation: 'replace', anchor: 'The AI opening.', text: 'A sharper opening.' }),
    call('writer', 'edit_file', { id, operation: 'replace', anchor: 'in my words', text: 'in better words' }),
    say('writer', 'Done.'),
  ]);
  const r = await runTurn(h, sessionId, 'Polish chapter 1: sharpen the opening and the middle');
  const [first, second] = ofType(r.events, 'tool_result').map((e) => e.data);
  expect(first).toMatchObject({ ok: true });
  expect(first!.result).not.toHaveProperty('author_edits_touched');
  expect(second).toMatchObject({ ok: true, result: { author_edits_touched: true, previous_version: 3 } });
  expect(await contentOf(id)).toBe('A sharper opening.\nMy middle, in better words.');
});

test('tool cards tell the truth: intentional refusals carry their kind (kept your edits, asking first, read-only); real failures do not', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const id = await authorFile(projectId, 'Prologue', 'My opening.');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'delete_file', { id }),
    call('writer', 'edit_file', { id: 'b'.repeat(24), operation: 'append', text: 'x' }),
    say('writer', 'I kept your prologue.'),
  ]);
  const r1 = await runTurn(h, sessionId, 'Clean up the project');
  expect(ofType(r1.events, 'tool_result').map((e) => [e.data.errorType, e.data.refusal])).toEqual([
    ['author_declined', 'kept_your_edits'],
    ['not_found', undefined],
  ]);

  h.model.reset();
  h.model.script([
    call('writer', 'edit_file', { id, operation: 'append', text: 'More.' }),
    say('writer', 'What should I change: pacing or tone?'),
  ]);
  const r2 = await runTurn(h, sessionId, '帮我优化一下');
  expect(ofType(r2.events, 'tool_result').map((e) => [e.data.errorType, e.data.refusal])).toEqual([
    ['clarify_first', 'asking_first'],
  ]);

  h.model.reset();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', read_only: true, write_content: false }),
    call('writer', 'edit_file', { id, operation: 'append', text: 'More.' }),
    say('writer', 'No changes, as asked.'),
  ]);
  // A fresh session: in this one the author's message would answer the writer's question.
  const other = await api<{ id: string }>(h, 'POST', '/api/v1/sessions', { projectId });
  const r3 = await runTurn(h, other.body.id, 'Just tell me what you think, change nothing');
  expect(ofType(r3.events, 'tool_result').map((e) => [e.data.errorType, e.data.refusal])).toEqual([
    ['read_only_request', 'read_only'],
  ]);
  expect(await contentOf(id)).toBe('My opening.');
});
