/**
 * Spawns tests/helpers/worker-main.ts as a real child process sharing the harness's
 * services and settings, so a test can SIGKILL it mid-activity and start another.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { Harness } from './harness';
import { ROOT } from './bundle';

export interface WorkerProcess {
  proc: ChildProcess;
  output: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export function workerEnv(h: Harness, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const c = h.config;
  return {
    ...process.env,
    SCRIPTORIUM_ENV_PRIORITY: 'none',
    OPENAI_API_KEY: '',
    LOG_LEVEL: 'warn',
    TEMPORAL_ADDRESS: c.TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: c.TEMPORAL_TASK_QUEUE,
    REDIS_KEY_PREFIX: c.REDIS_KEY_PREFIX,
    REDIS_URL: c.REDIS_URL,
    MONGODB_URI: c.MONGODB_URI,
    TEST_DB_NAME: h.dbName,
    TEST_LLM_BASE_URL: h.model.baseURL,
    STREAM_TTL_SECONDS: String(c.STREAM_TTL_SECONDS),
    ...extra,
  };
}

export async function spawnWorker(h: Harness, extra: Record<string, string> = {}): Promise<WorkerProcess> {
  // One process (tsx as a require hook, not the tsx CLI, which would fork a child that a
  // SIGKILL of the parent leaves running).
  const proc = spawn(process.execPath, ['--require', 'tsx/cjs', path.join(ROOT, 'tests/helpers/worker-main.ts')], {
    cwd: ROOT,
    env: workerEnv(h, extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Never leave a half-started worker polling the queue (it would keep jest alive).
      proc.kill('SIGKILL');
      reject(new Error(`worker did not start:\n${out}`));
      // A cold start (tsx, the workflow bundle) takes long on a busy machine.
    }, 60000);
    const check = (): void => {
      if (out.includes('WORKER_READY')) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout!.on('data', check);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${out}`));
    });
  });
  proc.removeAllListeners('exit');
  return {
    proc,
    output: () => out,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill(signal);
      await exited;
    },
  };
}
