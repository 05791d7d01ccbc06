/**
 * The OpenAPI 3 document, generated from the route list (route-specs.ts) and the same zod
 * schemas the routes parse with, so the document cannot drift from what the API accepts.
 */
import { OpenAPIRegistry, OpenApiGeneratorV3, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { Config } from '../config';
import { RESPONSE_COMPONENTS, RESPONSES } from './responses';
import { anyObject, type RouteSpec, routeSpecs } from './route-specs';

const errorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: 'Error' });

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input: field errors in `error.details.fields`',
  401: 'Missing or invalid bearer token',
  404: 'Not found — also the answer for another owner’s ids',
  409: 'Conflict (a running turn, a stale base version, a non-empty folder, undelete of a file not in the trash)',
  413: 'Request body too large',
  429: 'Too many started: the per-user limit (RATE_LIMIT_*) is reached; `Retry-After` says when to try again',
};

function register(registry: OpenAPIRegistry, spec: RouteSpec): void {
  const errors = spec.errors ?? [400, 401, 404];
  const success = spec.status ?? 200;
  const responses: RouteConfig['responses'] = {
    [success]: {
      description: spec.description ?? spec.summary,
      ...(success === 204
        ? {}
        : {
            content: {
              [spec.produces?.type ?? 'application/json']: {
                schema: spec.produces?.schema ?? spec.response ?? RESPONSES[`${spec.method} ${spec.path}`] ?? anyObject,
              },
            },
          }),
    },
  };
  for (const code of errors)
    responses[code] = {
      description: ERROR_TEXT[code] ?? String(code),
      content: { 'application/json': { schema: errorSchema } },
    };
  registry.registerPath({
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    tags: [spec.tag],
    ...(spec.public ? { security: [] } : {}),
    request: {
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(spec.body ? { body: { required: true, content: { 'application/json': { schema: spec.body } } } } : {}),
      ...(spec.rawBody
        ? {
            body: {
              required: true,
              content: Object.fromEntries(
                spec.rawBody.map((t) => [t, { schema: z.string().meta({ format: 'binary' }) }]),
              ),
            },
          }
        : {}),
    },
    responses,
  });
}

export function buildOpenApiDocument(config: Pick<Config, 'MAX_MESSAGE_CHARS'>) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer' });
  for (const spec of routeSpecs(config)) register(registry, spec);

  const components = RESPONSE_COMPONENTS.map((schema) => ({ type: 'schema' as const, schema }));
  return new OpenApiGeneratorV3([...registry.definitions, ...components]).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Scriptorium API',
      version: '1',
      description:
        'Writing agents as durable workflows. Errors are `{ error: { code, message, details? } }`. Another owner’s ids answer 404. Streams are Server-Sent Events whose `data` is a StreamEvent. ' +
        'Requests are held to this document: an undocumented query key, or a body sent to a route that takes none, is a 400.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
  });
}
