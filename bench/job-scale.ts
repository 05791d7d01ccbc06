/**
 * `bench:job --concurrent N`: N jobs in N projects at once on one worker,
 * against one job alone on the same worker. Prints completions, total wall against the lone
 * job's, time to first token (p50/p95, at the model's server), the worker's CPU and peak RSS,
 * and MongoDB and Redis commands per chapter (server-side counters: every process's).
 */
import type { Redis } from 'ioredis';
import type { Db } from 'mongodb';
import type { JobResult } from '../src/core/job/job-messages';
import { processCpuMs } from './turn-kit/machine-cpu';

export interface ScaleDeps {
  post: <T>(path: string, body: unknown) => Promise<T>;
  result: (workflowId: string) => Promise<JobResult>;
  redis: Redis;
  adminDb: Db;
  workerPid: number;
  /** Time to first token of each model request since the last reset, in ms. */
  ttfts: number[];
  peakRss: () => number;
}

interface Counters {
  cpuMs: number;
  mongo: number;
  redis: number;
}

const BOOKKEEPING = new Set(['hello', 'ping', 'serverStatus', 'endSessions', 'isMaster', 'ismaster', 'buildInfo']);

async function counters(d: ScaleDeps): Promise<Counters> {
  const status = (await d.adminDb.command({ serverStatus: 1 })) as {
    metrics?: { commands?: Record<string, { total?: number }> };
  };
  const mongo = Object.entries(status.metrics?.commands ?? {}).reduce(
    (n, [name, c]) => n + (BOOKKEEPING.has(name) ? 0 : Number(c.total ?? 0)),
    0,
  );
  const info = await d.redis.info('stats');
  const redis = Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? 0);
  return { cpuMs: processCpuMs(d.workerPid) ?? NaN, mongo, redis };
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};

interface Round {
  wall: number;
  results: JobResult[];
  ttfts: number[];
  used: Counters;
}

async function round(d: ScaleDeps, n: number, body: Record<string, unknown>): Promise<Round> {
  const projects = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      d.post<{ id: string }>('/projects', { title: `Scale ${i + 1}`, type: 'novel' }),
    ),
  );
  d.ttfts.length = 0;
  const before = await counters(d);
  const t0 = performance.now();
  const started = await Promise.all(
    projects.map((p) => d.post<{ workflowId: string }>('/jobs', { ...body, projectId: p.id })),
  );
  const results = await Promise.all(started.map((s) => d.result(s.workflowId)));
  const wall = performance.now() - t0;
  const after = await counters(d);
  return {
    wall,
    results,
    ttfts: [...d.ttfts],
    used: { cpuMs: after.cpuMs - before.cpuMs, mongo: after.mongo - before.mongo, redis: after.redis - before.redis },
  };
}

export async function scaleBench(d: ScaleDeps, concurrent: number, body: Record<string, unknown>): Promise<void> {
  const chapters = (body.chapters as { from: number; to: number }).to;
  const lone = await round(d, 1, body);
  console.log(`one job alone: ${(lone.wall / 1000).toFixed(1)} s`);
  const many = await round(d, concurrent, body);
  const done = many.results.filter((r) => r.status === 'completed').length;
  const perChapter = (r: Round, k: keyof Counters) =>
    (
      r.used[k] /
      Math.max(
        1,
        r.results.reduce((n, x) => n + x.chaptersDone, 0),
      )
    ).toFixed(0);
  const rows: [string, string, string][] = [
    ['', 'one job alone', `${concurrent} jobs at once`],
    ['completed', `${lone.results.filter((r) => r.status === 'completed').length}/1`, `${done}/${concurrent}`],
    [
      'chapters written',
      String(lone.results[0]!.chaptersDone),
      String(many.results.reduce((n, r) => n + r.chaptersDone, 0)),
    ],
    [
      'total wall',
      `${(lone.wall / 1000).toFixed(1)} s`,
      `${(many.wall / 1000).toFixed(1)} s = ${(many.wall / lone.wall).toFixed(2)}× one alone`,
    ],
    [
      'time to first token p50 / p95',
      `${pct(lone.ttfts, 50).toFixed(0)} / ${pct(lone.ttfts, 95).toFixed(0)} ms`,
      `${pct(many.ttfts, 50).toFixed(0)} / ${pct(many.ttfts, 95).toFixed(0)} ms`,
    ],
    [
      'worker CPU',
      `${(lone.used.cpuMs / 1000).toFixed(1)} s`,
      `${(many.used.cpuMs / 1000).toFixed(1)} s (${((100 * many.used.cpuMs) / many.wall).toFixed(0)} % of one core)`,
    ],
    ['worker peak RSS (whole run)', '', `${(d.peakRss() / 1024 / 1024).toFixed(0)} MB`],
    ['MongoDB commands per chapter', perChapter(lone, 'mongo'), perChapter(many, 'mongo')],
    ['Redis commands per chapter', perChapter(lone, 'redis'), perChapter(many, 'redis')],
  ];
  console.log(`\n${concurrent} concurrent ${chapters}-chapter jobs in ${concurrent} projects on one worker\n`);
  console.log(`| ${rows[0]!.join(' | ')} |\n|---|---|---|`);
  for (const r of rows.slice(1)) console.log(`| ${r.join(' | ')} |`);
}
