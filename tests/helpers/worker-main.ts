/**
 * A worker in its own process, for fault tests that SIGKILL it mid-turn. Configured
 * entirely by environment (the parent test passes its harness settings).
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { connectRuntime, createLlmClient } from '../../src/runtime';
import { createWorker } from '../../src/worker';
import { faultsFromEnv } from '../../src/shared/faults';
import { testBundle } from './bundle';

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'test-worker');
  const runtime = await connectRuntime(config, logger, { dbName: process.env.TEST_DB_NAME });
  const worker = await createWorker({
    config,
    runtime,
    llm: createLlmClient(config, process.env.TEST_LLM_BASE_URL),
    logger,
    workflowBundle: testBundle(),
    maxCachedWorkflows: process.env.TEST_MAX_CACHED ? Number(process.env.TEST_MAX_CACHED) : undefined,
    faults: faultsFromEnv(process.env.TEST_FAULTS),
  });
  process.on('SIGTERM', () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
  });
  const running = worker.run();
  console.log('WORKER_READY');
  await running;
  await runtime.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
