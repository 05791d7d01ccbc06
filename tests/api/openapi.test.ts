/**
 * The OpenAPI document is generated from the request schemas and lists every route the
 * Express app really has (walked from its router), with each route's request schema.
 */
import type { Express } from 'express';
import { createApp } from '../../src/api/app';
import { toOpenApiPath } from '../../src/api/route-specs';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createStartedServer } from '../helpers/app-server';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  rawPath?: string;
}

/** Every `METHOD /path` the app routes, with mount prefixes applied. */
function routesOf(app: Express): string[] {
  const out: string[] = [];
  const walk = (stack: Layer[], prefix: string): void => {
    for (const layer of stack) {
      if (layer.route) {
        for (const [m, on] of Object.entries(layer.route.methods))
          if (on && m !== '_all') out.push(`${m} ${prefix}${layer.route.path}`);
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, prefix + (layer.rawPath && layer.rawPath !== '/' ? layer.rawPath : ''));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return out;
}

const config = loadConfig({ env: { SCRIPTORIUM_ENV_PRIORITY: 'none', LOG_LEVEL: 'silent' } });
const app = createApp({
  config,
  models: {} as never,
  redis: {} as never,
  temporal: {} as never,
  logger: createLogger('silent'),
  clock: () => new Date(),
});

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: unknown; parameters?: { name: string; in: string }[] }>>;
};
let doc: Doc;
let close: () => Promise<void>;
beforeAll(async () => {
  const s = await createStartedServer(app);
  close = s.close;
  const res = await fetch(`${s.baseUrl}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as Doc;
});
afterAll(async () => close?.());

test('every route of the app is in the document, and nothing else', () => {
  const routes = routesOf(app);
  expect(routes.length).toBeGreaterThan(20);
  const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
  const actual = routes.map((r) => {
    const [m, p] = r.split(' ');
    return `${m} ${toOpenApiPath(p!)}`;
  });
  expect(doc.openapi).toMatch(/^3\./);
  expect(documented.sort()).toEqual([...new Set(actual)].sort());
});

test('requests carry the zod schemas: strict bodies with caps, typed path ids, queries', () => {
  const turn = doc.paths['/api/v1/sessions/{sessionId}/turns']!.post! as {
    requestBody: {
      content: {
        'application/json': {
          schema: {
            properties: Record<string, { maxLength?: number }>;
            additionalProperties: boolean;
            required: string[];
          };
        };
      };
    };
    parameters: { name: string; in: string; schema: { pattern: string } }[];
  };
  const body = turn.requestBody.content['application/json'].schema;
  expect(body.additionalProperties).toBe(false);
  expect(body.required).toEqual(['message']);
  expect(body.properties.message!.maxLength).toBe(config.MAX_MESSAGE_CHARS);
  expect(turn.parameters).toEqual([
    expect.objectContaining({
      name: 'sessionId',
      in: 'path',
      schema: expect.objectContaining({ pattern: '^[0-9a-f]{24}$' }),
    }),
  ]);

  for (const [path, method] of [
    ['/api/v1/projects', 'post'],
    ['/api/v1/sessions', 'post'],
    ['/api/v1/files', 'post'],
    ['/api/v1/files/{fileId}', 'put'],
    ['/api/v1/files/{fileId}/restore', 'post'],
    ['/api/v1/turns/{turnId}/steer', 'post'],
  ] as const)
    expect(doc.paths[path]![method]!.requestBody).toBeDefined();
  const events = doc.paths['/api/v1/turns/{turnId}/events']!.get!;
  expect(events.parameters!.map((p) => `${p.in}:${p.name}`).sort()).toEqual([
    'path:turnId',
    'query:after',
    'query:token',
  ]);
  expect(JSON.stringify(events)).toContain('text/event-stream');
});

/** One request with any method and body (fetch refuses a GET with a body). */
async function send(
  method: string,
  url: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; code?: string }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    // An explicit length: Node sends a GET's body without one otherwise.
    const bodyHeaders =
      body !== undefined
        ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }
        : {};
    const req = request(url, { method: method.toUpperCase(), headers: { ...bodyHeaders, ...headers } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        let code: string | undefined;
        try {
          code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
        } catch {
          code = undefined;
        }
        resolve({ status: res.statusCode ?? 0, code });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Every documented route refuses an unknown query key, and a body it does not take,
 * with 400 — before any state is read (this app has no database: a request that reached a
 * handler would fail with 500, not 400). Walks the document, so a new route is covered too.
 */
test('every documented route refuses unknown query keys and bodies it does not take, before reading state', async () => {
  const s = await createStartedServer(app);
  try {
    const fill = (p: string): string => p.replace(/\{version\}/g, '1').replace(/\{[A-Za-z]+\}/g, 'a'.repeat(24));
    let checked = 0;
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        // Required query parameters (only ids today) get valid values, so the body is what is judged.
        const required = (op.parameters ?? []).filter(
          (q) => q.in === 'query' && (q as { required?: boolean }).required,
        );
        const query = required.map((q) => `${q.name}=${'a'.repeat(24)}`).join('&');
        const url = `${s.baseUrl}${fill(p)}${query ? `?${query}` : ''}`;
        const where = `${method} ${p}`;
        expect({ where, ...(await send(method, `${url}${query ? '&' : '?'}unknownKey=1`)) }).toEqual({
          where,
          status: 400,
          code: 'validation_failed',
        });
        const jsonBody = JSON.stringify(op.requestBody ?? {}).includes('application/json');
        if (!op.requestBody) {
          for (const body of ['[]', '{"unexpected":1}', '"text"'])
            expect({ where, body, ...(await send(method, url, body)) }).toEqual({
              where,
              body,
              status: 400,
              code: expect.stringMatching(/^(unexpected_body|invalid_body)$/),
            });
          expect({ where, ...(await send(method, url, 'plain words', { 'content-type': 'text/plain' })) }).toEqual({
            where,
            status: 400,
            code: 'unexpected_body',
          });
        } else if (jsonBody) {
          expect({ where, ...(await send(method, url, '{"unexpected":1}')) }).toEqual({
            where,
            status: 400,
            code: 'validation_failed',
          });
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(35);
  } finally {
    await s.close();
  }
});

test('jobs/:id/cancel and resume validate the request before the job is read', async () => {
  const s = await createStartedServer(app);
  try {
    for (const what of ['cancel', 'resume'])
      expect(
        await send('post', `${s.baseUrl}/api/v1/jobs/${'b'.repeat(24)}/${what}`, '{"reason":5,"maxTokens":"x"}'),
      ).toEqual({ status: 400, code: 'validation_failed' });
  } finally {
    await s.close();
  }
});
