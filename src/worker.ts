/**
 * The Temporal worker: task queue `scriptorium`, workflows from src/workflows, activities
 * from the factory with their dependencies injected. Run standalone with
 * `tsx src/worker.ts` (production) or started in-process by src/main.ts (local default).
 */
import { NativeConnection, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type OpenAI from 'openai';
import type { Logger } from 'pino';
import { createActivities } from './activities';
import type { FaultInjector } from './activities/faults';
import { type Config, loadConfig } from './config';
import { createLogger } from './logger';
import { connectRuntime, createLlmClient, type Runtime } from './runtime';

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
}

export const WORKFLOWS_PATH = require.resolve('./workflows');

export async function createWorker(opts: WorkerOptions): Promise<Worker> {
  const connection = opts.connection ?? (await NativeConnection.connect({ address: opts.config.TEMPORAL_ADDRESS }));
  const activities = createActivities({
    models: opts.runtime.models,
    redis: opts.runtime.redis,
    llm: opts.llm,
    config: opts.config,
    logger: opts.logger,
    clock: () => new Date(),
    faults: opts.faults,
  });
  return Worker.create({
    connection,
    namespace: opts.config.TEMPORAL_NAMESPACE,
    taskQueue: opts.taskQueue ?? opts.config.TEMPORAL_TASK_QUEUE,
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    activities,
    // Heartbeats carry cancellation back to activities; the default throttle (80% of the
    // heartbeat timeout) would delay an author's interrupt by many seconds.
    maxHeartbeatThrottleInterval: '1s',
    // On shutdown (SIGTERM), running activities are cancelled after this grace (default 0: at
    // once). The LLM step stops its request and fails, so the server retries it on another
    // worker within about a second instead of waiting for a heartbeat timeout.
    shutdownGraceTime: opts.config.WORKER_SHUTDOWN_GRACE_MS,
    // Short activities ignore the cancellation and finish; past this the worker gives up on them.
    shutdownForceTime: opts.config.WORKER_SHUTDOWN_GRACE_MS + 15_000,
    ...(opts.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: opts.maxCachedWorkflows } : {}),
  });
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'scriptorium-worker');
  if (!config.OPENAI_API_KEY && !config.OPENAI_BASE_URL)
    throw new Error('standalone worker needs OPENAI_API_KEY (or OPENAI_BASE_URL of a model server); `npm start` runs the offline model in-process');
  const runtime = await connectRuntime(config, logger);
  const worker = await createWorker({ config, runtime, llm: createLlmClient(config, config.OPENAI_BASE_URL), logger });
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE }, 'worker started');
  // SIGTERM / SIGINT: the Temporal Runtime's own signal hook calls worker.shutdown(), which
  // cancels running activities after shutdownGraceTime (above) — no handler of ours, or a
  // second shutdown() would throw.
  await worker.run();
  await runtime.close();
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
