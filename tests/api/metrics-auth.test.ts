/**
 * /metrics is not open to the world: with API_TOKENS set, the API port answers it only to a
 * scraper sending METRICS_TOKEN as its bearer token (401 otherwise, a user's API token
 * included, and to everyone when no METRICS_TOKEN is set), or not at all when METRICS_PORT
 * serves metrics on a loopback port of their own. Loopback mode without API_TOKENS is as it was.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../src/api/app';
import { METRICS_HOST, serveMetricsPort } from '../../src/api/metrics';
import { loadConfig } from '../../src/config';
import type { MetricsServer } from '../../src/observability/metrics-server';
import { createLogger } from '../../src/logger';
import { createHarness, type Harness, testConfig } from '../helpers/harness';
import { freePort } from '../helpers/prometheus';

const API_TOKENS = 'alice-token-0123456789:alice';
const STREAM_TOKEN_SECRET = 'metrics-test-stream-secret-0123456789abcdef';
const METRICS_TOKEN = 'scraper-token-0123456789abcdef';

let h: Harness;
const servers: Server[] = [];
let metricsServer: MetricsServer | null = null;

beforeAll(async () => {
  h = await createHarness({ noWorker: true });
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  await metricsServer?.close();
  await h?.close();
});

/** The app with these settings over the harness's services, listening on a free loopback port. */
async function appWith(overrides: Record<string, string>): Promise<string> {
  const app = createApp({
    config: testConfig(overrides),
    models: h.runtime.models,
    redis: h.runtime.redis,
    temporal: h.runtime.temporal,
    logger: createLogger('warn', 'test'),
    clock: () => new Date(),
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function scrape(base: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/metrics`, { headers });
  return { status: res.status, text: await res.text() };
}

test('with API_TOKENS and METRICS_TOKEN: 401 without it or with another token, 200 with it', async () => {
  const base = await appWith({ API_TOKENS, STREAM_TOKEN_SECRET, METRICS_TOKEN });
  const none = await scrape(base);
  expect(none.status).toBe(401);
  expect(JSON.parse(none.text)).toMatchObject({ error: { code: 'unauthorized' } });
  expect(none.text).not.toMatch(/scriptorium_/);
  expect((await scrape(base, bearer('scraper-token-0123456789abcdeX'))).status).toBe(401);
  // A user's API token is not a scraper's.
  expect((await scrape(base, bearer('alice-token-0123456789'))).status).toBe(401);
  const ok = await scrape(base, bearer(METRICS_TOKEN));
  expect(ok.status).toBe(200);
  expect(ok.text).toMatch(/^# HELP scriptorium_/m);
});

test('with API_TOKENS and neither METRICS_TOKEN nor METRICS_PORT, nobody reads /metrics on the API port', async () => {
  const base = await appWith({ API_TOKENS, STREAM_TOKEN_SECRET });
  expect((await scrape(base)).status).toBe(401);
  expect((await scrape(base, bearer('alice-token-0123456789'))).status).toBe(401);
  // /health stays public: the mode is still visible to an operator.
  expect((await fetch(`${base}/health`)).status).not.toBe(401);
});

test('with METRICS_PORT, metrics are served on 127.0.0.1 at that port and not on the API port', async () => {
  const port = await freePort();
  const settings = { API_TOKENS, STREAM_TOKEN_SECRET, METRICS_PORT: String(port) };
  const base = await appWith(settings);
  expect((await scrape(base)).status).toBe(404);
  metricsServer = await serveMetricsPort(testConfig(settings));
  expect(metricsServer).not.toBeNull();
  expect(metricsServer!.port).toBe(port);
  const own = await scrape(`http://${METRICS_HOST}:${port}`);
  expect(own.status).toBe(200);
  expect(own.text).toMatch(/^# HELP scriptorium_/m);
  // Without METRICS_PORT nothing else listens.
  expect(await serveMetricsPort(testConfig({ API_TOKENS, STREAM_TOKEN_SECRET }))).toBeNull();
});

test('loopback mode (no API_TOKENS): /metrics is open as before', async () => {
  const base = await appWith({});
  const open = await scrape(base);
  expect(open.status).toBe(200);
  expect(open.text).toMatch(/^# HELP scriptorium_/m);
});

test('METRICS_TOKEN and METRICS_PORT are checked at start-up', () => {
  const load = (env: Record<string, string>) => () => loadConfig({ env: { SCRIPTORIUM_ENV_PRIORITY: 'none', ...env } });
  expect(load({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  expect(load({ METRICS_TOKEN: 'has a space in it 0123456789' })).toThrow(/METRICS_TOKEN/);
  expect(load({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  expect(load({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT/);
  expect(load({})().METRICS_PORT).toBe(0);
  expect(load({})().METRICS_TOKEN).toBeUndefined();
});
