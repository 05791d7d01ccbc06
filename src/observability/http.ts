/**
 * HTTP observability for the Express app: one request id per request (the caller's
 * `X-Request-Id` when it is sane, else a new UUID) echoed in the response and carried into
 * the records a request creates (the Turn's `requestId`); a pino-http line per request; and
 * latency by route template and status for `/metrics`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { metrics, scrape } from './metrics';

const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** The request id of a request that went through {@link requestLogging}. */
export function requestIdOfRequest(req: Request): string | undefined {
  return req.id === undefined ? undefined : String(req.id);
}

export function requestLogging(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: requestIdOf,
    // Scrapes and probes every few seconds would bury everything else.
    autoLogging: { ignore: (req) => req.url === '/metrics' || req.url === '/health' },
    // A client's 4xx is the API doing its job: info, like a 2xx; only server failures stand out.
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    // Ids and status are enough; pino-http's full request/response dumps carry tokens in headers.
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  }) as unknown as RequestHandler;
}

/** Route template of a matched request (`/api/v1/turns/:turnId/events`), never raw ids. */
function routeOf(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? `${req.baseUrl}${route.path}` : 'unmatched';
}

export function requestMetrics(): RequestHandler {
  return (req, res, next) => {
    const end = metrics.httpRequestDuration.startTimer({ method: req.method });
    res.once('close', () => end({ route: routeOf(req), status: String(res.statusCode) }));
    next();
  };
}

/** `GET /metrics`: Prometheus text exposition of this process's registry. */
export const metricsHandler: RequestHandler = (_req, res, next) => {
  scrape().then(({ contentType, body }) => {
    res.setHeader('Content-Type', contentType);
    res.end(body);
  }, next);
};
