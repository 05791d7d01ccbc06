/**
 * Broken object level authorization (OWASP API1): user B against every endpoint with each
 * of user A's ids gets exactly what a never-issued id gets — 404 and the same body — and
 * A's data is untouched. Stream tokens are scoped to one stream; no token is 401.
 */
import { signStreamToken } from '../../src/api/auth';
import { DEFAULT_STREAM_TOKEN_SECRET } from '../../src/auth-settings';
import { newId } from '../../src/db/models';
import { api, createHarness, createProjectAndSession, type Harness, routerReply, waitTurn } from '../helpers/harness';
import { readSse } from '../helpers/sse-client';
import { skillZip } from '../helpers/skill-zips';

const A = { authorization: 'Bearer alice-token-0123456789' };
const B = { authorization: 'Bearer bob-token-0123456789' };
const SECRET = 'bola-test-stream-secret-0123456789abcdef';

let h: Harness;
const a = {
  projectId: '',
  sessionId: '',
  turnId: '',
  fileId: '',
  folderId: '',
  streamToken: '',
  jobId: '',
  trashedId: '',
  skillId: '',
};
const SECRET_TITLE = 'Alice secret title';
const SECRET_TEXT = 'moonlit smugglers of Vell';

beforeAll(async () => {
  h = await createHarness({
    config: { API_TOKENS: 'alice-token-0123456789:alice,bob-token-0123456789:bob', STREAM_TOKEN_SECRET: SECRET },
  });
  const ps = await createProjectAndSession(h, 'novel', A);
  Object.assign(a, ps);
  h.model.script([
    routerReply({ current_agent: 'writer', workflow_plan: 'quick', workflow_agents: ['writer'], scope: 'ch1' }),
    {
      match: { agent: 'writer' },
      reply: {
        content: 'Writing.',
        toolCalls: [{ name: 'create_file', arguments: { type: 'draft', title: SECRET_TITLE } }],
      },
    },
    { match: { agent: 'writer' }, reply: { content: `<file>\n${SECRET_TEXT}\n</file>\nSaved.` } },
  ]);
  const t = await api<{ turnId: string; streamToken: string }>(
    h,
    'POST',
    `/api/v1/sessions/${a.sessionId}/turns`,
    { message: 'Write chapter 1' },
    A,
  );
  expect(t.status).toBe(202);
  a.turnId = t.body.turnId;
  a.streamToken = t.body.streamToken;
  await waitTurn(h, a.turnId);
  const files = await api<{ items: { id: string }[] }>(h, 'GET', `/api/v1/projects/${a.projectId}/files`, undefined, A);
  a.fileId = files.body.items[0]!.id;
  const folder = await api<{ id: string }>(
    h,
    'POST',
    '/api/v1/files',
    { projectId: a.projectId, type: 'folder', title: 'Part I' },
    A,
  );
  a.folderId = folder.body.id;
  // A file of A's in the trash: B can neither list nor undelete it.
  const trashed = await api<{ id: string }>(
    h,
    'POST',
    '/api/v1/files',
    { projectId: a.projectId, type: 'draft', title: SECRET_TITLE, content: SECRET_TEXT },
    A,
  );
  a.trashedId = trashed.body.id;
  expect((await api(h, 'DELETE', `/api/v1/files/${a.trashedId}`, undefined, A)).status).toBe(204);
  // A one-chapter job, on the model's default persona, run to its end.
  h.model.reset();
  const job = await api<{ jobId: string }>(
    h,
    'POST',
    '/api/v1/jobs',
    { projectId: a.projectId, chapters: { from: 1, to: 1 } },
    A,
  );
  expect(job.status).toBe(202);
  a.jobId = job.body.jobId;
  await h.runtime.temporal.workflow.getHandle(`job-${a.jobId}`).result();
  const skill = await fetch(`${h.baseUrl}/api/v1/skills/import`, {
    method: 'POST',
    headers: { ...A, 'content-type': 'application/zip' },
    body: await skillZip('alice-voice', 'Alice’s private style', SECRET_TEXT),
  });
  expect(skill.status).toBe(201);
  a.skillId = ((await skill.json()) as { id: string }).id;
}, 120000);
afterAll(async () => {
  await h?.close();
});

type Probe = [method: string, path: (ids: typeof a) => string, body?: (ids: typeof a) => unknown];

/** Every endpoint that takes an id, with A's ids substituted. */
const probes: Probe[] = [
  ['GET', (i) => `/api/v1/projects/${i.projectId}`],
  ['GET', (i) => `/api/v1/sessions?projectId=${i.projectId}`],
  ['POST', () => '/api/v1/sessions', (i) => ({ projectId: i.projectId })],
  ['GET', (i) => `/api/v1/sessions/${i.sessionId}`],
  ['GET', (i) => `/api/v1/sessions/${i.sessionId}/messages`],
  ['GET', (i) => `/api/v1/sessions/${i.sessionId}/turns`],
  ['POST', (i) => `/api/v1/sessions/${i.sessionId}/stream-token`],
  ['GET', (i) => `/api/v1/sessions/${i.sessionId}/events`],
  ['POST', (i) => `/api/v1/sessions/${i.sessionId}/turns`, () => ({ message: 'hijack' })],
  ['GET', (i) => `/api/v1/turns/${i.turnId}`],
  ['POST', (i) => `/api/v1/turns/${i.turnId}/interrupt`, () => ({})],
  ['POST', (i) => `/api/v1/turns/${i.turnId}/steer`, () => ({ message: 'steer' })],
  ['POST', (i) => `/api/v1/turns/${i.turnId}/stream-token`],
  ['POST', (i) => `/api/v1/turns/${i.turnId}/approvals/s2-call_1`, () => ({ decision: 'approve' })],
  ['GET', (i) => `/api/v1/turns/${i.turnId}/events`],
  ['GET', (i) => `/api/v1/projects/${i.projectId}/files`],
  ['GET', (i) => `/api/v1/files/${i.fileId}`],
  ['GET', (i) => `/api/v1/files/${i.fileId}/versions`],
  ['GET', (i) => `/api/v1/files/${i.fileId}/versions/1`],
  ['POST', () => '/api/v1/files', (i) => ({ projectId: i.projectId, type: 'draft', title: 'x' })],
  ['PUT', (i) => `/api/v1/files/${i.fileId}`, () => ({ content: 'overwritten' })],
  ['POST', (i) => `/api/v1/files/${i.fileId}/restore`, () => ({ version: 1 })],
  ['DELETE', (i) => `/api/v1/files/${i.fileId}`],
  ['GET', (i) => `/api/v1/projects/${i.projectId}/files?deleted=true`],
  ['GET', (i) => `/api/v1/files?projectId=${i.projectId}&deleted=true`],
  ['POST', (i) => `/api/v1/files/${i.trashedId}/undelete`],
  ['GET', (i) => `/api/v1/projects/${i.projectId}/usage`],
  ['GET', (i) => `/api/v1/projects/${i.projectId}/export?format=md`],
  ['GET', (i) => `/api/v1/sessions/${i.sessionId}/usage`],
  ['POST', () => '/api/v1/jobs', (i) => ({ projectId: i.projectId, chapters: { from: 2, to: 3 } })],
  ['GET', (i) => `/api/v1/jobs?projectId=${i.projectId}`],
  ['GET', (i) => `/api/v1/jobs/${i.jobId}`],
  ['GET', (i) => `/api/v1/jobs/${i.jobId}/usage`],
  ['POST', (i) => `/api/v1/jobs/${i.jobId}/pause`],
  ['POST', (i) => `/api/v1/jobs/${i.jobId}/resume`],
  ['POST', (i) => `/api/v1/jobs/${i.jobId}/cancel`],
  ['POST', (i) => `/api/v1/jobs/${i.jobId}/stream-token`],
  ['GET', (i) => `/api/v1/jobs/${i.jobId}/events`],
  ['GET', (i) => `/api/v1/skills/${i.skillId}`],
  ['GET', (i) => `/api/v1/skills/${i.skillId}/export`],
  ['PATCH', (i) => `/api/v1/skills/${i.skillId}`, () => ({ enabled: false })],
  ['DELETE', (i) => `/api/v1/skills/${i.skillId}`],
];

const fresh = () => ({
  projectId: newId(),
  sessionId: newId(),
  turnId: newId(),
  fileId: newId(),
  folderId: newId(),
  streamToken: '',
  jobId: newId(),
  trashedId: newId(),
  skillId: newId(),
});

async function raw(method: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${h.baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

test.each(
  probes.map(
    (p) =>
      [
        `${p[0]} ${p[1]({ projectId: ':projectId', sessionId: ':sessionId', turnId: ':turnId', fileId: ':fileId', folderId: '', streamToken: '', jobId: ':jobId', trashedId: ':fileId', skillId: ':skillId' })}`,
        p,
      ] as const,
  ),
)('B gets exactly what a nonexistent id gets: %s', async (_name, [method, path, body]) => {
  const other = fresh();
  const mine = await raw(method, path(a), body?.(a), B);
  const none = await raw(method, path(other), body?.(other), B);
  expect(mine.status).toBe(404);
  expect(none.status).toBe(404);
  // Byte for byte the same answer, once the id B sent is swapped back.
  let normalised = mine.text;
  for (const k of ['projectId', 'sessionId', 'turnId', 'fileId', 'jobId', 'trashedId', 'skillId'] as const)
    normalised = normalised.split(a[k]).join(other[k]);
  expect(normalised).toBe(none.text);
  expect(mine.text).not.toContain(SECRET_TITLE);
  expect(mine.text).not.toContain(SECRET_TEXT);
  // And A still sees the resource (or A's own request to it works).
  // (Not the session feed: it never ends; tests/api/session-feed.test.ts reads it as its owner.)
  if (method === 'GET' && !path(a).endsWith(`/sessions/${a.sessionId}/events`))
    expect((await raw(method, path(a), undefined, A)).status).toBe(200);
});

test("B's lists and totals hold nothing of A's; B cannot reach A's files through B's own project", async () => {
  const projects = await raw('GET', '/api/v1/projects', undefined, B);
  expect(JSON.parse(projects.text).items).toEqual([]);
  const sessions = await raw('GET', '/api/v1/sessions', undefined, B);
  expect(JSON.parse(sessions.text).items).toEqual([]);
  const usage = JSON.parse((await raw('GET', '/api/v1/usage', undefined, B)).text);
  expect(usage.totals.totalTokens).toBe(0);
  const skills = await raw('GET', '/api/v1/skills', undefined, B);
  expect(JSON.parse(skills.text).items).toEqual([]);

  const bob = await createProjectAndSession(h, 'novel', B);
  const focus = await raw(
    'POST',
    `/api/v1/sessions/${bob.sessionId}/turns`,
    { message: 'read this', focusFileId: a.fileId },
    B,
  );
  expect(focus.status).toBe(404);
  const child = await raw(
    'POST',
    '/api/v1/files',
    { projectId: bob.projectId, type: 'draft', title: 'x', parentId: a.folderId },
    B,
  );
  expect(child.status).toBe(404);
  // Nor A's skills, by id or by name, in B's own turn.
  for (const ref of [a.skillId, 'alice-voice'])
    expect(
      (await raw('POST', `/api/v1/sessions/${bob.sessionId}/turns`, { message: 'use it', skills: [ref] }, B)).status,
    ).toBe(404);
  expect(await h.runtime.models.Turn.countDocuments({ sessionId: bob.sessionId })).toBe(0);
});

test("A's data is untouched by B's attempts", async () => {
  const file = await api<{ version: number; content: string }>(h, 'GET', `/api/v1/files/${a.fileId}`, undefined, A);
  expect(file.status).toBe(200);
  expect(file.body.version).toBe(1);
  expect(file.body.content).toContain(SECRET_TEXT);
  expect(await h.runtime.models.Turn.countDocuments({ sessionId: a.sessionId })).toBe(1);
  // The author's session and the job's own session.
  expect(await h.runtime.models.Session.countDocuments({ projectId: a.projectId })).toBe(2);
  const job = await api<{ status: string }>(h, 'GET', `/api/v1/jobs/${a.jobId}`, undefined, A);
  expect(job.body.status).toBe('completed');
  // Both of A's files live on (beside the job's outline and chapter).
  expect(await h.runtime.models.File.countDocuments({ _id: { $in: [a.fileId, a.folderId] }, deletedAt: null })).toBe(2);
  // A's trashed file is still in A's trash, not restored by B.
  const trash = await api<{ items: { id: string }[] }>(
    h,
    'GET',
    `/api/v1/projects/${a.projectId}/files?deleted=true`,
    undefined,
    A,
  );
  expect(trash.body.items.map((f) => f.id)).toEqual([a.trashedId]);
  expect(await h.runtime.models.Skill.findById(a.skillId).lean()).toMatchObject({ enabled: true, body: SECRET_TEXT });
});

test('stream tokens open exactly one stream; no token or a wrong token is 401', async () => {
  const path = `/api/v1/turns/${a.turnId}/events`;
  const ok = await readSse(`${h.baseUrl}${path}?token=${encodeURIComponent(a.streamToken)}`);
  expect(ok.status).toBe(200);
  expect(ok.frames[ok.frames.length - 1]!.event).toBe('done');

  // A's token for this turn does not open another turn's stream (A's or anyone's).
  const bob = await createProjectAndSession(h, 'novel', B);
  h.model.script([
    routerReply({ current_agent: 'writer', workflow_plan: 'quick', workflow_agents: ['writer'], scope: 'x' }),
    { match: { agent: 'writer' }, reply: { content: 'Hi.' } },
  ]);
  const bt = await api<{ turnId: string }>(
    h,
    'POST',
    `/api/v1/sessions/${bob.sessionId}/turns`,
    { message: 'hello' },
    B,
  );
  await waitTurn(h, bt.body.turnId);
  const cross = await raw(
    'GET',
    `/api/v1/turns/${bt.body.turnId}/events?token=${encodeURIComponent(a.streamToken)}`,
    undefined,
    {},
  );
  expect(cross.status).toBe(401);
  expect(cross.text).not.toContain('data:');
  // A stream token is not a bearer token for anything else.
  expect(
    (await raw('GET', `/api/v1/turns/${a.turnId}?token=${encodeURIComponent(a.streamToken)}`, undefined, {})).status,
  ).toBe(401);
  expect((await raw('GET', path, undefined, { authorization: `Bearer ${a.streamToken}` })).status).toBe(401);
  // A tampered token fails.
  const tampered = a.streamToken.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
  expect((await raw('GET', `${path}?token=${encodeURIComponent(tampered)}`, undefined, {})).status).toBe(401);
  // Forged with the public default secret (auth is on, so the deployment's own secret signs).
  const nowS = Math.floor(Date.now() / 1000);
  const forged = signStreamToken(
    { sub: 'alice', res: `turn:${a.turnId}`, exp: nowS + 300 },
    DEFAULT_STREAM_TOKEN_SECRET,
  );
  expect((await raw('GET', `${path}?token=${encodeURIComponent(forged)}`, undefined, {})).status).toBe(401);
  // Signed with the right secret but meant to live 10 years: beyond the maximum, refused.
  const tenYears = signStreamToken({ sub: 'alice', res: `turn:${a.turnId}`, exp: nowS + 10 * 365 * 86400 }, SECRET);
  expect((await raw('GET', `${path}?token=${encodeURIComponent(tenYears)}`, undefined, {})).status).toBe(401);
  // The same claims within the lifetime open it: the refusals above are about the secret and the exp.
  const fair = signStreamToken({ sub: 'alice', res: `turn:${a.turnId}`, exp: nowS + 300 }, SECRET);
  expect((await readSse(`${h.baseUrl}${path}?token=${encodeURIComponent(fair)}`)).status).toBe(200);

  for (const [method, path, body] of probes) {
    const noToken = await raw(method, path(a), body?.(a), {});
    expect(noToken.status).toBe(401);
    const badToken = await raw(method, path(a), body?.(a), { authorization: 'Bearer nope' });
    expect(badToken.status).toBe(401);
    expect(noToken.text).not.toContain(SECRET_TEXT);
  }
  expect((await raw('GET', '/api/v1/openapi.json', undefined, {})).status).toBe(200);
});

test('/health reports the auth mode and that the secret is not the default, revealing neither', async () => {
  const health = await raw('GET', '/health', undefined, {});
  expect(JSON.parse(health.text).auth).toEqual({
    mode: 'tokens',
    users: 2,
    streamTokenSecret: 'custom',
    streamTokenTtlSeconds: 600,
  });
  for (const secret of [SECRET, 'alice-token-0123456789', 'bob-token-0123456789'])
    expect(health.text).not.toContain(secret);
  // The build an operator is looking at (worker-deployment.ts): outside production, unversioned.
  expect(JSON.parse(health.text).build).toEqual({
    deployment: 'scriptorium',
    buildId: expect.stringMatching(/^\d+\.\d+\.\d+-[0-9a-f]{7,12}$/),
    versioning: 'off',
  });
});
