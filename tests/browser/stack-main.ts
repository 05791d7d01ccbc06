/**
 * The real stack the browser tests drive, in one process, as `npm start` runs it: the API
 * (`createApp`, which serves the built studio at /studio), an in-process Temporal worker and
 * the offline model. It runs apart from the app's data like the Jest suite (Temporal
 * namespace scriptorium-test, Redis database 15, a MongoDB database dropped on exit, its own
 * task queue and key prefix).
 *
 * A second, loopback-only port takes the tests' scripts for the offline model (the model is
 * an object in this process; the tests are in Playwright's): `POST /script` appends entries,
 * `POST /reset` goes back to the persona, `POST /timing` paces the persona, `POST
 * /drop-streams` ends every open SSE response as a shutting-down replica does, `GET /model`
 * reports pending entries and failures. Prints `STACK_READY <apiPort> <controlPort>`.
 *
 *   node --require tsx/cjs tests/browser/stack-main.ts
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DefaultLogger, NativeConnection, Runtime as TemporalRuntime } from '@temporalio/worker';
import { createApp } from '../../src/api/app';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startOfflineModel } from '../../src/offline-model';
import { connectRuntime, createLlmClient } from '../../src/runtime';
import { createWorker } from '../../src/worker';
import { closeSseClients } from '../../src/observability/sse-clients';

const NAME = `b${Date.now().toString(36)}`;

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req as AsyncIterable<Buffer>) text += chunk.toString('utf8');
  return text ? JSON.parse(text) : {};
}

async function main(): Promise<void> {
  TemporalRuntime.install({ logger: new DefaultLogger('WARN') });
  const config = loadConfig({
    env: {
      ...process.env,
      SCRIPTORIUM_ENV_PRIORITY: 'none',
      OPENAI_API_KEY: '',
      // API_TOKENS and STREAM_TOKEN_SECRET come from global-setup.ts (bearer tokens on).
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      TEMPORAL_NAMESPACE: process.env.TEMPORAL_NAMESPACE || 'scriptorium-test',
      REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379/15',
      TEMPORAL_TASK_QUEUE: `studio-${NAME}`,
      REDIS_KEY_PREFIX: `studio:${NAME}:`,
      APPROVAL_WAIT_SECONDS: '120',
      REVIEW_WORD_THRESHOLD: '300',
      // The scenarios start more jobs within an hour than one author would (the limit itself is
      // tested against the API: tests/api/rate-limit.test.ts).
      RATE_LIMIT_JOBS: '100',
      // As in the Jest harness: a loaded machine must not cut the reads the scenarios rely on.
      PREPARATION_READ_BUDGET_MS: '5000',
      FACT_CHECK_BUDGET_MS: '5000',
      // The offline model priced like a small hosted one, so the screens show real figures of
      // money (a free model shows $0 everywhere and a wrong sum would look right).
      MODEL_PRICES: JSON.stringify({ 'scriptorium-offline': { input: 0.15, cachedInput: 0.075, output: 0.6 } }),
    },
  });
  const logger = createLogger(config.LOG_LEVEL, 'studio-stack');
  const dbName = `scriptorium_studio_${NAME}`;
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const runtime = await connectRuntime(config, logger, { dbName, temporalConnection: connection });
  // Short persona chapters keep a 3-chapter job quick; the long-chapter scenario scripts its own.
  const model = await startOfflineModel({ ttftMs: 50, tokensPerSecond: 400, persona: { chapterWords: 400 } });
  const worker = await createWorker({
    config,
    runtime,
    llm: createLlmClient(config, model.baseURL),
    logger,
    connection,
  });
  const running = worker.run();
  const app = createApp({
    config,
    models: runtime.models,
    redis: runtime.redis,
    temporal: runtime.temporal,
    logger,
    clock: () => new Date(),
    eagerStart: true,
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const control = http.createServer((req, res) => {
    void (async () => {
      try {
        const body = req.method === 'POST' ? ((await readBody(req)) as Record<string, unknown>) : {};
        if (req.url === '/script') model.script(body.entries as Parameters<typeof model.script>[0]);
        else if (req.url === '/reset') model.reset();
        else if (req.url === '/timing') model.setTiming(body);
        // What a replica's SIGTERM does to its SSE clients: a `retry:` hint, then the end of the
        // response; browsers reconnect by themselves with Last-Event-ID.
        else if (req.url === '/drop-streams') closeSseClients(config.SSE_RETRY_MS);
        else if (req.url !== '/model') throw new Error(`no control route ${req.method} ${req.url}`);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            pending: model.pendingEntries(),
            failures: model.failures,
            requests: model.requests.length,
          }),
        );
      } catch (err) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(err instanceof Error ? err.message : err) }));
      }
    })();
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const port = (s: http.Server) => (s.address() as AddressInfo).port;
  console.log(`STACK_READY ${port(server)} ${port(control)}`);

  const stop = async (): Promise<void> => {
    server.closeAllConnections();
    server.close();
    control.close();
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running.catch(() => undefined);
    await runtime.mongo.dropDatabase().catch(() => undefined);
    await runtime.close();
    await model.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
