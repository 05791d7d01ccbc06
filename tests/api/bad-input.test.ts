/**
 * Bad input over every endpoint: oversize bodies → 413; unknown keys, wrong types and
 * over-long strings → 400 with field errors; malformed ids and queries → 400; NUL bytes,
 * `$`/`.` keys, deep nesting → 400. Never a 5xx, and a rejected request reaches neither
 * MongoDB (every operation on the app's connection is recorded) nor Temporal (spied).
 */
import { createHarness, createProjectAndSession, type Harness } from '../helpers/harness';

let h: Harness;
let ids: { projectId: string; sessionId: string; turnId: string; fileId: string };
const mongoOps: string[] = [];
let workflowStarts = 0;

beforeAll(async () => {
  h = await createHarness();
  const { projectId, sessionId } = await createProjectAndSession(h);
  const file = await fetch(`${h.baseUrl}/api/v1/files`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ projectId, type: 'draft', title: 'Chapter 1', content: 'x' }),
  });
  ids = { projectId, sessionId, turnId: 'b'.repeat(24), fileId: ((await file.json()) as { id: string }).id };
  h.runtime.mongo.set('debug', (collection: string, method: string) => void mongoOps.push(`${collection}.${method}`));
  const start = h.runtime.temporal.workflow.start.bind(h.runtime.temporal.workflow);
  h.runtime.temporal.workflow.start = ((...args: Parameters<typeof start>) => {
    workflowStarts++;
    return start(...args);
  }) as typeof start;
});
afterAll(async () => {
  await h?.close();
});

interface Answer {
  status: number;
  body: {
    error?: { code: string; message: string; details?: { fields?: { path: string; message: string }[] } };
  } | null;
  ops: string[];
}

async function send(
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const before = mongoOps.length;
  const res = await fetch(`${h.baseUrl}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body,
  });
  const text = await res.text();
  let parsed: Answer['body'] = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed, ops: mongoOps.slice(before) };
}

const json = (v: unknown): string => JSON.stringify(v);

/** Asserts a clean refusal: the status, a JSON error, no database work. */
function refused(a: Answer, status: 400 | 413, field?: string): void {
  expect({ status: a.status, ops: a.ops }).toEqual({ status, ops: [] });
  expect(typeof a.body?.error?.code).toBe('string');
  if (field !== undefined) expect(a.body!.error!.details!.fields!.map((f) => f.path)).toContain(field);
}

type BodyRoute = {
  name: string;
  method: string;
  path: () => string;
  valid: () => Record<string, unknown>;
  bad: [name: string, body: unknown, field: string][];
};

const long = (n: number) => 'x'.repeat(n);
/** Any well-formed id: field errors are found before any lookup, so it need not exist. */
const ID = 'c'.repeat(24);
const routes: BodyRoute[] = [
  {
    name: 'POST /projects',
    method: 'POST',
    path: () => '/api/v1/projects',
    valid: () => ({ title: 'T', type: 'novel' }),
    bad: [
      ['over-long title', { title: long(201), type: 'novel' }, 'title'],
      ['wrong type', { title: 5, type: 'novel' }, 'title'],
      ['unknown enum', { title: 'T', type: 'poem' }, 'type'],
      ['missing title', { type: 'novel' }, 'title'],
    ],
  },
  {
    name: 'POST /sessions',
    method: 'POST',
    path: () => '/api/v1/sessions',
    valid: () => ({ projectId: ids.projectId }),
    bad: [
      ['malformed projectId', { projectId: 'abc' }, 'projectId'],
      ['over-long title', { projectId: ID, title: long(201) }, 'title'],
    ],
  },
  {
    name: 'POST /sessions/:id/turns',
    method: 'POST',
    path: () => `/api/v1/sessions/${ids.sessionId}/turns`,
    valid: () => ({ message: 'Write chapter 1' }),
    bad: [
      ['empty message', { message: '' }, 'message'],
      ['blank message', { message: ' \n\t ' }, 'message'],
      ['message over MAX_MESSAGE_CHARS', { message: long(20_001) }, 'message'],
      ['message of wrong type', { message: ['a'] }, 'message'],
      ['malformed focusFileId', { message: 'hi', focusFileId: 'zz' }, 'focusFileId'],
      ['too many attachments', { message: 'hi', attachedFileIds: Array(21).fill(ID) }, 'attachedFileIds'],
      ['over-long quote', { message: 'hi', quotes: [long(4001)] }, 'quotes.0'],
      ['a client-chosen workflow id', { message: 'hi', workflowId: 'mine' }, '(body)'],
      ['too many skills', { message: 'hi', skills: Array(11).fill('s') }, 'skills'],
      ['over-long skill name', { message: 'hi', skills: [long(101)] }, 'skills.0'],
      ['blank skill name', { message: 'hi', skills: ['  '] }, 'skills.0'],
    ],
  },
  {
    name: 'POST /turns/:id/steer',
    method: 'POST',
    path: () => `/api/v1/turns/${ids.turnId}/steer`,
    valid: () => ({ message: 'faster' }),
    bad: [
      ['over-long message', { message: long(4001) }, 'message'],
      ['number message', { message: 1 }, 'message'],
    ],
  },
  {
    name: 'POST /turns/:id/interrupt',
    method: 'POST',
    path: () => `/api/v1/turns/${ids.turnId}/interrupt`,
    valid: () => ({ reason: 'stop' }),
    bad: [['over-long reason', { reason: long(501) }, 'reason']],
  },
  {
    name: 'POST /jobs',
    method: 'POST',
    path: () => '/api/v1/jobs',
    valid: () => ({ projectId: ids.projectId, chapters: { from: 1, to: 3 } }),
    bad: [
      ['malformed projectId', { projectId: 'x', chapters: { from: 1, to: 3 } }, 'projectId'],
      ['range backwards', { projectId: ID, chapters: { from: 5, to: 2 } }, 'chapters'],
      ['chapter 0', { projectId: ID, chapters: { from: 0, to: 2 } }, 'chapters.from'],
      ['fractional chapter', { projectId: ID, chapters: { from: 1.5, to: 2 } }, 'chapters.from'],
      ['too many chapters', { projectId: ID, chapters: { from: 1, to: 5000 } }, 'chapters'],
      ['unknown key in chapters', { projectId: ID, chapters: { from: 1, to: 2, step: 1 } }, 'chapters'],
      ['review as a string', { projectId: ID, chapters: { from: 1, to: 2 }, review: 'yes' }, 'review'],
      [
        'wordsPerChapter too small',
        { projectId: ID, chapters: { from: 1, to: 2 }, wordsPerChapter: 5 },
        'wordsPerChapter',
      ],
      [
        'over-long instructions',
        { projectId: ID, chapters: { from: 1, to: 2 }, instructions: long(4001) },
        'instructions',
      ],
    ],
  },
  {
    name: 'POST /files',
    method: 'POST',
    path: () => '/api/v1/files',
    valid: () => ({ projectId: ids.projectId, type: 'draft', title: 'T' }),
    bad: [
      ['bad type', { projectId: ID, type: 'poem', title: 'T' }, 'type'],
      ['negative order', { projectId: ID, type: 'draft', title: 'T', order: -1 }, 'order'],
      ['fractional order', { projectId: ID, type: 'draft', title: 'T', order: 1.5 }, 'order'],
      ['malformed parentId', { projectId: ID, type: 'draft', title: 'T', parentId: '1' }, 'parentId'],
    ],
  },
  {
    name: 'PUT /files/:id',
    method: 'PUT',
    path: () => `/api/v1/files/${ids.fileId}`,
    valid: () => ({ content: 'y' }),
    bad: [
      ['content of wrong type', { content: 5 }, 'content'],
      ['baseVersion as a string', { content: 'y', baseVersion: '1' }, 'baseVersion'],
      ['negative baseVersion', { content: 'y', baseVersion: -1 }, 'baseVersion'],
      ['over-long title', { content: 'y', title: long(201) }, 'title'],
    ],
  },
  {
    name: 'POST /files/:id/restore',
    method: 'POST',
    path: () => `/api/v1/files/${ids.fileId}/restore`,
    valid: () => ({ version: 1 }),
    bad: [
      ['version 0', { version: 0 }, 'version'],
      ['version as text', { version: 'one' }, 'version'],
    ],
  },
  {
    name: 'PATCH /skills/:id',
    method: 'PATCH',
    path: () => `/api/v1/skills/${ID}`,
    valid: () => ({ enabled: true }),
    bad: [
      ['enabled as a string', { enabled: 'yes' }, 'enabled'],
      ['missing enabled', {}, 'enabled'],
    ],
  },
];

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe.each(routes.map((r) => [r.name, r] as const))('%s', (_name, route) => {
  test.each(route.bad)('field error: %s', async (_n, body, field) => {
    refused(await send(route.method, route.path(), json(body)), 400, field);
  });

  test('structural attacks and size limits', async () => {
    const v = route.valid();
    const firstKey = Object.keys(v)[0]!;
    refused(await send(route.method, route.path(), json({ ...v, extra: 1 })), 400, '(body)');
    refused(await send(route.method, route.path(), json({ ...v, [firstKey]: `a\u0000b` })), 400);
    refused(await send(route.method, route.path(), json({ ...v, [firstKey]: 'lone \ud800 surrogate' })), 400);
    refused(await send(route.method, route.path(), json({ ...v, $where: 'sleep(1000)' })), 400);
    refused(await send(route.method, route.path(), json({ ...v, [firstKey]: { $gt: '' } })), 400);
    refused(await send(route.method, route.path(), json({ ...v, 'a.b': 1 })), 400);
    refused(await send(route.method, route.path(), `{"__proto__": {"admin": true}, ${json(v).slice(1)}`), 400);
    refused(await send(route.method, route.path(), json({ ...v, nest: JSON.parse(deep(40)) })), 400);
    refused(await send(route.method, route.path(), `{"x": ${deep(100_000)}}`), 400);
    refused(await send(route.method, route.path(), '{"message": '), 400);
    for (const top of ['[]', '"text"', '42', 'null']) refused(await send(route.method, route.path(), top), 400);
    // Over BODY_LIMIT_BYTES (256 KiB by default), and a megabyte message.
    refused(await send(route.method, route.path(), json({ ...v, [firstKey]: long(300 * 1024) })), 413);
    refused(await send(route.method, route.path(), json({ ...v, message: long(1024 * 1024) })), 413);
    // Gzip is inflated before the limit applies: a small bomb is still 413, a broken one 400.
    refused(
      await send(route.method, route.path(), Buffer.from('not gzip'), {
        'content-encoding': 'gzip',
        'content-type': 'application/json',
      }),
      400,
    );
    refused(
      await send(route.method, route.path(), json(v), { 'content-type': 'application/json; charset=bogus' }),
      400,
    );
  });
});

const idRoutes: [string, string][] = [
  ['GET', '/api/v1/projects/:id'],
  ['GET', '/api/v1/projects/:id/files'],
  ['GET', '/api/v1/projects/:id/usage'],
  ['GET', '/api/v1/projects/:id/export'],
  ['GET', '/api/v1/sessions/:id'],
  ['GET', '/api/v1/sessions/:id/messages'],
  ['GET', '/api/v1/sessions/:id/usage'],
  ['GET', '/api/v1/sessions/:id/turns'],
  ['POST', '/api/v1/sessions/:id/stream-token'],
  ['GET', '/api/v1/sessions/:id/events'],
  ['GET', '/api/v1/jobs/:id/usage'],
  ['POST', '/api/v1/sessions/:id/turns'],
  ['GET', '/api/v1/turns/:id'],
  ['POST', '/api/v1/turns/:id/interrupt'],
  ['POST', '/api/v1/turns/:id/steer'],
  ['POST', '/api/v1/turns/:id/stream-token'],
  ['GET', '/api/v1/turns/:id/events'],
  ['GET', '/api/v1/files/:id'],
  ['GET', '/api/v1/files/:id/versions'],
  ['GET', '/api/v1/files/:id/versions/1'],
  ['PUT', '/api/v1/files/:id'],
  ['POST', '/api/v1/files/:id/restore'],
  ['DELETE', '/api/v1/files/:id'],
  ['POST', '/api/v1/files/:id/undelete'],
  ['GET', '/api/v1/jobs/:id'],
  ['POST', '/api/v1/jobs/:id/pause'],
  ['POST', '/api/v1/jobs/:id/resume'],
  ['POST', '/api/v1/jobs/:id/cancel'],
  ['POST', '/api/v1/jobs/:id/stream-token'],
  ['GET', '/api/v1/jobs/:id/events'],
  ['GET', '/api/v1/skills/:id'],
  ['GET', '/api/v1/skills/:id/export'],
  ['PATCH', '/api/v1/skills/:id'],
  ['DELETE', '/api/v1/skills/:id'],
];
const badIds = [
  'abc',
  'Z'.repeat(24),
  'a'.repeat(25),
  'A'.repeat(24),
  '%00',
  `${'a'.repeat(23)}%00`,
  encodeURIComponent('{"$gt":""}'),
  encodeURIComponent("' or 1=1 --"),
  '%E2%80%AE',
];

test.each(idRoutes)('malformed ids are 400 without a lookup: %s %s', async (method, path) => {
  for (const bad of badIds) {
    // Even with a body that is itself invalid, the id is checked first.
    const body =
      method === 'GET' || method === 'DELETE' ? undefined : json({ message: 'hi', content: 'x', version: 1 });
    const a = await send(method, path.replace(':id', bad), body);
    expect({ bad, status: a.status, ops: a.ops }).toEqual({ bad, status: 400, ops: [] });
    expect(a.body?.error?.code).toBe('invalid_id');
  }
});

test('malformed queries and headers are 400 without a lookup', async () => {
  const cases: [string, Record<string, string>?][] = [
    ['/api/v1/projects?limit=abc'],
    ['/api/v1/projects?limit=0'],
    ['/api/v1/projects?limit=1000'],
    ['/api/v1/projects?limit=1&limit=2'],
    ['/api/v1/projects?limit[$gt]=1'],
    ['/api/v1/projects?$where=1'],
    ['/api/v1/projects?unknown=1'],
    ['/api/v1/sessions?projectId=nothex'],
    [`/api/v1/projects/${ids.projectId}/files?type=poem`],
    [`/api/v1/projects/${ids.projectId}/files?limit=-5`],
    [`/api/v1/projects/${ids.projectId}/files?deleted=maybe`],
    [`/api/v1/files?deleted=true`],
    [`/api/v1/files?projectId=nothex&deleted=true`],
    [`/api/v1/files?projectId=${ids.projectId}&deleted=1`],
    [`/api/v1/files?projectId=${ids.projectId}&purge=now`],
    [`/api/v1/files/${ids.fileId}?recursive=maybe`],
    [`/api/v1/turns/${ids.turnId}/events?after=nonsense`],
    [`/api/v1/turns/${ids.turnId}/events?after=1-2-3`],
    [`/api/v1/turns/${ids.turnId}/events`, { 'last-event-id': 'DROP TABLE' }],
    [`/api/v1/turns/${ids.turnId}/events?token=${long(2001)}`],
    [`/api/v1/sessions/${ids.sessionId}/events?after=nonsense`],
    [`/api/v1/sessions/${ids.sessionId}/events`, { 'last-event-id': 'DROP TABLE' }],
    [`/api/v1/sessions/${ids.sessionId}/turns?active=maybe`],
    [`/api/v1/sessions/${ids.sessionId}/turns?limit=0`],
    [`/api/v1/projects/${ids.projectId}/export?format=pdf`],
    [`/api/v1/projects/${ids.projectId}/export?format=epub&frontMatter=1`],
    [`/api/v1/projects?limit=${encodeURIComponent('1\u0000')}`],
    ['/api/v1/skills?limit=5'],
  ];
  for (const [path, headers] of cases) {
    const a = await send(path.includes('recursive') ? 'DELETE' : 'GET', path, undefined, headers);
    expect({ path, status: a.status, ops: a.ops }).toEqual({ path, status: 400, ops: [] });
  }
});

test('skill import: a bad query or a non-zip body is 400 without a lookup', async () => {
  refused(
    await send('POST', '/api/v1/skills/import?replace=maybe', Buffer.from('PK'), { 'content-type': 'application/zip' }),
    400,
    'replace',
  );
  refused(
    await send('POST', '/api/v1/skills/import', Buffer.from('not a zip'), { 'content-type': 'application/zip' }),
    400,
  );
  refused(await send('POST', '/api/v1/skills/import', json({ name: 'x' })), 400);
  refused(
    await send('POST', '/api/v1/skills/import', Buffer.alloc(2 * 1024 * 1024, 1), {
      'content-type': 'application/zip',
    }),
    413,
  );
});

test('odd requests never cost a 5xx', async () => {
  const odd: [string, string, (string | undefined)?, Record<string, string>?][] = [
    ['GET', '/api/v1/projects/%E0%A4%A'],
    ['GET', '/api/v1/files/%'],
    [
      'POST',
      `/api/v1/sessions/${ids.sessionId}/turns`,
      'message=hi',
      { 'content-type': 'application/x-www-form-urlencoded' },
    ],
    ['POST', `/api/v1/sessions/${ids.sessionId}/turns`, json({ message: 'hi' }), { 'content-type': 'text/plain' }],
    ['POST', '/api/v1/projects', json({ title: 'T', type: 'novel' }), { 'content-encoding': 'br' }],
    ['POST', '/api/v1/projects', '{"title": "T", "type": "novel", "summary": 1e400}'],
    ['GET', '/api/v1/projects', undefined, { authorization: 'Bearer' }],
    ['GET', '/api/v1/projects', undefined, { authorization: 'Basic Zm9vOmJhcg==' }],
    ['PATCH', `/api/v1/files/${ids.fileId}`, json({ content: 'x' })],
    ['GET', '/api/v1/../../etc/passwd'],
    ['OPTIONS', '/api/v1/projects'],
  ];
  for (const [method, path, body, headers] of odd) {
    const a = await send(method, path, body, headers);
    expect({ method, path, fiveXX: a.status >= 500 }).toEqual({ method, path, fiveXX: false });
  }
});

test('after all of it: no turn, no message, no lock, no workflow', async () => {
  expect(await h.runtime.models.Turn.countDocuments({})).toBe(0);
  expect(await h.runtime.models.Message.countDocuments({})).toBe(0);
  expect(await h.runtime.models.SessionLock.countDocuments({})).toBe(0);
  expect(await h.runtime.models.Job.countDocuments({})).toBe(0);
  expect(await h.runtime.models.Skill.countDocuments({})).toBe(0);
  expect(workflowStarts).toBe(0);
});
