import type { Client } from '@temporalio/client';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Models } from '../db/models';
import type { FaultInjector } from '../shared/faults';

/** What routes may use. The API never calls the model or writes agent output itself. */
export interface AppDeps {
  config: Config;
  models: Models;
  redis: Redis;
  temporal: Client;
  logger: Logger;
  clock: () => Date;
  /** Crash points for fault tests; absent in production. */
  faults?: FaultInjector;
  /**
   * Start workflows eagerly: only when `temporal` runs on the NativeConnection of a worker in
   * this process on the same task queue (src/main.ts with RUN_WORKER_IN_PROCESS).
   */
  eagerStart?: boolean;
}
