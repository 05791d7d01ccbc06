/**
 * Private instances of the real services, on free ports with their own data, for tests
 * that stop and restart a service mid-turn without disturbing suites that share the
 * default ones. Binaries are the ones scripts/services.sh provisioned.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './bundle';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitPort(port: number, timeoutMs: number): Promise<void> {
  const start = Date.now();
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        // destroy, not end: a half-closed probe stays open until the service hangs up, which
        // Temporal and Redis never do on an idle connection.
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() - start > timeoutMs) throw new Error(`port ${port} did not open within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface PrivateService {
  port: number;
  url: string;
  start(): Promise<void>;
  /** SIGTERM (graceful: Redis flushes its AOF, Temporal closes its database). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  dir: string;
}

function service(
  name: string,
  port: number,
  url: string,
  dir: string,
  cmd: () => [string, string[]],
  ready: () => Promise<void>,
): PrivateService {
  let proc: ChildProcess | null = null;
  return {
    port,
    url,
    dir,
    async start() {
      const [bin, args] = cmd();
      const log = fs.openSync(path.join(dir, `${name}.log`), 'a');
      proc = spawn(bin, args, { stdio: ['ignore', log, log], cwd: dir });
      await ready();
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      const p = proc;
      if (!p || p.exitCode !== null || p.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => p.once('exit', () => resolve()));
      p.kill(signal);
      // The wait's timer is unref'd: it must not keep the test worker alive once the service has gone.
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10000).unref())]);
      if (p.exitCode === null && p.signalCode === null) {
        p.kill('SIGKILL');
        await exited;
      }
      proc = null;
    },
  };
}

const SEARCH_ATTRIBUTES = [
  'ProjectId=Keyword',
  'SessionId=Keyword',
  'WorkflowPlan=Keyword',
  'CurrentAgent=Keyword',
  'TurnStatus=Keyword',
  'JobStatus=Keyword',
  'Chapter=Int',
];

export async function privateTemporal(): Promise<PrivateService> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-temporal-'));
  const bin = path.join(ROOT, '.local/bin/temporal');
  return service(
    'temporal',
    port,
    `127.0.0.1:${port}`,
    dir,
    () => [
      bin,
      [
        'server',
        'start-dev',
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
        '--headless',
        '--db-filename',
        path.join(dir, 'temporal.db'),
        '--log-level',
        'error',
        ...SEARCH_ATTRIBUTES.flatMap((a) => ['--search-attribute', a]),
      ],
    ],
    async () => {
      await waitPort(port, 60000);
      // The namespace answers a moment after the port opens.
      for (let i = 0; i < 100; i++) {
        const ok = await new Promise<boolean>((resolve) => {
          const p = spawn(
            bin,
            ['operator', 'namespace', 'describe', '--address', `127.0.0.1:${port}`, '-n', 'default'],
            { stdio: 'ignore' },
          );
          p.on('exit', (code) => resolve(code === 0));
        });
        if (ok) return;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error('private Temporal namespace never became ready');
    },
  );
}

export async function privateRedis(): Promise<PrivateService> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-redis-'));
  return service(
    'redis',
    port,
    `redis://127.0.0.1:${port}`,
    dir,
    () => [
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'everysec',
        '--save',
        '',
      ],
    ],
    () => waitPort(port, 20000),
  );
}

export async function privateFerret(): Promise<PrivateService> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-ferret-'));
  return service(
    'ferretdb',
    port,
    `mongodb://127.0.0.1:${port}/scriptorium`,
    dir,
    () => [
      path.join(ROOT, '.local/bin/ferretdb'),
      [
        '--handler=sqlite',
        '--debug-addr=127.0.0.1:0',
        `--sqlite-url=file:${dir}/`,
        `--state-dir=${dir}`,
        `--listen-addr=127.0.0.1:${port}`,
        '--telemetry=disable',
        '--log-level=error',
      ],
    ],
    () => waitPort(port, 20000),
  );
}
