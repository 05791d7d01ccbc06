/**
 * Secure defaults: the auth mode comes from the parsed API_TOKENS, a setting that
 * parses to nothing or to malformed pairs is refused, tokens need a secret of their own, and
 * a stream token never outlives the configured maximum whatever its `exp` says.
 */
import { issueStreamToken, signStreamToken, verifyStreamToken } from '../../src/api/auth';
import {
  DEFAULT_STREAM_TOKEN_SECRET,
  MAX_STREAM_TOKEN_TTL_SECONDS,
  parseApiTokens,
  resolveAuth,
} from '../../src/auth-settings';
import { loadConfig } from '../../src/config';

const OWN_SECRET = 'an-operators-own-secret-0123456789abcdef';
const GOOD = 'alice-token-0123456789:alice';

describe('API_TOKENS', () => {
  test('unset or empty is loopback single-user mode', () => {
    expect(resolveAuth('', undefined)).toMatchObject({ mode: 'loopback', defaultStreamSecret: true });
    expect(resolveAuth('', undefined).tokens.size).toBe(0);
  });

  test.each([' ', ',', ' , ', '\t'])('%j is set but holds no pair: refused, never "no auth"', (raw) => {
    expect(() => parseApiTokens(raw)).toThrow(/API_TOKENS/);
    expect(() =>
      loadConfig({ env: { SCRIPTORIUM_ENV_PRIORITY: 'none', API_TOKENS: raw, STREAM_TOKEN_SECRET: OWN_SECRET } }),
    ).toThrow(/API_TOKENS/);
  });

  test.each([
    ['no user', 'alice-token-0123456789', /not token:user/],
    ['empty user', 'alice-token-0123456789:', /not token:user/],
    ['empty token', ':alice', /not token:user/],
    ['a short token', 'short:alice', /shorter than 16/],
    ['white space in the token', 'alice token 0123456789:alice', /white space/],
    ['a user id with a slash', 'alice-token-0123456789:al/ice', /user/],
    ['a trailing empty entry', `${GOOD},`, /entry 2 is empty/],
    ['one token for two users', `${GOOD},alice-token-0123456789:bob`, /already given/],
  ])('%s is refused', (_name, raw, message) => {
    expect(() => parseApiTokens(raw)).toThrow(message);
  });

  test('the error never echoes a token', () => {
    expect(() => parseApiTokens('supersecretvalue-9876:bad/user')).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('supersecretvalue') }),
    );
  });

  test('well-formed pairs map tokens to users', () => {
    const auth = resolveAuth(`${GOOD}, bob-token-0123456789:bob`, OWN_SECRET);
    expect(auth.mode).toBe('tokens');
    expect([...auth.tokens]).toEqual([
      ['alice-token-0123456789', 'alice'],
      ['bob-token-0123456789', 'bob'],
    ]);
    expect(auth.defaultStreamSecret).toBe(false);
  });
});

describe('STREAM_TOKEN_SECRET with auth on', () => {
  test('unset, the public default, or short: start-up is refused naming the setting', () => {
    expect(() => resolveAuth(GOOD, undefined)).toThrow(/STREAM_TOKEN_SECRET must be set/);
    expect(() => resolveAuth(GOOD, DEFAULT_STREAM_TOKEN_SECRET)).toThrow(/STREAM_TOKEN_SECRET is the public default/);
    expect(() => resolveAuth(GOOD, 'sixteen-chars-ok-but-short')).toThrow(/STREAM_TOKEN_SECRET is shorter than 32/);
    expect(() => loadConfig({ env: { SCRIPTORIUM_ENV_PRIORITY: 'none', API_TOKENS: GOOD } })).toThrow(
      /STREAM_TOKEN_SECRET/,
    );
  });

  test('loopback mode keeps the default (every request is the local user anyway)', () => {
    const c = loadConfig({ env: { SCRIPTORIUM_ENV_PRIORITY: 'none' } });
    expect(c.meta.auth).toMatchObject({ mode: 'loopback', defaultStreamSecret: true });
    expect(c.STREAM_TOKEN_SECRET).toBe(DEFAULT_STREAM_TOKEN_SECRET);
  });

  test('the token lifetime setting is capped', () => {
    expect(() =>
      loadConfig({
        env: { SCRIPTORIUM_ENV_PRIORITY: 'none', STREAM_TOKEN_TTL_SECONDS: String(MAX_STREAM_TOKEN_TTL_SECONDS + 1) },
      }),
    ).toThrow(/STREAM_TOKEN_TTL_SECONDS/);
  });
});

describe('stream tokens', () => {
  const settings = { secret: OWN_SECRET, ttlSeconds: 600 };
  const now = Date.UTC(2026, 11, 4, 12);
  const nowS = now / 1000;

  test('an issued token verifies for its own resource only', () => {
    const { token } = issueStreamToken('alice', 'turn:1', settings, now);
    expect(verifyStreamToken(token, 'turn:1', settings, now)).toMatchObject({ sub: 'alice', res: 'turn:1' });
    expect(verifyStreamToken(token, 'turn:2', settings, now)).toBeNull();
    expect(verifyStreamToken(token, 'turn:1', settings, now + 601_000)).toBeNull();
  });

  test('signed with another secret (the public default) is refused', () => {
    const forged = signStreamToken({ sub: 'alice', res: 'turn:1', exp: nowS + 60 }, DEFAULT_STREAM_TOKEN_SECRET);
    expect(verifyStreamToken(forged, 'turn:1', settings, now)).toBeNull();
  });

  test('an exp beyond the maximum lifetime is refused, whoever signed it', () => {
    const tenYears = signStreamToken({ sub: 'alice', res: 'turn:1', exp: nowS + 10 * 365 * 86400 }, OWN_SECRET);
    expect(verifyStreamToken(tenYears, 'turn:1', settings, now)).toBeNull();
    // Within the lifetime plus a little clock skew between replicas: fine.
    const skewed = signStreamToken({ sub: 'alice', res: 'turn:1', exp: nowS + 600 + 20 }, OWN_SECRET);
    expect(verifyStreamToken(skewed, 'turn:1', settings, now)).not.toBeNull();
    const tooLong = signStreamToken({ sub: 'alice', res: 'turn:1', exp: nowS + 600 + 31 }, OWN_SECRET);
    expect(verifyStreamToken(tooLong, 'turn:1', settings, now)).toBeNull();
  });

  test('malformed tokens and claims are refused', () => {
    const good = signStreamToken({ sub: 'alice', res: 'turn:1', exp: nowS + 60 }, OWN_SECRET);
    expect(verifyStreamToken(`${good}.extra`, 'turn:1', settings, now)).toBeNull();
    expect(
      verifyStreamToken(
        signStreamToken({ sub: 'alice', res: 'turn:1', exp: 'soon' } as never, OWN_SECRET),
        'turn:1',
        settings,
        now,
      ),
    ).toBeNull();
    expect(verifyStreamToken(signStreamToken(null as never, OWN_SECRET), 'turn:1', settings, now)).toBeNull();
  });
});
