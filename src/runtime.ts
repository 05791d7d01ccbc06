/**
 * Connects a process to its services: MongoDB (mongoose), Redis (ioredis), Temporal
 * (client and, for workers, a native connection) and the model (openai). Shared by the
 * API entry, the worker entry, tests and benchmarks, so they all wire things the same way.
 */
import { Client, Connection, type ConnectionLike } from '@temporalio/client';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import type { Connection as MongoConnection } from 'mongoose';
import type { Logger } from 'pino';
import type { Config } from './config';
import { connectMongo } from './db/connection';
import { createModels, type Models, syncIndexes } from './db/models';
import { instrumentedFetch } from './observability/model-fetch';
import { activeTracing, temporalTracingPlugin } from './observability/tracing';

export interface Runtime {
  mongo: MongoConnection;
  models: Models;
  redis: Redis;
  /** The client's connection: its own, or the worker's NativeConnection when they share a process. */
  temporalConnection: ConnectionLike;
  temporal: Client;
  close(): Promise<void>;
}

export function createRedis(url: string): Redis {
  // Commands wait through a short Redis restart instead of failing at once.
  return new Redis(url, { maxRetriesPerRequest: 20, enableOfflineQueue: true, lazyConnect: false });
}

export interface RuntimeOptions {
  dbName?: string;
  /**
   * A worker's NativeConnection to run the client on, for a process that runs the API and
   * the worker together: the client can then start workflows eagerly (their first workflow
   * task goes straight to this worker, with no round trip through matching).
   */
  temporalConnection?: ConnectionLike;
}

export async function connectRuntime(config: Config, logger: Logger, opts: RuntimeOptions = {}): Promise<Runtime> {
  const mongo = await connectMongo(config.MONGODB_URI, opts.dbName);
  const models = createModels(mongo);
  await syncIndexes(models);
  const redis = createRedis(config.REDIS_URL);
  redis.on('error', (err) => logger.warn({ err }, 'redis connection error'));
  const temporalConnection =
    opts.temporalConnection ?? (await Connection.connect({ address: config.TEMPORAL_ADDRESS }));
  // While tracing is on, its plugin carries the API request's trace into the workflow it starts.
  const temporal = new Client({
    connection: temporalConnection,
    namespace: config.TEMPORAL_NAMESPACE,
    plugins: activeTracing() ? [temporalTracingPlugin()] : [],
  });
  return {
    mongo,
    models,
    redis,
    temporalConnection,
    temporal,
    async close() {
      await temporalConnection.close();
      redis.disconnect();
      await mongo.close();
    },
  };
}

/** The OpenAI client. Temporal owns retries, so the client never retries on its own. */
export function createLlmClient(config: Config, offlineBaseUrl?: string): OpenAI {
  return new OpenAI({
    apiKey: config.OPENAI_API_KEY ?? 'offline-model',
    baseURL: config.OPENAI_API_KEY ? config.OPENAI_BASE_URL : offlineBaseUrl,
    maxRetries: 0,
    timeout: config.LLM_STEP_TIMEOUT_SECONDS * 1000,
    // Spans, time to first token and error classes for every model call (observability/model-fetch.ts).
    fetch: instrumentedFetch(),
  });
}
