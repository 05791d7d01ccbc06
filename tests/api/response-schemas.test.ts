/**
 * The answers the OpenAPI document describes (src/api/responses.ts) are the answers the
 * routes give: every route Studio reads is called over real HTTP against real services, and
 * each answer must parse with its documented schema (no field missing or of another type)
 * and carry no field the schema does not name. Studio's REST types are generated from these
 * schemas, so this is what keeps them true.
 */
import type { z } from 'zod';
import { RESPONSES } from '../../src/api/responses';
import { api, createHarness, type Harness, routerReply, waitTurn } from '../helpers/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

interface Def {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
}
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Paths of the fields in `value` that `schema` does not name (a loose object or a record takes any). */
function undocumented(schema: z.ZodType, value: unknown, at: string): string[] {
  const def = defOf(schema);
  if (value === null || value === undefined) return [];
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
      return undocumented(def.innerType!, value, at);
    case 'array':
      return (value as unknown[]).flatMap((v, i) => undocumented(def.element!, v, `${at}[${i}]`));
    case 'union': {
      // The option that names the most of it (a trashed file is a file summary and more).
      const fits = def.options!.filter((o) => o.safeParse(value).success).map((o) => undocumented(o, value, at));
      return fits.sort((a, b) => a.length - b.length)[0] ?? [];
    }
    case 'object': {
      const loose = def.catchall && defOf(def.catchall).type !== 'never';
      return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
        k in def.shape! ? undocumented(def.shape![k]!, v, `${at}.${k}`) : loose ? [] : [`${at}.${k}`],
      );
    }
    default:
      return [];
  }
}

/** Calls a route and holds its answer to the schema the document gives it. */
async function described<T>(
  method: string,
  documentedPath: string,
  url: string,
  body?: unknown,
  status = method === 'POST' ? 201 : 200,
): Promise<T> {
  const schema = RESPONSES[`${method.toLowerCase()} /api/v1${documentedPath}`];
  expect(schema ? 'documented' : `no response schema for ${method} ${documentedPath}`).toBe('documented');
  const res = await api<T>(h, method, `/api/v1${url}`, body);
  expect({ route: `${method} ${documentedPath}`, status: res.status }).toEqual({
    route: `${method} ${documentedPath}`,
    status,
  });
  const parsed = schema!.safeParse(res.body);
  expect({ route: `${method} ${documentedPath}`, issues: parsed.success ? [] : parsed.error.issues }).toEqual({
    route: `${method} ${documentedPath}`,
    issues: [],
  });
  expect({ route: `${method} ${documentedPath}`, undocumented: undocumented(schema!, res.body, '') }).toEqual({
    route: `${method} ${documentedPath}`,
    undocumented: [],
  });
  return res.body;
}

test('projects, sessions, files, versions and the trash answer as documented', async () => {
  const project = await described<{ id: string }>('POST', '/projects', '/projects', {
    title: 'The Lighthouse',
    type: 'novel',
    summary: 'A keeper.',
  });
  await described('GET', '/projects', '/projects');
  await described('GET', '/projects/{projectId}', `/projects/${project.id}`);
  const session = await described<{ id: string }>('POST', '/sessions', '/sessions', { projectId: project.id });
  await described('GET', '/sessions', `/sessions?projectId=${project.id}`);
  await described('GET', '/sessions/{sessionId}', `/sessions/${session.id}`);
  await described('POST', '/sessions/{sessionId}/stream-token', `/sessions/${session.id}/stream-token`);

  const file = await described<{ id: string; version: number }>('POST', '/files', '/files', {
    projectId: project.id,
    type: 'draft',
    title: 'Chapter 1',
    content: 'It rained.',
  });
  await described('GET', '/files/{fileId}', `/files/${file.id}`);
  await described(
    'PUT',
    '/files/{fileId}',
    `/files/${file.id}`,
    { content: 'It rained all night.', baseVersion: file.version },
    200,
  );
  await described('GET', '/files/{fileId}/versions', `/files/${file.id}/versions`);
  await described('GET', '/files/{fileId}/versions/{version}', `/files/${file.id}/versions/1`);
  await described('POST', '/files/{fileId}/restore', `/files/${file.id}/restore`, { version: 1 });
  await described('GET', '/projects/{projectId}/files', `/projects/${project.id}/files`);
  await described('GET', '/files', `/files?projectId=${project.id}`);

  expect((await api(h, 'DELETE', `/api/v1/files/${file.id}`)).status).toBe(204);
  const trash = await described<{ items: unknown[] }>(
    'GET',
    '/projects/{projectId}/files',
    `/projects/${project.id}/files?deleted=true`,
  );
  expect(trash.items).toHaveLength(1);
  await described('POST', '/files/{fileId}/undelete', `/files/${file.id}/undelete`, {}, 200);
});

test('a turn, its messages and its controls answer as documented', async () => {
  const project = await described<{ id: string }>('POST', '/projects', '/projects', {
    title: 'Night Crossing',
    type: 'novel',
  });
  const session = await described<{ id: string }>('POST', '/sessions', '/sessions', { projectId: project.id });
  h.model.script([
    routerReply({ current_agent: 'writer', workflow_plan: 'quick', workflow_agents: ['writer'] }),
    { match: { agent: 'writer' }, reply: { content: 'The ferry could leave at dawn.' } },
  ]);
  const started = await described<{ turnId: string }>(
    'POST',
    '/sessions/{sessionId}/turns',
    `/sessions/${session.id}/turns`,
    { message: 'How does chapter 1 open?' },
    202,
  );
  await described('GET', '/turns/{turnId}', `/turns/${started.turnId}`);
  await waitTurn(h, started.turnId);
  await described('GET', '/turns/{turnId}', `/turns/${started.turnId}`);
  await described('POST', '/turns/{turnId}/stream-token', `/turns/${started.turnId}/stream-token`);
  await described('GET', '/sessions/{sessionId}/messages', `/sessions/${session.id}/messages`);
  const turns = await described<{ items: unknown[] }>(
    'GET',
    '/sessions/{sessionId}/turns',
    `/sessions/${session.id}/turns`,
  );
  expect(turns.items).toHaveLength(1);
});

test('a job answers as documented, running and done', async () => {
  const project = await described<{ id: string }>('POST', '/projects', '/projects', {
    title: 'Short Job',
    type: 'novel',
  });
  // The offline model's persona plans and writes when nothing is scripted.
  h.model.reset();
  const job = await described<{ jobId: string }>(
    'POST',
    '/jobs',
    '/jobs',
    { projectId: project.id, chapters: { from: 1, to: 1 } },
    202,
  );
  await described('GET', '/jobs/{jobId}', `/jobs/${job.jobId}`);
  await described('POST', '/jobs/{jobId}/stream-token', `/jobs/${job.jobId}/stream-token`);
  await h.runtime.temporal.workflow.getHandle(`job-${job.jobId}`).result();
  await described('GET', '/jobs/{jobId}', `/jobs/${job.jobId}`);
  await described('GET', '/jobs', `/jobs?projectId=${project.id}`);
}, 120_000);
