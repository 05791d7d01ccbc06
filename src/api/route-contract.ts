/**
 * Every route's request is held to its OpenAPI entry before any handler runs, so a request
 * either means exactly what the document says or is refused with 400 before any state is
 * read: path parameters by their schemas, the query by its strict schema (a
 * route that documents no query takes none: `POST /sessions?unknown=1` is a 400), and the
 * body by its strict schema (a route that documents no body takes none: `[]` or `{"x":1}`
 * sent to `…/stream-token` is a 400; `{}` and no body at all are the same empty request).
 *
 * The routes' own `parseBody` / `parseQuery` calls stay: they give the handler typed values.
 * This layer is what makes a new route covered the moment it is documented, which the
 * OpenAPI test already demands of every route.
 */
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { objectIdSchema } from '../core/domain';
import { BadRequestError } from './errors';
import type { RouteSpec } from './route-specs';
import { parseBody, parseQuery } from './validation';

const noQuery = z.object({}).strict();

interface CompiledRoute {
  spec: RouteSpec;
  /** Literal segments as strings (lower case), parameters as `{ name }`. */
  segments: (string | { name: string })[];
  literals: number;
}

const splitPath = (p: string): string[] => p.split('/').filter(Boolean);

function compile(spec: RouteSpec): CompiledRoute {
  const segments = splitPath(spec.path).map((s) => {
    const m = /^\{([A-Za-z0-9_]+)\}$/.exec(s);
    return m ? { name: m[1]! } : s.toLowerCase();
  });
  return { spec, segments, literals: segments.filter((s) => typeof s === 'string').length };
}

/** Path parameters of `path` when it is this route's path (Express matches literals case-insensitively). */
function matchPath(route: CompiledRoute, parts: string[]): Record<string, string> | null {
  if (parts.length !== route.segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const seg = route.segments[i]!;
    if (typeof seg === 'string') {
      if (seg !== parts[i]!.toLowerCase()) return null;
    } else {
      try {
        params[seg.name] = decodeURIComponent(parts[i]!);
      } catch {
        throw new BadRequestError(`${seg.name} is not a valid path segment`, undefined, `invalid_${seg.name}`);
      }
    }
  }
  return params;
}

function checkParams(spec: RouteSpec, params: Record<string, string>): void {
  if (!spec.params) return;
  const shape = spec.params.shape as Record<string, z.ZodType>;
  for (const [name, value] of Object.entries(params)) {
    const schema = shape[name];
    if (!schema || schema.safeParse(value).success) continue;
    // The codes the routes always answered with: `invalid_id` for our ids, `invalid_<name>` otherwise.
    if (schema === objectIdSchema)
      throw new BadRequestError(`${name} must be a 24-character hex id`, undefined, 'invalid_id');
    throw new BadRequestError(`${name} is not valid`, undefined, `invalid_${name}`);
  }
}

/** True when the request carries a body beyond an empty JSON object. */
function hasBody(body: unknown, headers: Record<string, string | string[] | undefined>): boolean {
  if (body !== undefined)
    return !(body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
  // Not parsed as JSON (another content type): any bytes at all are a body this route does not take.
  return Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
}

/** Checks each request against the documented route it reaches; requests to no documented route pass on (to the 404). */
export function enforceRouteContracts(specs: RouteSpec[]): RequestHandler {
  // Most literal segments first: `/skills/import` wins over `/skills/{skillId}`.
  const routes = specs.map(compile).sort((a, b) => b.literals - a.literals);
  return (req, _res, next) => {
    const method = req.method.toLowerCase() === 'head' ? 'get' : req.method.toLowerCase();
    // The full path: this runs in the app and in the router mounted at /api/v1.
    const parts = splitPath(req.baseUrl + req.path);
    for (const route of routes) {
      if (route.spec.method !== method) continue;
      const params = matchPath(route, parts);
      if (!params) continue;
      checkParams(route.spec, params);
      parseQuery(route.spec.query ?? noQuery, req.query);
      if (route.spec.body) parseBody(route.spec.body, req.body);
      else if (!route.spec.rawBody && hasBody(req.body, req.headers))
        throw new BadRequestError('this route takes no request body', undefined, 'unexpected_body');
      return next();
    }
    next();
  };
}
