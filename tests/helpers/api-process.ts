/**
 * A second API replica as a real process: the same `createApp`, its own MongoDB, Redis and
 * Temporal connections, listening on a free port. Configured by the environment the test
 * hands it (SCRIPTORIUM_ENV_PRIORITY=none) plus SCRIPTORIUM_TEST_DB for the suite's
 * database; prints `LISTENING <port>` once it serves.
 *
 *   npx tsx tests/helpers/api-process.ts
 */
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/api/app';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { connectRuntime } from '../../src/runtime';
import { faultsFromEnv } from '../../src/shared/faults';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'api-replica');
  const runtime = await connectRuntime(config, logger, { dbName: process.env.SCRIPTORIUM_TEST_DB });
  const app = createApp({
    config,
    models: runtime.models,
    redis: runtime.redis,
    temporal: runtime.temporal,
    logger,
    clock: () => new Date(),
    faults: faultsFromEnv(process.env.TEST_FAULTS),
  });
  const server = app.listen(0, '127.0.0.1', () => {
    process.stdout.write(`LISTENING ${(server.address() as AddressInfo).port}\n`);
  });
  const stop = (): void => {
    server.closeAllConnections();
    server.close();
    void runtime.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
