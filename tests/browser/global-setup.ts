/**
 * Starts the real stack for the browser run (tests/browser/stack-main.ts in its own process:
 * API serving the built Studio, Temporal worker, offline model; test namespace, Redis
 * database 15, a MongoDB database dropped at the end) and stops it after the run.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export default async function globalSetup(): Promise<() => Promise<void>> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', path.join(ROOT, 'tests/browser/stack-main.ts')], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
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
  console.log(`[browser] stack up in ${((Date.now() - started) / 1000).toFixed(1)} s at ${process.env.STUDIO_URL}/studio/`);
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
}
