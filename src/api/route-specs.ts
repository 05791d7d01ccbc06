/**
 * Every route the app serves, as the OpenAPI document (openapi.ts) and the request checks
 * (route-contract.ts) are both made from it: method, path, and the zod schemas of its params,
 * query and body. Routers that document their own routes add them with {@link documentRoute}.
 * `tests/api/openapi.test.ts` walks the Express router and fails on an undocumented path.
 */
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { Config } from '../config';
import { streamEventSchema } from '../core/events';
import { objectIdSchema } from '../core/domain';
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

const streamEvent = streamEventSchema.meta({ id: 'StreamEvent' });
export const anyObject = z.record(z.string(), z.unknown());
const idParams = (...names: string[]) => z.object(Object.fromEntries(names.map((n) => [n, objectIdSchema])));

export interface RouteSpec {
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

/**
 * Routes documented by other modules (the jobs router registers its own here with
 * {@link documentRoute}), so adding a router does not mean editing this file's list.
 */
const extraRoutes = new Map<string, RouteSpec>();
/** Idempotent: routers are built once per app, and tests build many apps in one process. */
export function documentRoute(spec: RouteSpec): void {
  extraRoutes.set(`${spec.method} ${spec.path}`, spec);
}

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
