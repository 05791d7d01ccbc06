import type { Redis } from 'ioredis';
import type OpenAI from 'openai';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Models } from '../db/models';
import type { FaultInjector } from '../shared/faults';
import type { WorkerCaches } from './worker-caches';

/**
 * Everything activities touch, injected by the worker (samples-typescript
 * `activities-dependency-injection`): tests pass real services without module mocking.
 */
export interface ActivityDeps {
  models: Models;
  redis: Redis;
  llm: OpenAI;
  config: Config;
  logger: Logger;
  clock: () => Date;
  /**
   * This worker's caches (worker-caches.ts), made by createActivities and shared by every
   * activity it builds, so what one activity starts or keeps (prepareTurn's early reads, a
   * step's stored context) the next one in the same worker finds.
   */
  caches: WorkerCaches;
  /** Crash points for fault tests; absent in production. */
  faults?: FaultInjector;
}
