/** Spawns `api-process.ts` as a separate API replica sharing a harness's services. */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { type Harness, ROOT } from './harness';

export interface Replica {
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
  /** Resolves when the process has exited (e.g. killed itself at a fault point). */
  exited: Promise<void>;
}

export async function startReplica(h: Harness, env: Record<string, string> = {}): Promise<Replica> {
  const c = h.config;
  const child: ChildProcess = spawn(
    path.join(ROOT, 'node_modules/.bin/tsx'),
    [path.join(ROOT, 'tests/helpers/api-process.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        SCRIPTORIUM_ENV_PRIORITY: 'none',
        OPENAI_API_KEY: '',
        LOG_LEVEL: 'warn',
        MONGODB_URI: c.MONGODB_URI,
        REDIS_URL: c.REDIS_URL,
        REDIS_KEY_PREFIX: c.REDIS_KEY_PREFIX,
        TEMPORAL_ADDRESS: c.TEMPORAL_ADDRESS,
        TEMPORAL_TASK_QUEUE: c.TEMPORAL_TASK_QUEUE,
        API_TOKENS: c.API_TOKENS,
        STREAM_TOKEN_SECRET: c.STREAM_TOKEN_SECRET,
        SSE_KEEPALIVE_MS: String(c.SSE_KEEPALIVE_MS),
        SSE_RETRY_MS: String(c.SSE_RETRY_MS),
        // A turn started through this replica gets the same turn settings as through the harness.
        SUGGESTIONS_ENABLED: String(c.SUGGESTIONS_ENABLED),
        REVIEW_WORD_THRESHOLD: String(c.REVIEW_WORD_THRESHOLD),
        SCRIPTORIUM_TEST_DB: h.dbName,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`replica did not start in time: ${stderr}`)), 30000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`replica exited with ${code}: ${stderr}`));
    });
  });
  const exited = new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    exited,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
