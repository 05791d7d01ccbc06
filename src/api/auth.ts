/**
 * Authentication: bearer tokens mapped to users from config (API_TOKENS). With no tokens
 * configured, the server binds to loopback only and every request is the `local` user.
 *
 * EventSource cannot send headers, so stream routes also accept a short-lived, signed,
 * stream-scoped token as `?token=` (issued by POST …/stream-token).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Config } from '../config';
import { UnauthorizedError } from './errors';

export const LOCAL_USER = 'local';

export interface AuthOptions {
  /** token → user id, parsed and checked at start-up (src/auth-settings.ts). Empty: loopback single-user mode. */
  tokens: ReadonlyMap<string, string>;
}

declare module 'express-serve-static-core' {
  interface Request {
    userId?: string;
  }
}

export function userOf(req: Request): string {
  if (!req.userId) throw new UnauthorizedError();
  return req.userId;
}

/** Compares two secrets in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Resolves the bearer token (or a stream token on stream routes) to `req.userId`. */
export function authenticate(opts: AuthOptions): RequestHandler {
  return (req, _res, next) => {
    const header = req.headers.authorization;
    if (header) {
      const m = /^Bearer\s+(\S+)$/i.exec(header);
      const token = m?.[1];
      const user = token ? [...opts.tokens].find(([t]) => safeEqual(t, token))?.[1] : undefined;
      if (!user) return next(new UnauthorizedError('invalid bearer token'));
      req.userId = user;
      return next();
    }
    if (opts.tokens.size === 0) {
      req.userId = LOCAL_USER;
      return next();
    }
    // Stream routes check `?token=` themselves (scoped to one stream); everything else needs a header.
    if (typeof req.query.token === 'string' && req.path.endsWith('/events')) return next();
    return next(new UnauthorizedError());
  };
}

export interface StreamTokenClaims {
  sub: string;
  /** `turn:<id>` or `job:<id>`. */
  res: string;
  exp: number;
}

const b64 = (s: string): string => Buffer.from(s).toString('base64url');

export function signStreamToken(claims: StreamTokenClaims, secret: string): string {
  const body = b64(JSON.stringify(claims));
  const sig = createHmac('sha256', secret).update(body).digest('base64url');
  return `${body}.${sig}`;
}

/** Replicas' clocks may differ by this much: a token issued by one is not "too long-lived" on another. */
const CLOCK_SKEW_SECONDS = 30;

/**
 * Returns the claims when the token is authentic, unexpired, for this resource and not meant
 * to live longer than `ttlSeconds` from now (a leaked or forged long-lived token is refused
 * whatever its `exp` says); else null.
 */
export function verifyStreamToken(
  token: string,
  resource: string,
  settings: StreamTokenSettings,
  nowMs: number,
): StreamTokenClaims | null {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined) return null;
  const expected = createHmac('sha256', settings.secret).update(body).digest('base64url');
  if (!safeEqual(sig, expected)) return null;
  let claims: StreamTokenClaims;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as StreamTokenClaims;
  } catch {
    return null;
  }
  if (!claims || claims.res !== resource || typeof claims.sub !== 'string' || !Number.isFinite(claims.exp)) return null;
  if (claims.exp * 1000 < nowMs || claims.exp > nowMs / 1000 + settings.ttlSeconds + CLOCK_SKEW_SECONDS) return null;
  return claims;
}

export interface StreamTokenSettings {
  secret: string;
  /** Lifetime of an issued token, and the longest any token may still have to live. */
  ttlSeconds: number;
}

export const streamTokenSettings = (
  config: Pick<Config, 'STREAM_TOKEN_SECRET' | 'STREAM_TOKEN_TTL_SECONDS'>,
): StreamTokenSettings => ({
  secret: config.STREAM_TOKEN_SECRET,
  ttlSeconds: config.STREAM_TOKEN_TTL_SECONDS,
});

/** A short-lived token that opens exactly one stream (`turn:<id>` or `job:<id>`). */
export function issueStreamToken(
  userId: string,
  resource: string,
  settings: StreamTokenSettings,
  nowMs: number,
): { token: string; expiresAt: string } {
  const exp = Math.floor(nowMs / 1000) + settings.ttlSeconds;
  return {
    token: signStreamToken({ sub: userId, res: resource, exp }, settings.secret),
    expiresAt: new Date(exp * 1000).toISOString(),
  };
}

/**
 * Who is reading a stream: the bearer user, or the subject of a valid stream token for this
 * very resource. Throws 401 when neither.
 */
export function streamReader(
  req: Request,
  resource: string,
  token: string | undefined,
  settings: StreamTokenSettings,
  nowMs: number,
): string {
  const userId = req.userId ?? (token ? verifyStreamToken(token, resource, settings, nowMs)?.sub : undefined);
  if (!userId) throw new UnauthorizedError('a bearer token or a valid stream token is required');
  return userId;
}
