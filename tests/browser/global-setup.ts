/**
 * Starts the real stack for the browser run (tests/browser/stack-main.ts in its own process:
 * API serving the built Studio, Temporal worker, offline model; test namespace, Redis
 * database 15, a MongoDB database dropped at the end; bearer tokens on) and stops it after the run.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export default async function globalSetup(): Promise<() => Promise<void>> {
  const started = Date.now();
  // Bearer tokens on, as a deployment runs: the author signs in, and streams open only with
  // the stream tokens the API mints (EventSource sends no headers). A second user checks
  // that one author never sees another's projects.
  const token = randomBytes(18).toString('hex');
  const otherToken = randomBytes(18).toString('hex');
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', path.join(ROOT, 'tests/browser/stack-main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      API_TOKENS: `${token}:author,${otherToken}:other`,
      STREAM_TOKEN_SECRET: randomBytes(24).toString('hex'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ports = await new Promise<[string, string]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the stack did not start in 120 s:\n${out}`)), 120_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /STACK_READY (\d+) (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve([m[1]!, m[2]!]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`the stack exited with ${code}:\n${out}`)));
  });
  child.removeAllListeners('exit');
  // The stack's own warnings still show in the run's output.
  child.stdout!.on('data', (d: Buffer) => process.stdout.write(`[stack] ${d}`));
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(`[stack] ${d}`));
  process.env.STUDIO_URL = `http://127.0.0.1:${ports[0]}`;
  process.env.STUDIO_CONTROL = `http://127.0.0.1:${ports[1]}`;
  process.env.STUDIO_TOKEN = token;
  process.env.STUDIO_OTHER_TOKEN = otherToken;
  console.log(
    `[browser] stack up in ${((Date.now() - started) / 1000).toFixed(1)} s at ${process.env.STUDIO_URL}/studio/`,
  );
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
}
