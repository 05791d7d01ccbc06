/**
 * Starts Scriptorium locally: the offline model (when no OPENAI_API_KEY is set), the
 * worker (unless RUN_WORKER_IN_PROCESS=false) and the API. Local services are started
 * first by `npm start` (scripts/services.sh).
 */
import type { Server } from 'node:http';
import { createApp } from './api/app';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { startOfflineModel, type OfflineModel } from './offline-model';
import { connectRuntime, createLlmClient } from './runtime';
import { createWorker } from './worker';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  for (const c of config.meta.conflicts)
    logger.warn({ key: c.key, winner: c.winner, effective: c.effective, ignored: c.ignored }, 'config key set differently in the environment and .env');

  let host = config.HOST;
  if (!config.API_TOKENS && !LOOPBACK.has(host)) {
    logger.warn({ requested: host }, 'no API_TOKENS configured: binding to 127.0.0.1 only');
    host = '127.0.0.1';
  }

  let offline: OfflineModel | null = null;
  if (config.meta.offlineModel) {
    offline = await startOfflineModel({
      port: config.OFFLINE_MODEL_PORT,
      ttftMs: config.OFFLINE_MODEL_TTFT_MS,
      tokensPerSecond: config.OFFLINE_MODEL_TOKENS_PER_SECOND,
    });
    console.log(`\n*** OFFLINE MODEL IN USE: no OPENAI_API_KEY is set. Answers are scripted demo text from ${offline.baseURL} ***\n`);
  }
  const runtime = await connectRuntime(config, logger);
  const llm = createLlmClient(config, offline?.baseURL);

  const worker = config.RUN_WORKER_IN_PROCESS ? await createWorker({ config, runtime, llm, logger }) : null;
  const workerDone = worker?.run();

  const app = createApp({ config, models: runtime.models, redis: runtime.redis, temporal: runtime.temporal, logger, clock: () => new Date() });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(config.PORT, host, () => resolve(s));
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.PORT;
  const apiUrl = config.PUBLIC_URL ?? `http://${host}:${port}`;
  console.log(`Scriptorium API:   ${apiUrl}/api/v1   (health: ${apiUrl}/health)`);
  console.log(`Temporal UI:       ${config.TEMPORAL_UI_URL}/namespaces/${config.TEMPORAL_NAMESPACE}/workflows`);
  console.log(`Worker:            ${worker ? `in-process on task queue "${config.TEMPORAL_TASK_QUEUE}"` : 'not started here (RUN_WORKER_IN_PROCESS=false)'}`);
  console.log(`Model:             ${offline ? 'offline model (set OPENAI_API_KEY to use a real one)' : config.OPENAI_MODEL}`);

  const shutdown = async (): Promise<void> => {
    logger.info('shutting down');
    server.close();
    // The Temporal Runtime's signal hook may have begun the shutdown already; a second call throws.
    if (worker?.getState() === 'RUNNING') worker.shutdown();
    await workerDone?.catch(() => undefined);
    await runtime.close();
    await offline?.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
