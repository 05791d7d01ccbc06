/**
 * Scriptorium as a contender: an API process and a worker process (bench/turn-kit/child.ts)
 * on the shared services, a database / Redis prefix / task queue of the bench's own, and
 * turns driven the way an author's client drives them — POST the turn, follow its SSE.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { Config } from '../../src/config';
import type { Models } from '../../src/db/models';
import { readSse } from '../../tests/helpers/sse-client';
import type { ChildStats } from './child';
import { SERVICE_NODE_FLAGS } from '../../src/service-flags';

const ROOT = path.resolve(__dirname, '../..');

/** Times of one turn as its client saw them (performance.now()). */
export interface TurnTiming {
  start: number;
  /** When the API answered the POST (the turn recorded and its workflow started). */
  accepted?: number;
  firstToken: number;
  end: number;
  status: string;
  turnId?: string;
  /** Stream events the client received (token batching shows here). */
  events?: number;
}

interface Child {
  proc: ChildProcess;
  port?: number;
  stats(): Promise<ChildStats>;
  /** Sends `type` and waits for the answer `reply`. */
  ask(msg: { type: string; file?: string }, reply: string): Promise<void>;
  stop(): Promise<void>;
}

async function spawnChild(role: 'api' | 'worker', env: NodeJS.ProcessEnv): Promise<Child> {
  const proc = spawn(
    process.execPath,
    [
      ...SERVICE_NODE_FLAGS,
      ...(process.env.BENCH_EXTRA_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      '--require',
      'tsx/cjs',
      path.join(ROOT, 'bench/turn-kit/child.ts'),
      role,
    ],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const ready = await new Promise<{ port?: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${role} did not start in 120 s`)), 120_000);
    proc.on('message', (m: { type: string; port?: number }) => {
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve(m);
      }
    });
    proc.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
  proc.removeAllListeners('exit');
  let waiting: ((s: ChildStats) => void)[] = [];
  proc.on('message', (m: { type: string; stats?: ChildStats }) => {
    if (m.type !== 'stats') return;
    const w = waiting;
    waiting = [];
    for (const fn of w) fn(m.stats!);
  });
  return {
    proc,
    port: ready.port,
    stats: () =>
      new Promise((resolve) => {
        waiting.push(resolve);
        proc.send({ type: 'stats' });
      }),
    ask: (msg, reply) =>
      new Promise((resolve) => {
        const on = (m: { type: string }): void => {
          if (m.type !== reply) return;
          proc.off('message', on);
          resolve();
        };
        proc.on('message', on);
        proc.send(msg);
      }),
    stop: async () => {
      if (proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
      if (proc.exitCode === null) proc.kill('SIGKILL');
    },
  };
}

export interface ScriptoriumOptions {
  config: Config;
  dbName: string;
  modelUrl: string;
  bundleFile: string;
  /** JSON of src/worker.ts `WorkerTuning`, handed to the worker. */
  workerTuning?: string;
}

export class ScriptoriumContender {
  private constructor(
    private readonly api: Child,
    private readonly worker: Child,
    readonly base: string,
  ) {}

  /** The API's and the worker's process ids, for the machine's CPU by process (machine-cpu.ts). */
  pids(): Record<string, number> {
    const out: Record<string, number> = {};
    if (this.api.proc.pid) out.API = this.api.proc.pid;
    if (this.worker.proc.pid) out.worker = this.worker.proc.pid;
    return out;
  }

  static async start(o: ScriptoriumOptions): Promise<ScriptoriumContender> {
    const c = o.config;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SCRIPTORIUM_ENV_PRIORITY: 'none',
      OPENAI_API_KEY: '',
      LOG_LEVEL: 'warn',
      // The peer makes the turn's eight model calls and no more: next-step suggestions (a ninth
      // call after the turn's work) are off, so both contenders do the same work.
      SUGGESTIONS_ENABLED: 'false',
      TEMPORAL_ADDRESS: c.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: c.TEMPORAL_TASK_QUEUE,
      REDIS_KEY_PREFIX: c.REDIS_KEY_PREFIX,
      REDIS_URL: c.REDIS_URL,
      // No command monitoring: the children count their commands on the driver's connection (child.ts).
      MONGODB_URI: c.MONGODB_URI,
      BENCH_DB: o.dbName,
      BENCH_LLM_BASE_URL: o.modelUrl,
      BENCH_BUNDLE: o.bundleFile,
      ...(o.workerTuning ? { BENCH_WORKER_TUNING: o.workerTuning } : {}),
    };
    const [api, worker] = await Promise.all([spawnChild('api', env), spawnChild('worker', env)]);
    return new ScriptoriumContender(api, worker, `http://127.0.0.1:${api.port}/api/v1`);
  }

  async post<T>(p: string, body: unknown): Promise<T> {
    const res = await fetch(`${this.base}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  /** A project and a session to run turns in. */
  async newSession(projectId?: string): Promise<{ projectId: string; sessionId: string }> {
    const pid = projectId ?? (await this.post<{ id: string }>('/projects', { title: 'Bench', type: 'novel' })).id;
    const s = await this.post<{ id: string }>('/sessions', { projectId: pid });
    return { projectId: pid, sessionId: s.id };
  }

  /** One turn, from POST to `done` on its SSE stream. */
  async turn(sessionId: string, message: string): Promise<TurnTiming> {
    const start = performance.now();
    const { streamUrl, turnId } = await this.post<{ streamUrl: string; turnId: string }>(
      `/sessions/${sessionId}/turns`,
      { message },
    );
    const accepted = performance.now();
    let firstToken = 0;
    let status = 'unknown';
    let events = 0;
    const url = new URL(streamUrl, this.base).toString();
    const r = await readSse(url, {
      timeoutMs: 600_000,
      onFrame: (f) => {
        events += 1;
        if (!firstToken && (f.event === 'content' || f.event === 'file_content')) firstToken = performance.now();
        if (f.event === 'done') status = (JSON.parse(f.data) as { data: { status: string } }).data.status;
      },
    });
    if (r.status !== 200) throw new Error(`SSE answered ${r.status}`);
    return { start, accepted, firstToken, end: performance.now(), status, turnId, events };
  }

  /** CPU and MongoDB counters of both processes, summed, plus the worker's activity figures. */
  async stats(): Promise<{
    cpuMs: number;
    apiCpuMs: number;
    workerCpuMs: number;
    mongo: number;
    mongoBy: Record<string, number>;
    mongoMsBy: Record<string, number>;
    activities: ChildStats['activities'];
  }> {
    const [a, w] = await Promise.all([this.api.stats(), this.worker.stats()]);
    const sum = (x: Record<string, number>, y: Record<string, number>): Record<string, number> => {
      const out = { ...x };
      for (const [k, v] of Object.entries(y)) out[k] = (out[k] ?? 0) + v;
      return out;
    };
    return {
      cpuMs: a.cpuMs + w.cpuMs,
      apiCpuMs: a.cpuMs,
      workerCpuMs: w.cpuMs,
      mongo: a.mongo + w.mongo,
      mongoBy: sum(a.mongoBy, w.mongoBy),
      mongoMsBy: sum(a.mongoMsBy, w.mongoMsBy),
      activities: w.activities,
    };
  }

  /** Profiles the worker's and the API's main threads while `fn` runs; writes `<prefix>.worker.cpuprofile` and `<prefix>.api.cpuprofile`. */
  async profile<T>(prefix: string, fn: () => Promise<T>): Promise<T> {
    const both = [
      ['worker', this.worker],
      ['api', this.api],
    ] as const;
    await Promise.all(both.map(([, c]) => c.ask({ type: 'profile-start' }, 'profile-started')));
    try {
      return await fn();
    } finally {
      await Promise.all(
        both.map(([role, c]) =>
          c.ask({ type: 'profile-stop', file: `${prefix}.${role}.cpuprofile` }, 'profile-stopped'),
        ),
      );
    }
  }

  /** Empties every collection of the bench database ("fresh data"). */
  static async emptyDatabase(models: Models): Promise<void> {
    await Promise.all(
      Object.values(models).map((m) => (m as unknown as { deleteMany(f: object): Promise<unknown> }).deleteMany({})),
    );
  }

  async stop(): Promise<void> {
    await Promise.all([this.api.stop(), this.worker.stop()]);
  }
}
