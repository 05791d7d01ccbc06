/**
 * The LangGraph peer as a contender: bench/peer/peer.py in the project-local venv
 * (.local/peer-venv, made by bench/peer/setup.sh), driven over stdin/stdout. Its turns are
 * followed the way its clients would follow them: XREAD BLOCK on the turn's Redis stream.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import type { Redis } from 'ioredis';
import type { TurnTiming } from './scriptorium';

const ROOT = path.resolve(__dirname, '../..');

export interface PeerOptions {
  modelUrl: string;
  mongoUri: string;
  db: string;
  redisUrl: string;
  prefix: string;
  sqlite: string;
  /** JSON file with the system prompt and tools of each agent (from the recording turn). */
  prompts: string;
}

export class PeerContender {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }
  >();

  private constructor(
    private readonly proc: ChildProcess,
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    readline.createInterface({ input: proc.stdout! }).on('line', (line) => {
      let m: Record<string, unknown>;
      try {
        m = JSON.parse(line) as Record<string, unknown>;
      } catch {
        process.stderr.write(`peer: ${line}\n`);
        return;
      }
      const p = this.pending.get(m.id as number);
      if (!p) return;
      this.pending.delete(m.id as number);
      if (m.ok) p.resolve(m);
      else p.reject(new Error(`peer: ${String(m.error)}`));
    });
  }

  static async start(o: PeerOptions, redis: Redis): Promise<PeerContender> {
    execFileSync('bash', [path.join(ROOT, 'bench/peer/setup.sh')], { stdio: 'inherit' });
    const proc = spawn(
      path.join(ROOT, '.local/peer-venv/bin/python'),
      [path.join(ROOT, 'bench/peer/peer.py'), JSON.stringify(o)],
      {
        cwd: ROOT,
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve, reject) => {
      const rl = readline.createInterface({ input: proc.stdout! });
      rl.once('line', (l) => {
        rl.close();
        if (l.includes('ready')) resolve();
        else reject(new Error(`peer did not start: ${l}`));
      });
      proc.once('exit', (c) => reject(new Error(`peer exited with ${c}`)));
    });
    proc.removeAllListeners('exit');
    return new PeerContender(proc, redis, o.prefix);
  }

  private send(cmd: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.proc.stdin!.write(`${JSON.stringify({ ...cmd, id })}\n`);
    });
  }

  reset(): Promise<unknown> {
    return this.send({ cmd: 'reset' });
  }

  seed(projectId: string, threadId: string, chapters: number, turns: number): Promise<unknown> {
    return this.send({ cmd: 'seed', projectId, threadId, chapters, turns });
  }

  async stats(): Promise<{ cpuMs: number; mongo: number }> {
    const s = await this.send({ cmd: 'stats' });
    return { cpuMs: s.cpuMs as number, mongo: s.mongo as number };
  }

  /** One turn, from the command to `done` on its Redis stream. */
  async turn(turnId: string, projectId: string, threadId: string, message: string): Promise<TurnTiming> {
    const key = `${this.prefix}stream:${turnId}`;
    const reader = this.redis.duplicate();
    const start = performance.now();
    const finished = this.send({ cmd: 'turn', turnId, projectId, threadId, message });
    let firstToken = 0;
    let status = 'unknown';
    let cursor = '0-0';
    let events = 0;
    try {
      while (status === 'unknown') {
        const res = (await reader.xread('COUNT', 1000, 'BLOCK', 60_000, 'STREAMS', key, cursor)) as
          [string, [string, string[]][]][] | null;
        if (!res) throw new Error(`peer turn ${turnId}: no event for 60 s`);
        for (const [id, fields] of res[0]![1]) {
          cursor = id;
          events += 1;
          const e = JSON.parse(fields[1]!) as { type: string; data: { status?: string } };
          if (!firstToken && (e.type === 'content' || e.type === 'file_content')) firstToken = performance.now();
          if (e.type === 'done') status = e.data.status ?? 'completed';
        }
      }
      const end = performance.now();
      await finished;
      return { start, firstToken, end, status, events };
    } finally {
      reader.disconnect();
    }
  }

  async stop(): Promise<void> {
    this.proc.stdin!.end();
    await Promise.race([new Promise((r) => this.proc.once('exit', r)), new Promise((r) => setTimeout(r, 10_000))]);
    if (this.proc.exitCode === null) this.proc.kill('SIGKILL');
  }
}
