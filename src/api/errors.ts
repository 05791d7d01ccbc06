/**
 * Domain errors and the one error middleware. Every error leaves the API as JSON
 * `{ error: { code, message, details? } }` with the right status; nothing leaks a stack.
 */
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { ZodError } from 'zod';
import type { Logger } from 'pino';

export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
/** The base of an error whose callers attach details (which field, which version) and may name a narrower code. */
function detailedError(status: number, defaultCode: string) {
  return class extends DomainError {
    constructor(message: string, details?: Record<string, unknown>, code = defaultCode) {
      super(status, code, message, details);
    }
  };
}
export class BadRequestError extends detailedError(400, 'bad_request') {}
export class UnauthorizedError extends DomainError {
  constructor(message = 'missing or invalid bearer token') {
    super(401, 'unauthorized', message);
  }
}
/** Also what another owner's ids get: existence is not disclosed (OWASP API1). */
export class NotFoundError extends DomainError {
  constructor(what: string) {
    super(404, 'not_found', `${what} not found`);
  }
}
export class ConflictError extends detailedError(409, 'conflict') {}
export class PayloadTooLargeError extends DomainError {
  constructor(message = 'request body too large') {
    super(413, 'payload_too_large', message);
  }
}
export class UnavailableError extends DomainError {
  constructor(message: string) {
    super(503, 'unavailable', message);
  }
}

/** Express 5 forwards rejected promises itself; this keeps handler types tidy. */
export const asyncHandler =
  (fn: (req: Request, res: Response, next: NextFunction) => Promise<unknown>): RequestHandler =>
  (req, res, next) => {
    fn(req, res, next).catch(next);
  };

export function zodDetails(err: ZodError): Record<string, unknown> {
  return {
    fields: err.issues.map((i) => ({ path: i.path.join('.') || '(body)', message: i.message })),
  };
}

export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    let e: DomainError;
    if (err instanceof DomainError) e = err;
    else if (err instanceof ZodError) e = new BadRequestError('invalid request', zodDetails(err), 'validation_failed');
    else if (isBodyParserError(err)) {
      e =
        err.type === 'entity.too.large'
          ? new PayloadTooLargeError(`request body exceeds ${err.limit} bytes`)
          : new BadRequestError(
              err.type === 'entity.parse.failed' ? 'body is not valid JSON' : 'unreadable request body',
              undefined,
              'invalid_body',
            );
    } else if (isClientHttpError(err)) {
      // Express and its parsers flag what the client got wrong (a broken gzip body, an
      // undecodable %-escape in a path) with a 4xx status: keep it, in our error shape.
      e = new DomainError(
        err.status,
        err.status === 415 ? 'unsupported_media_type' : 'bad_request',
        err.status === 400 ? 'malformed request' : err.message,
      );
    } else {
      logger.error({ err, path: req.path }, 'unhandled error');
      e = new DomainError(500, 'internal', 'internal error');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    res
      .status(e.status)
      .json({ error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } });
  };
}

function isBodyParserError(err: unknown): err is { type: string; limit?: number; status: number } {
  return (
    typeof err === 'object' && err !== null && typeof (err as { type?: unknown }).type === 'string' && 'status' in err
  );
}

function isClientHttpError(err: unknown): err is { status: number; message: string } {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && err instanceof Error;
}
