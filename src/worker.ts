/**
 * The Temporal worker: task queue `scriptorium`, workflows from src/workflows, activities
 * from the factory with their dependencies injected. Run standalone with
 * `node dist/worker.js` (production; `npm run worker` locally) or started in-process by
 * src/main.ts (local default).
 */
import './observability/instrument';
import fs from 'node:fs';
import {
  NativeConnection,
  Worker,
  type WorkerInterceptors,
  type WorkerOptions as TemporalWorkerOptions,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import type OpenAI from 'openai';
import type { Logger } from 'pino';
import { activityInputCheck } from './activities/input-check';
import { createActivities } from './activities';
import { createWorkerCaches } from './activities/worker-caches';
import { warmSegmenter } from './activities/reading/segmenter';
import type { FaultInjector } from './shared/faults';
import { type Config, loadConfig } from './config';
import { createLogger, processLogFormat } from './logger';
import { activityInterceptors } from './observability/activity-interceptor';
import { serveMetrics } from './observability/metrics-server';
import { installTemporalRuntime } from './observability/temporal-runtime';
import { activeTracing, shutdownTracing, temporalTracingPlugin } from './observability/tracing';
import { PRELOADED_WORKFLOW_MODULES, prebuiltBundlePath, WORKFLOWS_PATH } from './bundling';
import { onShutdown } from './shutdown';
import { connectRuntime, createLlmClient, type Runtime } from './runtime';
import { printHelpIfAsked } from './help';
import { buildIdOf, promoteStartedWorker, versioningMode, workerDeploymentOptions } from './worker-deployment';

export { WORKFLOWS_PATH };

export interface WorkerOptions {
  config: Config;
  runtime: Pick<Runtime, 'models' | 'redis'>;
  llm: OpenAI;
  logger: Logger;
  taskQueue?: string;
  /** Pre-built bundle (tests bundle once per run); otherwise bundled from src/workflows. */
  workflowBundle?: WorkflowBundleWithSourceMap;
  /** 0 makes every workflow task replay from history (replay test suite). */
  maxCachedWorkflows?: number;
  connection?: NativeConnection;
  /** Crash points for fault tests only. */
  faults?: FaultInjector;
  /** Activity interceptors (bench/turn-kit times each activity type with one). */
  interceptors?: WorkerInterceptors;
  /** Slot and poller tuning, applied last (bench:turn --worker-tuning compares settings). */
  tuning?: WorkerTuning;
}

/**
 * Production runs compiled code with the bundle `npm run build` made (samples-typescript
 * `production/`): no webpack at start-up, and the code that runs is the code that was built.
 * Of its two bundles, the one with the tracing interceptors only when tracing is on.
 */
function workflowSource(
  opts: WorkerOptions,
  tracing: boolean,
):
  | { workflowBundle: WorkflowBundleWithSourceMap | { codePath: string } }
  | { workflowsPath: string; bundlerOptions: { preloadModules: string[] } } {
  if (opts.workflowBundle) return { workflowBundle: opts.workflowBundle };
  const prebuilt = prebuiltBundlePath(tracing);
  if (opts.config.NODE_ENV === 'production' && fs.existsSync(prebuilt))
    return { workflowBundle: { codePath: prebuilt } };
  return { workflowsPath: WORKFLOWS_PATH, bundlerOptions: { preloadModules: PRELOADED_WORKFLOW_MODULES } };
}
export type WorkerTuning = Pick<
  TemporalWorkerOptions,
  | 'workflowTaskPollerBehavior'
  | 'activityTaskPollerBehavior'
  | 'maxConcurrentWorkflowTaskExecutions'
  | 'maxConcurrentActivityTaskExecutions'
  | 'maxCachedWorkflows'
  | 'reuseV8Context'
  | 'nonStickyToStickyPollRatio'
>;

/** The operator's capacity settings; an unset one (0) leaves the SDK's default. */
export function workerCapacity(config: Config): WorkerTuning {
  return {
    ...(config.WORKER_MAX_CONCURRENT_ACTIVITIES
      ? { maxConcurrentActivityTaskExecutions: config.WORKER_MAX_CONCURRENT_ACTIVITIES }
      : {}),
    ...(config.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS
      ? { maxConcurrentWorkflowTaskExecutions: config.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS }
      : {}),
    ...(config.WORKER_MAX_CACHED_WORKFLOWS ? { maxCachedWorkflows: config.WORKER_MAX_CACHED_WORKFLOWS } : {}),
  };
}

export async function createWorker(opts: WorkerOptions): Promise<Worker> {
  const connection = opts.connection ?? (await NativeConnection.connect({ address: opts.config.TEMPORAL_ADDRESS }));
  const caches = createWorkerCaches();
  // jieba's dictionary loads in about a second and a half: here, not in the first Chinese turn's preparation.
  warmSegmenter();
  const activities = createActivities(
    {
      models: opts.runtime.models,
      redis: opts.runtime.redis,
      llm: opts.llm,
      config: opts.config,
      logger: opts.logger,
      clock: () => new Date(),
      faults: opts.faults,
    },
    caches,
  );
  // Tracing (client, workflow and activity spans; observability/tracing.ts) only when it is on:
  // the plugin and its workflow interceptors cost 3–5 ms per activity call even with nowhere
  // to send spans (bench:temporal-floor). A bundle handed in must match (tests/helpers/bundle.ts).
  const tracing = activeTracing() !== null;
  const worker = await Worker.create({
    connection,
    namespace: opts.config.TEMPORAL_NAMESPACE,
    taskQueue: opts.taskQueue ?? opts.config.TEMPORAL_TASK_QUEUE,
    // The deployment and build this worker declares; pinned or unversioned (worker-deployment.ts).
    workerDeploymentOptions: workerDeploymentOptions(opts.config),
    ...workflowSource(opts, tracing),
    activities,
    // The plugin also adds the workflow interceptors when the worker bundles; prebuilt bundles carry them already.
    plugins: tracing ? [temporalTracingPlugin()] : [],
    // Extra activity interceptors (bench/turn-kit times each activity type) run after ours. The
    // input check comes first: an input this build does not accept never reaches an activity.
    interceptors: {
      activity: [
        activityInputCheck,
        activityInterceptors({ models: opts.runtime.models }),
        ...(opts.interceptors?.activity ?? []),
      ],
    },
    // Heartbeats carry cancellation back to activities; the default throttle (80% of the
    // heartbeat timeout) would delay an author's interrupt by many seconds. How often an
    // activity beats is the heartbeat budget's (src/activities/heartbeat.ts): 1 s, up to 2 s
    // when the worker runs more activities than HEARTBEATS_PER_SECOND.
    maxHeartbeatThrottleInterval: '1s',
    // A killed worker's sticky queue holds the workflow's next task until this passes (default
    // 10 s) before any other worker may take it: after a SIGKILL the retried step finished in
    // seconds and the turn then sat idle for 10 s (tests/faults/worker-kill.test.ts, scenario f).
    // A live worker picks sticky tasks up in milliseconds. At 3 s, a kill after a step's tool
    // calls were on record (scenario f: the retried step streams nothing new, so the next event
    // waits for this task) still took 3.4 s after the replacement was up; at 1 s a sticky miss
    // on a loaded worker costs at most one replay of a turn's short history, on another worker.
    stickyQueueScheduleToStartTimeout: '1s',
    // On shutdown (SIGTERM), running activities are cancelled after this grace (default 0: at
    // once). The LLM step stops its request and fails, so the server retries it on another
    // worker within about a second instead of waiting for a heartbeat timeout.
    shutdownGraceTime: opts.config.WORKER_SHUTDOWN_GRACE_MS,
    // Short activities ignore the cancellation and finish; past this the worker gives up on them.
    shutdownForceTime: opts.config.WORKER_SHUTDOWN_GRACE_MS + 15_000,
    ...workerCapacity(opts.config),
    ...(opts.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: opts.maxCachedWorkflows } : {}),
    ...opts.tuning,
  });
  afterRun(worker, async () => {
    // The stream counts still pending in this worker's batch go on record (stream-ledger-batch.ts).
    await caches.streamLedger.flush();
    // A connection the worker opened itself is closed: the Temporal runtime shuts down with its
    // last native connection, and until then it keeps the process (or a test runner) alive.
    if (!opts.connection) await connection.close().catch(() => undefined);
  });
  return worker;
}

/** Runs `cleanup` when the worker's run() ends, however it ends. */
function afterRun(worker: Worker, cleanup: () => Promise<void>): void {
  const run = worker.run.bind(worker);
  worker.run = async () => {
    try {
      await run();
    } finally {
      await cleanup();
    }
  };
}

/** What a standalone worker says when it has no model to call, and how to give it one. */
export const NO_MODEL_MESSAGE = [
  'The worker has no model to call: set OPENAI_API_KEY (with OPENAI_BASE_URL for an OpenAI-compatible provider other than OpenAI),',
  'or run the offline model in another terminal and point the worker at it:',
  '  npm run offline-model -- --port 4010',
  '  OPENAI_BASE_URL=http://127.0.0.1:4010/v1 npm run worker',
  '(`npm start` runs the API, a worker and the offline model together.)',
].join('\n');

async function main(): Promise<void> {
  if (printHelpIfAsked('worker')) return;
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'scriptorium-worker', undefined, processLogFormat(config));
  installTemporalRuntime({ logger, metricsBindAddress: config.TEMPORAL_METRICS_BIND_ADDRESS });
  if (!config.OPENAI_API_KEY && !config.OPENAI_BASE_URL) throw new Error(NO_MODEL_MESSAGE);
  const runtime = await connectRuntime(config, logger);
  const worker = await createWorker({ config, runtime, llm: createLlmClient(config, config.OPENAI_BASE_URL), logger });
  const metricsServer = config.WORKER_METRICS_PORT ? await serveMetrics(config.HOST, config.WORKER_METRICS_PORT) : null;
  const running = worker.run();
  const promotion = await promoteStartedWorker(config, runtime.temporal.workflowService, logger);
  logger.info(
    {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      deployment: config.WORKER_DEPLOYMENT_NAME,
      build: buildIdOf(config),
      versioning: versioningMode(config),
      promotion,
      temporalMetrics: config.TEMPORAL_METRICS_BIND_ADDRESS || null,
      metricsPort: config.WORKER_METRICS_PORT || null,
    },
    'worker started',
  );
  onShutdown(logger, config.SHUTDOWN_GRACE_SECONDS, [
    // Stops polling and waits for running tasks; the SDK's own grace settings apply (its
    // runtime may already have begun on the same signal).
    [
      'worker',
      async () => {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running;
      },
    ],
    ['metrics server', async () => metricsServer?.close()],
    ['connections', () => runtime.close()],
    ['tracing', () => shutdownTracing()],
  ]);
  await running;
}

if (require.main === module) {
  main().catch((err) => {
    // A configuration problem is a message for a person; anything else keeps its stack.
    console.error(
      err instanceof Error && (err.message === NO_MODEL_MESSAGE || err.message.startsWith('Invalid configuration'))
        ? err.message
        : err,
    );
    process.exit(1);
  });
}
