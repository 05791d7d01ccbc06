/**
 * A Scriptorium process for `bench:turn`: the API (`api`) or the worker (`worker`), wired
 * exactly like production (src/api/app.ts, src/worker.ts) and configured by environment,
 * plus what the bench reads over IPC: own CPU time, MongoDB commands (driver command
 * monitoring, by command and collection) and, in the worker, the time and commands of
 * each activity type.
 *
 *   node --require tsx/cjs bench/turn-kit/child.ts api|worker   (spawned by bench/turn.ts)
 *   BENCH_MONGO_TRACE=1 writes each command to stderr (process, time, activity, command,
 *   collection, filter) and each activity's start and end: the sequence of a turn's commands,
 *   to see which its opening waits on.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { DefaultLogger, Runtime, type ActivityInboundCallsInterceptor } from '@temporalio/worker';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import fs from 'node:fs';
import { createApp } from '../../src/api/app';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { connectRuntime, createLlmClient } from '../../src/runtime';
import { createWorker, type WorkerTuning } from '../../src/worker';

export interface ChildStats {
  cpuMs: number;
  mongo: number;
  /** `command collection` → count. */
  mongoBy: Record<string, number>;
  /** `command collection` → total milliseconds (the server's answer time as the driver saw it). */
  mongoMsBy: Record<string, number>;
  /** Activity type → {calls, ms, mongo}. */
  activities: Record<string, { calls: number; ms: number; mongo: number }>;
}

const stats: ChildStats = { cpuMs: 0, mongo: 0, mongoBy: {}, mongoMsBy: {}, activities: {} };
const current = new AsyncLocalStorage<string>();

function activityStats(name: string): ChildStats['activities'][string] {
  return (stats.activities[name] ??= { calls: 0, ms: 0, mongo: 0 });
}

/** Times each activity and attributes the MongoDB commands issued inside it. */
class Timing implements ActivityInboundCallsInterceptor {
  constructor(private readonly type: string) {}
  async execute(
    input: Parameters<NonNullable<ActivityInboundCallsInterceptor['execute']>>[0],
    next: Parameters<NonNullable<ActivityInboundCallsInterceptor['execute']>>[1],
  ): Promise<unknown> {
    const t0 = performance.now();
    if (TRACE)
      process.stderr.write(
        `activity ${process.argv[2]} ${(performance.timeOrigin + performance.now()).toFixed(1)} start ${this.type}\n`,
      );
    try {
      return await current.run(this.type, () => next(input));
    } finally {
      if (TRACE)
        process.stderr.write(
          `activity ${process.argv[2]} ${(performance.timeOrigin + performance.now()).toFixed(1)} end ${this.type}\n`,
        );
      const s = activityStats(this.type);
      s.calls += 1;
      s.ms += performance.now() - t0;
    }
  }
}

/** The driver's connection class (not part of its public API; this bench pins the driver through package-lock). */
interface DriverConnection {
  prototype: {
    command(this: unknown, ns: unknown, cmd: Record<string, unknown>, ...rest: unknown[]): Promise<unknown>;
  };
}

/** Handshakes and the driver's own monitoring, not the engine's work. */
const DRIVER_COMMANDS = new Set(['hello', 'ismaster', 'isMaster', 'endSessions', 'saslStart', 'saslContinue', 'ping']);

/**
 * Counts and times the process's MongoDB commands (by command and collection, and per
 * activity) by wrapping the driver's connection. Command monitoring (`monitorCommands`) would
 * tell the same, but it deserializes every reply a second time and builds two event objects
 * per command, work production never does that the benchmark then measured as the engine's:
 * under 50 concurrent turns the worker's CPU per turn was 244–256 ms with it, 235–245 ms with
 * this count, 226–235 ms with no count at all. bench:job counts on the server instead.
 */
const TRACE = Boolean(process.env.BENCH_MONGO_TRACE);

function countMongoCommands(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Connection } = require('mongodb/lib/cmap/connection') as { Connection: DriverConnection };
  const command = Connection.prototype.command;
  Connection.prototype.command = async function (
    this: unknown,
    ns: unknown,
    cmd: Record<string, unknown>,
    ...rest: unknown[]
  ): Promise<unknown> {
    const name = Object.keys(cmd)[0] ?? '';
    if (DRIVER_COMMANDS.has(name)) return command.call(this, ns, cmd, ...rest);
    const coll = cmd[name];
    const key = `${name} ${typeof coll === 'string' ? coll : ''}`.trim();
    stats.mongo += 1;
    stats.mongoBy[key] = (stats.mongoBy[key] ?? 0) + 1;
    const activity = current.getStore();
    if (activity) activityStats(activity).mongo += 1;
    const started = performance.now();
    if (TRACE)
      process.stderr.write(
        `mongo ${process.argv[2]} ${(performance.timeOrigin + performance.now()).toFixed(1)} ${activity ?? '-'} ${key} ${JSON.stringify(cmd.filter ?? cmd.updates ?? '').slice(0, 100)}\n`,
      );
    try {
      return await command.call(this, ns, cmd, ...rest);
    } finally {
      stats.mongoMsBy[key] = (stats.mongoMsBy[key] ?? 0) + performance.now() - started;
    }
  };
}

async function main(): Promise<void> {
  const role = process.argv[2];
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, `bench-${role}`);
  countMongoCommands();
  const runtime = await connectRuntime(config, logger, { dbName: process.env.BENCH_DB });
  // The V8 profiler over a window the bench chooses (what `node --cpu-prof` records, minus
  // start-up and module loading): main thread only; the workflow thread idles (bench notes).
  let profiler: Session | null = null;
  process.on('message', (m: { type: string; file?: string }) => {
    if (m.type === 'stats') {
      const u = process.cpuUsage();
      process.send!({ type: 'stats', stats: { ...stats, cpuMs: (u.user + u.system) / 1000 } });
    } else if (m.type === 'profile-start') {
      profiler = new Session();
      profiler.connect();
      void profiler
        .post('Profiler.enable')
        .then(() => profiler!.post('Profiler.start'))
        .then(() => process.send!({ type: 'profile-started' }));
    } else if (m.type === 'profile-stop' && profiler) {
      void profiler.post('Profiler.stop').then(({ profile }) => {
        fs.writeFileSync(m.file!, JSON.stringify(profile));
        profiler!.disconnect();
        profiler = null;
        process.send!({ type: 'profile-stopped' });
      });
    }
  });

  if (role === 'api') {
    const app = createApp({
      config,
      models: runtime.models,
      redis: runtime.redis,
      temporal: runtime.temporal,
      logger,
      clock: () => new Date(),
    });
    const server = app.listen(0, '127.0.0.1', () =>
      process.send!({ type: 'ready', port: (server.address() as AddressInfo).port }),
    );
    process.once('SIGTERM', () => {
      server.closeAllConnections();
      server.close();
      void runtime.close().finally(() => process.exit(0));
    });
    return;
  }
  const worker = await createWorker({
    config,
    runtime,
    llm: createLlmClient(config, process.env.BENCH_LLM_BASE_URL),
    logger,
    workflowBundle: { code: fs.readFileSync(process.env.BENCH_BUNDLE!, 'utf8') } as WorkflowBundleWithSourceMap,
    interceptors: { activity: [(ctx) => ({ inbound: new Timing(ctx.info.activityType) })] },
    tuning: process.env.BENCH_WORKER_TUNING ? (JSON.parse(process.env.BENCH_WORKER_TUNING) as WorkerTuning) : undefined,
  });
  process.once('SIGTERM', () => worker.shutdown());
  const running = worker.run();
  process.send!({ type: 'ready' });
  await running;
  await runtime.close();
  // Exit explicitly: --cpu-prof writes its profile on exit, and stray handles must not keep us.
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
