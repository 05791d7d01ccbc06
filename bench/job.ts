/**
 * Benchmark: one multi-chapter job at realistic model timing, on the real local services.
 *
 *   npx tsx bench/job.ts [--chapters 50] [--tps 80] [--ttft 300] [--words 1000] [--per-run 10] [--review]
 *   npx tsx bench/job.ts --concurrent 20 --chapters 5     (N jobs at once: bench/job-scale.ts)
 *
 * The worker runs in its own process (so its RSS is its own); the API and the offline
 * model run here, the model timed at its own server (turn-kit/model.ts). Figures:
 * - wall time of the job (POST to result) against the time the worker spent waiting on the
 *   model (the union of all model requests, measured at the model's server): the difference is
 *   orchestration overhead — Temporal round trips, MongoDB, Redis, context assembly;
 * - worker RSS (sampled, and its peak);
 * - history events and bytes per workflow run of the job;
 * - the share of each prompt a provider's prefix cache can serve (bench/cache-share.ts).
 * A one-chapter job runs first, untimed, so the measured job runs on a warm worker.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions } from '../src/bundling';
import { createApp } from '../src/api/app';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startOfflineModel } from '../src/offline-model';
import { connectRuntime } from '../src/runtime';
import type { JobResult } from '../src/core/job/job-messages';
import { cacheShares, formatShare } from './cache-share';
import { scaleBench } from './job-scale';
import { machineSpeedLine, processMemory, temporalStateLine } from './turn-kit/machine-cpu';
import { timeRequests, union } from './turn-kit/model';
import { SERVICE_NODE_FLAGS } from '../src/service-flags';

const ROOT = path.resolve(__dirname, '..');

function flag(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : def;
  if (!Number.isFinite(v) || v <= 0)
    throw new Error(`--${name} must be a positive number (use --ttft 1 for an instant model)`);
  return v;
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const chapters = flag('chapters', 50);
  const tps = flag('tps', 80);
  const ttft = flag('ttft', 300);
  const words = process.argv.includes('--words') ? flag('words', 1000) : null;
  const perRun = flag('per-run', 10);
  // The quality reviewer reads each chapter (the job's review gate).
  const review = process.argv.includes('--review');
  const concurrent = process.argv.includes('--concurrent') ? flag('concurrent', 1) : 1;
  const name = `bench_${Date.now().toString(36)}`;
  const env = {
    ...process.env,
    SCRIPTORIUM_ENV_PRIORITY: 'none',
    OPENAI_API_KEY: '',
    LOG_LEVEL: 'warn',
    TEMPORAL_TASK_QUEUE: `bench-${name}`,
    REDIS_KEY_PREFIX: `bench:${name}:`,
    JOB_CHAPTERS_PER_RUN: String(perRun),
    // One user starting 20 jobs at once: the spend limits are not what is measured.
    RATE_LIMIT_JOBS: '0',
    RATE_LIMIT_TURNS: '0',
  };
  const config = loadConfig({ env });
  const logger = createLogger('warn', 'bench');
  const runtime = await connectRuntime(config, logger, { dbName: name });
  const model = await startOfflineModel({ ttftMs: ttft, tokensPerSecond: tps });
  const times = timeRequests(model);

  console.log(machineSpeedLine('at the start'));
  const temporalState = temporalStateLine(ROOT);
  if (temporalState) console.log(temporalState);
  console.log('bundling workflows…');
  const bundleFile = path.join(ROOT, '.local', `${name}-bundle.js`);
  const { code } = await bundleWorkflowCode({
    ...workflowBundleOptions(false),
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } as never,
  });
  fs.mkdirSync(path.dirname(bundleFile), { recursive: true });
  fs.writeFileSync(bundleFile, code);

  // tsx as a require hook keeps the worker one process, so its RSS is the worker's own.
  const worker = spawn(
    process.execPath,
    [...SERVICE_NODE_FLAGS, '--require', 'tsx/cjs', path.join(ROOT, 'tests/helpers/worker-main.ts')],
    {
      cwd: ROOT,
      env: { ...env, TEST_DB_NAME: name, TEST_LLM_BASE_URL: model.baseURL, SCRIPTORIUM_TEST_BUNDLE: bundleFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    worker.stdout!.on('data', (d: Buffer) => d.toString().includes('WORKER_READY') && resolve());
    worker.on('exit', (c) => reject(new Error(`worker exited with ${c}`)));
  });

  const app = createApp({
    config,
    models: runtime.models,
    redis: runtime.redis,
    temporal: runtime.temporal,
    logger,
    clock: () => new Date(),
  });
  const server = await new Promise<http.Server>((r) => {
    const srv = app.listen(0, '127.0.0.1', () => r(srv));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  const post = async <T>(p: string, body: unknown): Promise<T> => {
    const res = await fetch(`${base}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };

  const rss: number[] = [];
  const sampler = setInterval(() => {
    const r = processMemory(worker.pid!);
    if (r) rss.push(r.rss);
  }, 500);

  // Untimed warm-up, as bench:turn's recording turn is: a long-lived worker has evaluated its
  // workflow bundle and opened its connections, a fresh one pays that on its first job and its
  // first turn (the job's first workflow task took ~230 ms against ~10 ms later on). One
  // one-chapter job in another project, at instant model timing, takes that cost here.
  model.setTiming({ ttftMs: 0, tokensPerSecond: 1e6 });
  const warmProject = await post<{ id: string }>('/projects', { title: 'Warm-up', type: 'novel' });
  const tw = performance.now();
  const warm = await post<{ workflowId: string }>('/jobs', {
    projectId: warmProject.id,
    chapters: { from: 1, to: 1 },
    wordsPerChapter: 200,
  });
  await runtime.temporal.workflow.getHandle(warm.workflowId).result();
  console.log(
    `warm-up (untimed): a one-chapter job at instant model timing on the fresh worker, ${s(performance.now() - tw)}`,
  );
  model.setTiming({ ttftMs: ttft, tokensPerSecond: tps });
  times.spans.length = 0;

  const jobBody = {
    chapters: { from: 1, to: chapters },
    ...(words ? { wordsPerChapter: words } : {}),
    ...(review ? { review: true } : {}),
  };
  // Everything the bench started, stopped; its database and bundle removed.
  const cleanup = async (): Promise<void> => {
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
    server.close();
    await model.close();
    await runtime.mongo.dropDatabase().catch(() => undefined);
    await runtime.close();
    fs.rmSync(bundleFile, { force: true });
  };

  if (concurrent > 1) {
    await scaleBench(
      {
        post,
        result: (id) => runtime.temporal.workflow.getHandle(id).result() as Promise<JobResult>,
        redis: runtime.redis,
        adminDb: runtime.mongo.db!.admin() as never,
        workerPid: worker.pid!,
        ttfts: times.ttfts,
        peakRss: () => processMemory(worker.pid!)?.peak ?? 0,
      },
      concurrent,
      jobBody,
    );
    clearInterval(sampler);
    console.log(machineSpeedLine('at the end'));
    await cleanup();
    return;
  }

  const project = await post<{ id: string }>('/projects', { title: 'Bench', type: 'novel' });
  console.log(
    `job: ${chapters} chapters, ttft ${ttft} ms, ${tps} tokens/s${words ? `, ${words} words per chapter` : ''}, continue-as-new every ${perRun}`,
  );
  const t0 = performance.now();
  const { jobId, workflowId } = await post<{ jobId: string; workflowId: string }>('/jobs', {
    projectId: project.id,
    ...jobBody,
  });
  const handle = runtime.temporal.workflow.getHandle(workflowId);
  const progress = setInterval(() => {
    void handle
      .query<{ chaptersDone: number }>('progress')
      .then((p) => process.stdout.write(`\r  ${p.chaptersDone}/${chapters} chapters, ${s(performance.now() - t0)}   `))
      .catch(() => undefined);
  }, 5000);
  const result = (await handle.result()) as JobResult;
  const wall = performance.now() - t0;
  clearInterval(progress);
  clearInterval(sampler);
  const peak = processMemory(worker.pid!)?.peak ?? Math.max(...rss);
  process.stdout.write('\n');

  // Every run of the job, walking back along continue-as-new.
  const runs: { events: number; bytes: number }[] = [];
  let runId: string | null = (await handle.describe()).runId;
  while (runId) {
    const run: ReturnType<typeof runtime.temporal.workflow.getHandle> = runtime.temporal.workflow.getHandle(
      workflowId,
      runId,
    );
    const hist = await run.fetchHistory();
    const d = await run.describe();
    runs.unshift({ events: hist.events?.length ?? 0, bytes: d.historySize ?? 0 });
    runId = hist.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || null;
  }
  const modelMs = union(times.spans);
  const overhead = wall - modelMs;
  const files = await runtime.models.File.find({ projectId: project.id, type: 'draft', deletedAt: null })
    .select({ words: 1 })
    .lean();
  // Where the overhead is: inside the chapter turns (from the turn record to its finalize)
  // or between them (the job's own bookkeeping and child-workflow starts).
  const turns = await runtime.models.Turn.find({ jobId })
    .select({ createdAt: 1, endedAt: 1 })
    .sort({ createdAt: 1 })
    .lean();
  const shares = cacheShares(
    model.requests,
    turns.map((t) => ({ id: String(t._id), start: t.createdAt.getTime(), end: t.endedAt?.getTime() ?? Date.now() })),
  );
  const inTurns = turns.reduce((sum, t) => sum + ((t.endedAt?.getTime() ?? 0) - t.createdAt.getTime()), 0);
  const per = (ms: number) => `${(ms / Math.max(1, turns.length)).toFixed(0)} ms per turn`;

  const rows: [string, string][] = [
    [
      'job',
      `${jobId} (${result.status}, ${result.chaptersDone}/${chapters} chapters, ${files.length} draft files, ${result.words} words)`,
    ],
    ['model requests', String(times.spans.length)],
    ['wall time', s(wall)],
    ['model time (union of requests)', s(modelMs)],
    [
      'orchestration overhead',
      `${s(overhead)} = ${((overhead / modelMs) * 100).toFixed(2)} % of model time (${(overhead / Math.max(1, result.chaptersDone)).toFixed(0)} ms per chapter)`,
    ],
    ['  inside turns (turn wall - model)', `${s(inTurns - modelMs)} (${per(inTurns - modelMs)})`],
    ['  between turns (job bookkeeping)', `${s(wall - inTurns)} (${per(wall - inTurns)})`],
    ['tokens (prompt / completion)', `${result.usage.promptTokens} / ${result.usage.completionTokens}`],
    ['prompt a prefix cache can serve', '(share of each request repeating the start of a recent one)'],
    ['  within an agent run', formatShare(shares.withinRun)],
    ['  across agents in a turn', formatShare(shares.acrossAgents)],
    ['  across consecutive chapters', formatShare(shares.acrossChapters)],
    [
      'worker RSS (median / peak)',
      `${mb([...rss].sort((a, b) => a - b)[Math.floor(rss.length / 2)] ?? 0)} / ${mb(peak)}`,
    ],
    ['workflow runs', String(runs.length)],
    ['history events per run', runs.map((r) => r.events).join(' / ')],
    ['history bytes per run', runs.map((r) => `${(r.bytes / 1024).toFixed(0)} KB`).join(' / ')],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n'));
  console.log(machineSpeedLine('at the end'));

  await cleanup();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
