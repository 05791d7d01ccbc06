/**
 * Request validation helpers. Bodies are checked structurally before any schema sees
 * them: NUL bytes, lone surrogates, keys starting with `$` or containing `.` (operator injection), and
 * deep nesting are refused outright. Then each route parses with a `.strict()` zod schema.
 */
import type { RequestHandler } from 'express';
import { type z } from 'zod';
import { objectIdSchema } from '../core/domain';
import { BadRequestError, zodDetails } from './errors';

const MAX_DEPTH = 12;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function inspect(value: unknown, depth: number, path: string): string | null {
  if (depth > MAX_DEPTH) return `nesting deeper than ${MAX_DEPTH} levels at ${path || '(body)'}`;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return `NUL byte in ${path || '(body)'}`;
    // Lone surrogates are not text: MongoDB would store them as U+FFFD and the model would choke.
    if (LONE_SURROGATE.test(value)) return `invalid Unicode (lone surrogate) in ${path || '(body)'}`;
    return null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = inspect(value[i], depth + 1, `${path}[${i}]`);
      if (bad) return bad;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (
        k.startsWith('$') ||
        k.includes('.') ||
        k.includes('\u0000') ||
        k === '__proto__' ||
        k === 'constructor' ||
        k === 'prototype'
      )
        return `forbidden key "${k.split('\u0000').join('\\0')}" at ${path || '(body)'}`;
      const bad = inspect(v, depth + 1, path ? `${path}.${k}` : k);
      if (bad) return bad;
    }
  }
  return null;
}

/** Rejects dangerous JSON shapes and query strings before routing. */
export const rejectDangerousInput: RequestHandler = (req, _res, next) => {
  const bad = inspect(req.body, 0, '') ?? inspect(req.query, 0, 'query');
  if (bad) return next(new BadRequestError(bad, undefined, 'invalid_input'));
  next();
};

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const r = schema.safeParse(body ?? {});
  if (!r.success) throw new BadRequestError('invalid request body', zodDetails(r.error), 'validation_failed');
  return r.data;
}

export function parseQuery<T extends z.ZodType>(schema: T, query: unknown): z.infer<T> {
  const r = schema.safeParse(query ?? {});
  if (!r.success) throw new BadRequestError('invalid query', zodDetails(r.error), 'validation_failed');
  return r.data;
}

/** Route ids are ours: 24-hex ObjectIds. Anything else is a 400, never a database query. */
export function parseId(value: unknown, name: string): string {
  const r = objectIdSchema.safeParse(value);
  if (!r.success) throw new BadRequestError(`${name} must be a 24-character hex id`, undefined, 'invalid_id');
  return r.data;
}
