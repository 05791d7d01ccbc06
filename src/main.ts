/**
 * Starts Scriptorium locally: the offline model (when no OPENAI_API_KEY is set), the
 * worker (unless RUN_WORKER_IN_PROCESS=false) and the API. Local services are started
 * first by `npm start` (scripts/services.sh); production runs `node dist/main.js` with
 * RUN_WORKER_IN_PROCESS=false and the worker apart (`node dist/worker.js`).
 */
import './observability/instrument';
import http from 'node:http';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Logger } from 'pino';
import { createApp } from './api/app';
import { serveMetricsPort } from './api/metrics';
import type { MetricsServer } from './observability/metrics-server';
import { type Config, loadConfig } from './config';
import { createLogger, processLogFormat } from './logger';
import { closeSseClients, openSseClients } from './observability/sse-clients';
import { installTemporalRuntime } from './observability/temporal-runtime';
import { shutdownTracing } from './observability/tracing';
import { onShutdown } from './shutdown';
import { startOfflineModel, type OfflineModel } from './offline-model';
import { connectRuntime, createLlmClient, type Runtime } from './runtime';
import { createWorker } from './worker';
import { buildIdOf, promoteStartedWorker, versioningMode } from './worker-deployment';
import { listenOn } from './shared/listen';
import { printHelpIfAsked } from './help';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

function startingUp(_req: http.IncomingMessage, res: http.ServerResponse): void {
  res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' });
  res.end(JSON.stringify({ error: { code: 'starting', message: 'Scriptorium is starting; try again in a moment.' } }));
}

async function main(): Promise<void> {
  if (printHelpIfAsked('api')) return;
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'scriptorium', undefined, processLogFormat(config));
  // Before any Temporal connection: SDK logs into pino; worker metrics when configured.
  installTemporalRuntime({
    logger,
    metricsBindAddress: config.RUN_WORKER_IN_PROCESS ? config.TEMPORAL_METRICS_BIND_ADDRESS : '',
  });
  warnConfigConflicts(config, logger);

  const host = apiHost(config, logger);
  // The API's port first, before anything else starts: a port in use stops the process with
  // what to do, instead of a worker running behind an API that never listened.
  // Until the API is ready, a request gets 503 with a retry hint rather than no answer.
  const server = http.createServer(startingUp);
  const port = await listenOn(server, config.PORT, host, 'PORT');
  const metricsServer = await serveMetricsPort(config);

  const offline = config.meta.offlineModel ? await startOffline(config) : null;
  const { runtime, worker } = await connectServices(config, logger, offline);
  const workerDone = worker?.run();
  if (worker) await promoteStartedWorker(config, runtime.temporal.workflowService, logger);

  const app = createApp({
    config,
    models: runtime.models,
    redis: runtime.redis,
    temporal: runtime.temporal,
    logger,
    clock: () => new Date(),
    eagerStart: !!worker,
  });
  server.off('request', startingUp);
  server.on('request', app);
  printAddresses(config, config.PUBLIC_URL ?? `http://${host}:${port}`, worker, offline);
  if (metricsServer) console.log(`Metrics:           http://127.0.0.1:${metricsServer.port}/metrics`);

  shutDownInOrder(config, logger, { server, worker, workerDone, runtime, offline, metricsServer });
}

function warnConfigConflicts(config: Config, logger: Logger): void {
  for (const c of config.meta.conflicts)
    logger.warn(
      { key: c.key, winner: c.winner, effective: c.effective, ignored: c.ignored },
      'config key set differently in the environment and .env',
    );
}

/** The address the API binds to: loopback only while no API token is configured. */
function apiHost(config: Config, logger: Logger): string {
  // Decided from the parsed tokens (loadConfig refuses a set-but-empty or malformed API_TOKENS).
  let host = config.HOST;
  if (config.meta.auth.mode === 'loopback' && !LOOPBACK.has(host)) {
    logger.warn({ requested: host }, 'no API_TOKENS configured: binding to 127.0.0.1 only');
    host = '127.0.0.1';
  }
  return host;
}

/** The offline model (no OPENAI_API_KEY is set), announced loudly: its answers are demo text. */
async function startOffline(config: Config): Promise<OfflineModel> {
  const offline = await startOfflineModel({
    port: config.OFFLINE_MODEL_PORT,
    ttftMs: config.OFFLINE_MODEL_TTFT_MS,
    tokensPerSecond: config.OFFLINE_MODEL_TOKENS_PER_SECOND,
  });
  console.log(
    `\n*** OFFLINE MODEL IN USE: no OPENAI_API_KEY is set. Answers are scripted demo text from ${offline.baseURL} ***\n`,
  );
  return offline;
}

/** Temporal, MongoDB and Redis connected, and the worker created when it runs in this process. */
async function connectServices(
  config: Config,
  logger: Logger,
  offline: OfflineModel | null,
): Promise<{ runtime: Runtime; worker: Worker | null }> {
  // With the worker in this process, client and worker share one NativeConnection, so a new
  // turn's first workflow task comes back with the start call (eager start) instead of a
  // round trip through matching. runtime.close() closes it, after the worker has stopped.
  const shared = config.RUN_WORKER_IN_PROCESS
    ? await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS })
    : undefined;
  const runtime = await connectRuntime(config, logger, { temporalConnection: shared });
  const llm = createLlmClient(config, offline?.baseURL);

  const worker = config.RUN_WORKER_IN_PROCESS
    ? await createWorker({ config, runtime, llm, logger, connection: shared })
    : null;
  return { runtime, worker };
}

function printAddresses(config: Config, apiUrl: string, worker: Worker | null, offline: OfflineModel | null): void {
  console.log(`Scriptorium API:   ${apiUrl}/api/v1   (health: ${apiUrl}/health)`);
  console.log(`Studio:            ${apiUrl}/studio/   (the author's web app)`);
  console.log(`Temporal UI:       ${config.TEMPORAL_UI_URL}/namespaces/${config.TEMPORAL_NAMESPACE}/workflows`);
  console.log(
    `Worker:            ${worker ? `in-process on task queue "${config.TEMPORAL_TASK_QUEUE}"` : 'not started here (RUN_WORKER_IN_PROCESS=false)'}`,
  );
  console.log(
    `Build:             ${config.WORKER_DEPLOYMENT_NAME} ${buildIdOf(config)} (worker versioning ${versioningMode(config)})`,
  );
  console.log(
    `Model:             ${offline ? 'offline model (set OPENAI_API_KEY to use a real one)' : config.OPENAI_MODEL}`,
  );
}

/** What runs in this process, for the shutdown to stop. */
interface Running {
  server: http.Server;
  worker: Worker | null;
  workerDone: Promise<void> | undefined;
  runtime: Runtime;
  offline: OfflineModel | null;
  /** The separate metrics port (METRICS_PORT), if any. */
  metricsServer: MetricsServer | null;
}

function shutDownInOrder(
  config: Config,
  logger: Logger,
  { server, worker, workerDone, runtime, offline, metricsServer }: Running,
): void {
  onShutdown(logger, config.SHUTDOWN_GRACE_SECONDS, [
    // No new connections; open SSE clients are told to come back (to another replica) with
    // Last-Event-ID, which resumes without gap or duplicate.
    [
      'http',
      async () => {
        const closing = new Promise<void>((resolve) => server.close(() => resolve()));
        logger.info({ clients: openSseClients() }, 'closing SSE clients with a retry hint');
        closeSseClients(config.SSE_RETRY_MS);
        server.closeIdleConnections();
        await closing;
      },
    ],
    // Stops polling and lets running activities finish within the SDK's grace time (the
    // SDK's runtime may already have begun on the same signal).
    [
      'worker',
      async () => {
        if (worker?.getState() === 'RUNNING') worker.shutdown();
        await workerDone;
      },
    ],
    ['metrics', () => metricsServer?.close()],
    ['connections', () => runtime.close()],
    ['offline model', () => offline?.close()],
    ['tracing', () => shutdownTracing()],
  ]);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
