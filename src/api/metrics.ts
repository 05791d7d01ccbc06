/**
 * Who may read `/metrics`. Its series name routes, agents and models and show the load, so with
 * API_TOKENS (a deployment others can reach) it is not open: a scraper sends METRICS_TOKEN as its
 * bearer token, or METRICS_PORT gives metrics a loopback port of their own and the API port
 * serves none (the two ways a Prometheus scrape config reaches a guarded target). In loopback
 * mode only this machine reaches the API at all, so `/metrics` stays open unless a token is set.
 */
import type { RequestHandler } from 'express';
import type { Config } from '../config';
import { metricsHandler } from '../observability/http';
import { type MetricsServer, serveMetrics } from '../observability/metrics-server';
import { safeEqual } from './auth';
import { NotFoundError, UnauthorizedError } from './errors';

/** Where the separate metrics port listens: a scraper beside the process, never the network. */
export const METRICS_HOST = '127.0.0.1';

type MetricsConfig = Pick<Config, 'METRICS_TOKEN' | 'METRICS_PORT' | 'meta'>;

/** `GET /metrics` on the API port, guarded as the settings say. */
export function metricsRoute(config: MetricsConfig): RequestHandler {
  if (config.METRICS_PORT)
    return (req, _res, next) => next(new NotFoundError(`route ${req.method} ${req.path} (served on METRICS_PORT)`));
  const token = config.METRICS_TOKEN;
  if (!token && config.meta.auth.mode === 'loopback') return metricsHandler;
  return (req, res, next) => {
    const sent = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    // With API_TOKENS and no METRICS_TOKEN nothing opens it: an API token is a user's, not a scraper's.
    if (!token || !sent || !safeEqual(sent, token))
      return next(new UnauthorizedError('metrics need the METRICS_TOKEN bearer token'));
    metricsHandler(req, res, next);
  };
}

/** The separate metrics port (METRICS_PORT) on loopback; null when it is not set. */
export function serveMetricsPort(config: Pick<Config, 'METRICS_PORT'>): Promise<MetricsServer | null> {
  return config.METRICS_PORT ? serveMetrics(METRICS_HOST, config.METRICS_PORT) : Promise.resolve(null);
}
