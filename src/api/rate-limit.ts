/**
 * Spend limits: how many turns and jobs one user may start per window. Counters live in
 * Redis (rate-limiter-flexible's atomic Lua counters), so every API replica enforces the
 * same limit. Only creations count: a point is taken before the route runs — so two
 * simultaneous requests cannot both slip under the limit — and given back when the request
 * does not end in `202` (bad input, 409, …). Over the limit: `429` with `Retry-After` and
 * the usual JSON error body.
 */
import type { Request, RequestHandler } from 'express';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { userOf } from './auth';
import type { AppDeps } from './context';
import { DomainError } from './errors';

interface Limit {
  name: 'turns' | 'jobs';
  /** Which requests create one. */
  matches: (req: Request) => boolean;
  points: number;
  windowSeconds: number;
}

export class RateLimitedError extends DomainError {
  constructor(
    name: string,
    limit: number,
    windowSeconds: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      429,
      'rate_limited',
      `too many ${name} started: at most ${limit} per ${windowSeconds} s; try again in ${retryAfterSeconds} s`,
      {
        limit,
        windowSeconds,
        retryAfterSeconds,
      },
    );
  }
}

/** One middleware for every limited route; a limit of 0 turns that limit off. */
export function rateLimits(deps: Pick<AppDeps, 'config' | 'redis' | 'logger'>): RequestHandler {
  const { config } = deps;
  const limits: Limit[] = [
    {
      name: 'turns',
      matches: (req) => req.method === 'POST' && /^\/sessions\/[^/]+\/turns\/?$/.test(req.path),
      points: config.RATE_LIMIT_TURNS,
      windowSeconds: config.RATE_LIMIT_TURNS_WINDOW_SECONDS,
    },
    {
      name: 'jobs',
      matches: (req) => req.method === 'POST' && /^\/jobs\/?$/.test(req.path),
      points: config.RATE_LIMIT_JOBS,
      windowSeconds: config.RATE_LIMIT_JOBS_WINDOW_SECONDS,
    },
  ];
  const limiters = new Map(
    limits
      .filter((l) => l.points > 0)
      .map((l) => [
        l.name,
        new RateLimiterRedis({
          storeClient: deps.redis,
          keyPrefix: `${config.REDIS_KEY_PREFIX}ratelimit:${l.name}`,
          points: l.points,
          duration: l.windowSeconds,
        }),
      ]),
  );

  return (req, res, next) => {
    const limit = limits.find((l) => l.matches(req));
    const limiter = limit && limiters.get(limit.name);
    if (!limit || !limiter) return next();
    const key = userOf(req);
    limiter.consume(key).then(
      () => {
        res.once('finish', () => {
          if (res.statusCode !== 202) void limiter.reward(key).catch(() => undefined);
        });
        next();
      },
      (rejected: unknown) => {
        if (rejected instanceof RateLimiterRes) {
          const retryAfterSeconds = Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
          res.setHeader('Retry-After', String(retryAfterSeconds));
          return next(new RateLimitedError(limit.name, limit.points, limit.windowSeconds, retryAfterSeconds));
        }
        // Redis unreachable: the limit cannot be checked. Refusing every turn would turn a Redis
        // blip into an outage, so the request goes through and the failure is logged.
        deps.logger.warn({ err: rejected, limit: limit.name }, 'rate limit not checked: Redis unavailable');
        next();
      },
    );
  };
}
