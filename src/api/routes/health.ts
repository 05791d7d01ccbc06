import { Router } from 'express';
import type { AppDeps } from '../context';
import { buildIdOf, versioningMode } from '../../build-identity';

async function probe(
  fn: () => Promise<unknown>,
  timeoutMs = 2000,
): Promise<{ ok: boolean; latencyMs: number; error?: string }> {
  const start = Date.now();
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`timeout after ${timeoutMs} ms`)), timeoutMs).unref(),
      ),
    ]);
    return { ok: true, latencyMs: Date.now() - start };
  } catch (err) {
    return { ok: false, latencyMs: Date.now() - start, error: (err as Error).message };
  }
}

/** Reachability of Temporal, MongoDB and Redis, the auth mode, and config conflicts. Public. */
export function healthRouter(deps: AppDeps): Router {
  const r = Router();
  const auth = deps.config.meta.auth;
  r.get('/health', async (_req, res) => {
    const [temporal, mongodb, redis] = await Promise.all([
      probe(() => deps.temporal.workflowService.getSystemInfo({})),
      probe(async () => deps.models.Project.db.db!.admin().ping()),
      probe(() => deps.redis.ping()),
    ]);
    const ok = temporal.ok && mongodb.ok && redis.ok;
    res.status(ok ? 200 : 503).json({
      status: ok ? 'ok' : 'degraded',
      services: { temporal, mongodb, redis },
      model: deps.config.meta.offlineModel ? 'offline' : deps.config.OPENAI_MODEL,
      // The build this API was started from (a worker logs its own at start-up).
      build: {
        deployment: deps.config.WORKER_DEPLOYMENT_NAME,
        buildId: buildIdOf(deps.config),
        versioning: versioningMode(deps.config),
      },
      // What a deployment must check, never the secrets themselves.
      auth: {
        mode: auth.mode,
        users: new Set(auth.tokens.values()).size,
        streamTokenSecret: auth.defaultStreamSecret ? 'default' : 'custom',
        streamTokenTtlSeconds: deps.config.STREAM_TOKEN_TTL_SECONDS,
      },
      config: {
        envPriority: deps.config.meta.priority,
        dotenvFile: deps.config.meta.dotenvPath,
        conflicts: deps.config.meta.conflicts,
      },
    });
  });
  return r;
}
