/**
 * The Temporal worker: task queue `scriptorium`, workflows from src/workflows, activities
 * from the factory with their dependencies injected. Run standalone with
 * `tsx src/worker.ts` (production) or started in-process by src/main.ts (local default).
 */
import { NativeConnection, Worker, type WorkerInterceptors, type WorkerOptions as TemporalWorkerOptions, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
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
  /** Activity interceptors (bench/turn-kit times each activity type with one). */
  interceptors?: WorkerInterceptors;
  /** Slot and poller tuning, applied last (bench:turn --worker-tuning compares settings). */
  tuning?: WorkerTuning;
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
    ...(opts.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: opts.maxCachedWorkflows } : {}),
    ...(opts.interceptors ? { interceptors: opts.interceptors } : {}),
    ...opts.tuning,
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
  await worker.run();
  await runtime.close();
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
