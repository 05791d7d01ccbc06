/**
 * The OpenAPI 3 document, generated from the same zod schemas the routes parse with, so
 * the document cannot drift from what the API accepts. Every route must be listed here:
 * `tests/api/openapi.test.ts` walks the Express router and fails on an undocumented path.
 */
import { OpenAPIRegistry, OpenApiGeneratorV3, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { Config } from '../config';
import { streamEventSchema } from '../core/events';
import { objectIdSchema } from '../core/domain';
import { RESPONSE_COMPONENTS, RESPONSES } from './responses';
import {
  approvalBody,
  approvalIdSchema,
  createFileBody,
  createProjectBody,
  createSessionBody,
  deleteFileQuery,
  editFileBody,
  eventsQuery,
  fileListQuery,
  interruptBody,
  listFilesQuery,
  listQuery,
  projectListQuery,
  restoreVersionBody,
  startTurnBody,
  steerBody,
} from './schemas';

type Method = RouteConfig['method'];

const errorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: 'Error' });

const streamEvent = streamEventSchema.meta({ id: 'StreamEvent' });
const anyObject = z.record(z.string(), z.unknown());
const idParams = (...names: string[]) => z.object(Object.fromEntries(names.map((n) => [n, objectIdSchema])));

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input: field errors in `error.details.fields`',
  401: 'Missing or invalid bearer token',
  404: 'Not found — also the answer for another owner’s ids',
  409: 'Conflict (a running turn, a stale base version, a non-empty folder, undelete of a file not in the trash)',
  413: 'Request body too large',
  429: 'Too many started: the per-user limit (RATE_LIMIT_*) is reached; `Retry-After` says when to try again',
};

interface RouteSpec {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A body that is not JSON (a skill's zip): its media types; the route reads it itself. */
  rawBody?: string[];
  status?: number;
  description?: string;
  errors?: number[];
  public?: boolean;
  /** Response media type other than JSON (the SSE route). */
  produces?: { type: string; schema: z.ZodType };
  /** The JSON answer's schema (else RESPONSES in responses.ts by method and path, else any object). */
  response?: z.ZodType;
}

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

/**
 * Routes documented by other modules (the jobs router registers its own here with
 * {@link documentRoute}), so adding a router does not mean editing this file's list.
 */
const extraRoutes = new Map<string, RouteSpec>();
/** Idempotent: routers are built once per app, and tests build many apps in one process. */
export function documentRoute(spec: RouteSpec): void {
  extraRoutes.set(`${spec.method} ${spec.path}`, spec);
}
export type { RouteSpec };

/** Express `:name` → OpenAPI `{name}`. */
export const toOpenApiPath = (expressPath: string): string => expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** An API path as the document names it: under /api/v1, with OpenAPI's `{name}` params. */
const v1 = (p: string): string => `/api/v1${toOpenApiPath(p)}`;

/** The process itself: health, metrics and this document (no token needed). */
function operationsRoutes(): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/health',
      summary:
        'Reachability of Temporal, MongoDB and Redis; auth mode and whether the stream-token secret is the default; config conflicts; the build (deployment, build id, worker versioning)',
      tag: 'operations',
      public: true,
      errors: [400],
    },
    {
      method: 'get',
      path: '/metrics',
      summary: 'Prometheus metrics of this process (text exposition format)',
      tag: 'operations',
      public: true,
      errors: [400],
    },
    {
      method: 'get',
      path: v1('/openapi.json'),
      summary: 'This document',
      tag: 'operations',
      public: true,
      errors: [400],
    },
  ];
}

/** Projects: create, list (or the deleted ones), read. */
function projectRoutes(): RouteSpec[] {
  return [
    {
      method: 'post',
      path: v1('/projects'),
      summary: 'Create a project',
      tag: 'projects',
      body: createProjectBody,
      status: 201,
      errors: [400, 401, 413],
    },
    {
      method: 'get',
      path: v1('/projects'),
      summary: 'List your projects, newest first (deleted=true: the ones you deleted, restorable)',
      tag: 'projects',
      query: projectListQuery,
      errors: [400, 401],
    },
    {
      method: 'get',
      path: v1('/projects/:projectId'),
      summary: 'Get a project',
      tag: 'projects',
      params: idParams('projectId'),
    },
  ];
}

/** Sessions in a project, and their messages. */
function sessionRoutes(): RouteSpec[] {
  return [
    {
      method: 'post',
      path: v1('/sessions'),
      summary: 'Create a session in a project',
      tag: 'sessions',
      body: createSessionBody,
      status: 201,
      errors: [400, 401, 404, 413],
    },
    {
      method: 'get',
      path: v1('/sessions'),
      summary: 'List your sessions (optionally of one project)',
      tag: 'sessions',
      query: listQuery,
    },
    {
      method: 'get',
      path: v1('/sessions/:sessionId'),
      summary: 'Get a session',
      tag: 'sessions',
      params: idParams('sessionId'),
    },
    {
      method: 'get',
      path: v1('/sessions/:sessionId/messages'),
      summary: 'Messages in order, with tool breadcrumbs',
      tag: 'sessions',
      params: idParams('sessionId'),
    },
  ];
}

/** Turns: start one, read it, steer, interrupt or answer it, and follow its stream. */
function turnRoutes(config: Pick<Config, 'MAX_MESSAGE_CHARS'>): RouteSpec[] {
  return [
    {
      method: 'post',
      path: v1('/sessions/:sessionId/turns'),
      summary: 'Start a turn (202 with turnId, workflowId, streamUrl, streamToken); 409 with the running turn’s id',
      tag: 'turns',
      params: idParams('sessionId'),
      body: startTurnBody(config.MAX_MESSAGE_CHARS),
      status: 202,
      errors: [400, 401, 404, 409, 413, 429],
    },
    {
      method: 'get',
      path: v1('/turns/:turnId'),
      summary: 'Turn status (and live state while it runs)',
      tag: 'turns',
      params: idParams('turnId'),
    },
    {
      method: 'post',
      path: v1('/turns/:turnId/interrupt'),
      summary: 'Interrupt a running turn',
      tag: 'turns',
      params: idParams('turnId'),
      body: interruptBody,
      status: 202,
      errors: [400, 401, 404, 409],
    },
    {
      method: 'post',
      path: v1('/turns/:turnId/steer'),
      summary: 'Add an instruction to a running turn',
      tag: 'turns',
      params: idParams('turnId'),
      body: steerBody,
      status: 202,
      errors: [400, 401, 404, 409],
    },
    {
      method: 'post',
      path: v1('/turns/:turnId/approvals/:approvalId'),
      summary:
        'Approve or deny what a turn asked (approval_requested): deleting or wholly rewriting a file you wrote. 409 when it was decided, expired or the turn ended. A plain yes / no sent as the session’s next message decides it too',
      tag: 'turns',
      params: z.object({ turnId: objectIdSchema, approvalId: approvalIdSchema }),
      body: approvalBody,
      errors: [400, 401, 404, 409],
    },
    {
      method: 'post',
      path: v1('/turns/:turnId/stream-token'),
      summary: 'A short-lived token for this turn’s stream (EventSource cannot send headers)',
      tag: 'turns',
      params: idParams('turnId'),
      status: 201,
    },
    {
      method: 'get',
      path: v1('/turns/:turnId/events'),
      summary:
        'The turn’s event stream (SSE). Resume with Last-Event-ID or ?after=; 204 when resuming after the terminal event',
      tag: 'turns',
      params: idParams('turnId'),
      query: eventsQuery,
      produces: { type: 'text/event-stream', schema: streamEvent },
    },
  ];
}

/** Listing a project's files and its trash, and bringing a file back from the trash. */
function fileListingRoutes(): RouteSpec[] {
  return [
    {
      method: 'get',
      path: v1('/projects/:projectId/files'),
      summary:
        'List a project’s files (no content) in the manuscript’s order, a page at a time (offset, limit; the answer has total, counts per type and nextOffset); with deleted=true its trash, each with deletedAt and purgeAt',
      tag: 'files',
      params: idParams('projectId'),
      query: listFilesQuery,
    },
    {
      method: 'get',
      path: v1('/files'),
      summary: 'The same listing by ?projectId= (deleted=true: the trash)',
      tag: 'files',
      query: fileListQuery,
    },
    {
      method: 'post',
      path: v1('/files/:fileId/undelete'),
      summary:
        'Restore a file from the trash with its versions (a folder with what its delete took); a title taken meanwhile gets “(restored)”',
      tag: 'files',
      params: idParams('fileId'),
      errors: [400, 401, 404, 409],
    },
  ];
}

/** One file: create, read, its versions, edit, restore a version, delete. */
function fileRoutes(): RouteSpec[] {
  return [
    {
      method: 'post',
      path: v1('/files'),
      summary: 'Create a file as the author (version 1)',
      tag: 'files',
      body: createFileBody,
      status: 201,
      errors: [400, 401, 404, 413],
    },
    {
      method: 'get',
      path: v1('/files/:fileId'),
      summary: 'A file with its head content and version history',
      tag: 'files',
      params: idParams('fileId'),
    },
    {
      method: 'get',
      path: v1('/files/:fileId/versions'),
      summary:
        'A file’s version history, oldest first: who wrote each version (author or agent), how, in which turn, its word count; no text',
      tag: 'files',
      params: idParams('fileId'),
    },
    {
      method: 'get',
      path: v1('/files/:fileId/versions/:version'),
      summary: 'The content of one version',
      tag: 'files',
      params: z.object({ fileId: objectIdSchema, version: z.string().regex(/^[1-9]\d{0,8}$/) }),
    },
    {
      method: 'put',
      path: v1('/files/:fileId'),
      summary: 'Edit as the author: a new version marked author; 409 when baseVersion is not the head',
      tag: 'files',
      params: idParams('fileId'),
      body: editFileBody,
      errors: [400, 401, 404, 409, 413],
    },
    {
      method: 'post',
      path: v1('/files/:fileId/restore'),
      summary: 'Restore a version (as a new version)',
      tag: 'files',
      params: idParams('fileId'),
      body: restoreVersionBody,
      status: 201,
    },
    {
      method: 'delete',
      path: v1('/files/:fileId'),
      summary: 'Soft-delete a file (folders need ?recursive=true)',
      tag: 'files',
      params: idParams('fileId'),
      query: deleteFileQuery,
      status: 204,
      errors: [400, 401, 404, 409],
    },
  ];
}

/** Tokens and cost of a project, a session, a job, or everything of yours. */
function usageRoutes(): RouteSpec[] {
  return [
    {
      method: 'get',
      path: v1('/projects/:projectId/usage'),
      summary: 'Tokens and cost (USD) of a project: totals, per agent, per turn',
      tag: 'usage',
      params: idParams('projectId'),
    },
    {
      method: 'get',
      path: v1('/sessions/:sessionId/usage'),
      summary: 'Tokens and cost (USD) of a session: totals, per agent, per turn',
      tag: 'usage',
      params: idParams('sessionId'),
    },
    {
      method: 'get',
      path: v1('/jobs/:jobId/usage'),
      summary: 'Tokens and cost (USD) of a job: totals, per agent, per chapter turn',
      tag: 'usage',
      params: idParams('jobId'),
    },
    {
      method: 'get',
      path: v1('/usage'),
      summary: 'Your tokens and cost (USD): totals and per agent',
      tag: 'usage',
      errors: [400, 401],
    },
  ];
}

/**
 * Every route the app serves, with the schemas of its params, query and body: the OpenAPI
 * document and the request checks (route-contract.ts) are both made from this list.
 */
export function routeSpecs(config: Pick<Config, 'MAX_MESSAGE_CHARS'>): RouteSpec[] {
  return [
    ...operationsRoutes(),
    ...projectRoutes(),
    ...sessionRoutes(),
    ...turnRoutes(config),
    ...fileListingRoutes(),
    ...fileRoutes(),
    ...usageRoutes(),
    ...extraRoutes.values(),
  ];
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
