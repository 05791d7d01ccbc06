/**
 * Runs a real entry point (src/main.ts by default) as an operator would and collects what it
 * printed, its exit code and whether it ever listened on its port.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(port, '127.0.0.1', () => {
      c.destroy();
      resolve(true);
    });
    c.on('error', () => resolve(false));
  });
}

export interface EntryRun {
  code: number | null;
  output: string;
  port: number;
  listened: boolean;
}

/**
 * Runs `entry` (relative to the repo) with `env` and `args`; resolves with its exit code and
 * output (killed after 60 s). `port`: the PORT it is given (a free one unless set).
 */
export async function runEntry(
  env: Record<string, string>,
  opts: { entry?: string; args?: string[]; port?: number } = {},
): Promise<EntryRun> {
  const port = opts.port ?? (await freePort());
  const child = spawn(
    process.execPath,
    ['--require', 'tsx/cjs', path.join(ROOT, opts.entry ?? 'src/main.ts'), ...(opts.args ?? [])],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        SCRIPTORIUM_ENV_PRIORITY: 'none',
        LOG_LEVEL: 'warn',
        HOST: '0.0.0.0',
        PORT: String(port),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  let listened = false;
  const poll =
    opts.port === undefined ? setInterval(() => void listening(port).then((l) => (listened ||= l)), 100) : null;
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  if (poll) clearInterval(poll);
  clearTimeout(timer);
  return { code, output, port, listened };
}
