import type { Redis } from 'ioredis';
import type OpenAI from 'openai';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Models } from '../db/models';
import type { FaultInjector } from '../shared/faults';

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
  /** Crash points for fault tests; absent in production. */
  faults?: FaultInjector;
}
