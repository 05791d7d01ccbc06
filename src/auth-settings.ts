/**
 * How the API authenticates, decided once from the settings at start-up.
 *
 * The mode comes from the *parsed* `API_TOKENS`, never from the raw string: a value that is
 * set but parses to nothing (" ", ","), or holds a malformed pair, stops start-up with an
 * error naming the setting. Falling back to "no auth" there would open the API to whatever
 * HOST it binds.
 *
 * Stream tokens are HMACs with `STREAM_TOKEN_SECRET`. The compiled-in default is public, so
 * it is accepted only in loopback single-user mode, where every request is the local user
 * anyway; with tokens configured the deployment must bring a secret of its own.
 */

/** The stream-token secret compiled into the code: public, so loopback single-user mode only. */
export const DEFAULT_STREAM_TOKEN_SECRET = 'scriptorium-local-dev-stream-secret';
/** A deployment's own secret: 32 characters at least (e.g. `openssl rand -hex 32`). */
export const MIN_STREAM_SECRET_CHARS = 32;
/** A bearer token shorter than this is guessable; refused at start-up. */
export const MIN_API_TOKEN_CHARS = 16;
/** Longest a stream token may live, whatever its `exp` (and the most STREAM_TOKEN_TTL_SECONDS may be). */
export const MAX_STREAM_TOKEN_TTL_SECONDS = 3600;

const USER_ID = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export interface AuthSettings {
  /** `loopback`: no tokens, binds to loopback only, every request is the local user. */
  mode: 'loopback' | 'tokens';
  /** token → user id. */
  tokens: ReadonlyMap<string, string>;
  /** True when the stream tokens are signed with the public default secret (loopback mode only). */
  defaultStreamSecret: boolean;
}

export class AuthSettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = new.target.name;
  }
}

/**
 * `token:user` pairs, comma separated → token → user. An unset or empty value is an empty
 * map (loopback mode); anything else must hold at least one well-formed pair, or this throws
 * naming API_TOKENS (without echoing the tokens).
 */
export function parseApiTokens(raw: string): Map<string, string> {
  const map = new Map<string, string>();
  if (raw === '') return map;
  const problems: string[] = [];
  const entries = raw.split(',');
  entries.forEach((entry, i) => {
    const pair = entry.trim();
    const where = `entry ${i + 1}`;
    if (!pair) return problems.push(`API_TOKENS ${where} is empty`);
    const idx = pair.lastIndexOf(':');
    if (idx <= 0 || idx === pair.length - 1) return problems.push(`API_TOKENS ${where} is not token:user`);
    const token = pair.slice(0, idx);
    const user = pair.slice(idx + 1);
    if (/\s/.test(token)) return problems.push(`API_TOKENS ${where}: the token contains white space`);
    if (!USER_ID.test(user))
      return problems.push(
        `API_TOKENS ${where}: user "${user.slice(0, 64)}" must be 1–64 letters, digits, ".", "_", "@" or "-"`,
      );
    if (token.length < MIN_API_TOKEN_CHARS)
      return problems.push(
        `API_TOKENS ${where}: the token of user "${user}" is shorter than ${MIN_API_TOKEN_CHARS} characters`,
      );
    if (map.has(token))
      return problems.push(
        `API_TOKENS ${where}: the token of user "${user}" is already given to user "${map.get(token)}"`,
      );
    map.set(token, user);
  });
  if (problems.length === 0 && map.size === 0)
    problems.push('API_TOKENS is set but holds no token:user pair (unset it for loopback single-user mode)');
  if (problems.length) throw new AuthSettingsError(problems);
  return map;
}

/**
 * The auth mode and its checks. `streamSecret` is STREAM_TOKEN_SECRET as given (undefined when
 * unset); an explicit copy of the default counts as the default.
 */
export function resolveAuth(apiTokens: string, streamSecret: string | undefined): AuthSettings {
  const tokens = parseApiTokens(apiTokens);
  const secret = streamSecret ?? DEFAULT_STREAM_TOKEN_SECRET;
  const defaultStreamSecret = secret === DEFAULT_STREAM_TOKEN_SECRET;
  if (tokens.size === 0) return { mode: 'loopback', tokens, defaultStreamSecret };
  const problems: string[] = [];
  if (streamSecret === undefined)
    problems.push(
      `STREAM_TOKEN_SECRET must be set when API_TOKENS is: a secret of your own, at least ${MIN_STREAM_SECRET_CHARS} characters (e.g. openssl rand -hex 32)`,
    );
  else if (defaultStreamSecret)
    problems.push('STREAM_TOKEN_SECRET is the public default; with API_TOKENS set, use a secret of your own');
  else if (secret.length < MIN_STREAM_SECRET_CHARS)
    problems.push(
      `STREAM_TOKEN_SECRET is shorter than ${MIN_STREAM_SECRET_CHARS} characters; with API_TOKENS set, use a long random secret`,
    );
  if (problems.length) throw new AuthSettingsError(problems);
  return { mode: 'tokens', tokens, defaultStreamSecret };
}
