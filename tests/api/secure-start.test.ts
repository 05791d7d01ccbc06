/**
 * Secure defaults at start-up, as an operator meets them: the real entry point
 * (`src/main.ts`) started with a malformed API_TOKENS, or with auth on and no secret of its
 * own, exits with an error naming the setting, and never listens (HOST=0.0.0.0 included).
 */
import { runEntry } from '../helpers/entry-process';

const startMain = (env: Record<string, string>) => runEntry(env);

const OWN_SECRET = 'an-operators-own-secret-0123456789abcdef';

test.each([
  ['a blank', ' ', /API_TOKENS/],
  ['a lone comma', ',', /API_TOKENS/],
  ['a token without a user', 'alice-token-0123456789', /API_TOKENS entry 1 is not token:user/],
  ['a short token', 'abc:alice', /API_TOKENS entry 1: the token of user "alice" is shorter/],
])(
  'API_TOKENS holding %s stops start-up naming the setting',
  async (_name, value, message) => {
    const r = await startMain({ API_TOKENS: value, STREAM_TOKEN_SECRET: OWN_SECRET });
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBeNull();
    expect(r.output).toMatch(message);
    expect(r.output).not.toMatch(/Scriptorium API:/);
    expect(r.listened).toBe(false);
  },
  70_000,
);

test.each([
  ['no secret', {}, /STREAM_TOKEN_SECRET must be set/],
  [
    'the default secret',
    { STREAM_TOKEN_SECRET: 'scriptorium-local-dev-stream-secret' },
    /STREAM_TOKEN_SECRET is the public default/,
  ],
  ['a short secret', { STREAM_TOKEN_SECRET: 'only-twenty-chars-xx' }, /STREAM_TOKEN_SECRET is shorter than 32/],
])(
  'with API_TOKENS set, %s stops start-up',
  async (_name, env, message) => {
    const r = await startMain({ API_TOKENS: 'alice-token-0123456789:alice', ...env });
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(message);
    expect(r.listened).toBe(false);
  },
  70_000,
);
