/**
 * SIGTERM on the API process (src/main.ts, as a real process): open SSE clients get a
 * `retry:` hint and a clean end of stream, so an EventSource reconnects with Last-Event-ID
 * (to another replica) instead of seeing the connection die; then the process exits 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  ROOT,
  waitTurn,
} from '../helpers/harness';
import { freePort } from '../helpers/prometheus';
import { router } from '../helpers/script';
import { readSse } from '../helpers/sse-client';
import { compareStreamIds } from '../../src/streams/redis-streams';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

function startApi(port: number): {
  child: ChildProcess;
  output: () => string;
  ready: Promise<void>;
  exited: Promise<number | null>;
} {
  const c = h.config;
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      SCRIPTORIUM_ENV_PRIORITY: 'none',
      OPENAI_API_KEY: '',
      LOG_LEVEL: 'info',
      PORT: String(port),
      RUN_WORKER_IN_PROCESS: 'false',
      MONGODB_URI: `mongodb://127.0.0.1:27017/${h.dbName}`,
      REDIS_URL: c.REDIS_URL,
      REDIS_KEY_PREFIX: c.REDIS_KEY_PREFIX,
      TEMPORAL_TASK_QUEUE: c.TEMPORAL_TASK_QUEUE,
      SSE_RETRY_MS: '1500',
      SHUTDOWN_GRACE_SECONDS: '10',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (out.includes('Scriptorium API:')) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
    child.once('exit', () => {
      clearInterval(timer);
      reject(new Error(`API exited before listening:\n${out}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, ready, exited };
}

test('SIGTERM closes open SSE clients with a retry hint, then the API exits 0', async () => {
  const port = await freePort();
  const proc = startApi(port);
  try {
    await proc.ready;
    const { sessionId } = await createProjectAndSession(h);
    // The writer streams a little and then stalls: the turn stays live while we shut down.
    h.model.script([
      router({ current_agent: 'writer', workflow_plan: 'quick' }),
      {
        match: { agent: 'writer' },
        reply: { content: 'Rain fell on the harbour all night long.' },
        stallAfterChars: 12,
      },
    ]);
    const apiUrl = `http://127.0.0.1:${port}`;
    const started = await api<{ turnId: string }>({ baseUrl: apiUrl }, 'POST', `/api/v1/sessions/${sessionId}/turns`, {
      message: 'Write an opening line',
    });
    expect(started.status).toBe(202);
    const turnId = started.body.turnId;

    let signalled = false;
    const sse = await readSse(`${apiUrl}/api/v1/turns/${turnId}/events`, {
      timeoutMs: 30000,
      onFrame: (f) => {
        if (f.event === 'content' && !signalled) {
          signalled = true;
          proc.child.kill('SIGTERM');
        }
      },
    });
    expect(signalled).toBe(true);
    // The server ended the stream (not our timeout), after a reconnect hint.
    expect(sse.ended).toBe(true);
    expect(sse.retry).toBe(1500);
    expect(sse.comments.some((c) => c.includes('server shutting down, reconnect with Last-Event-ID'))).toBe(true);
    expect(sse.frames.map((f) => f.event)).not.toContain('done');
    expect(await proc.exited).toBe(0);
    expect(proc.output()).toMatch(/"msg":"shutdown complete"/);

    // The client resumes on another replica right after its last event.
    const lastId = sse.frames.at(-1)!.id!;
    const resumed = await readSse(`${h.baseUrl}/api/v1/turns/${turnId}/events`, {
      headers: { 'last-event-id': lastId },
      timeoutMs: 1500,
    });
    expect(resumed.status).toBe(200);
    expect(resumed.frames.filter((f) => f.id).every((f) => compareStreamIds(f.id!, lastId) > 0)).toBe(true);

    expect((await api(h, 'POST', `/api/v1/turns/${turnId}/interrupt`, {})).status).toBe(202);
    expect((await waitTurn(h, turnId)).status).toBe('interrupted');
  } finally {
    if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
  }
});
