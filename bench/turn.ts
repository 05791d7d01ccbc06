/**
 * Benchmark: one author turn — "Plan a ten-chapter mystery and write chapter 1",
 * eight model calls (router, planner ×3, writer ×3, reviewer) — run side by side by
 *   floor        the turn's recorded model calls replayed back to back (openai client),
 *   scriptorium  our API + worker processes on the real services, followed over SSE,
 *   peer         a durable LangGraph graph (SQLite checkpoint after every node) in Python,
 *                same model calls, files on the same MongoDB-wire server, tokens to Redis,
 * against one scripted offline model timed at its own server, interleaved round by round,
 * at realistic and fast model timing, alone and 10 at once, on fresh and accumulated data.
 *
 *   npm run bench:turn -- [--rounds 3] [--conc-rounds 2] [--concurrency 10]
 *                         [--timings realistic,fast] [--data fresh,accumulated]
 *                         [--parts floor,scriptorium,peer,concurrency] [--profile] [--explain] [--timeline]
 *                         [--ttft 300] [--tps 80] [--chapter-words 1000]
 *                         [--worker-tuning '{"workflowTaskPollerBehavior":{"type":"autoscaling"}}']
 *   quick look (a few minutes): npm run bench:turn -- --rounds 1 --conc-rounds 1 --data fresh
 *   BENCH_EXTRA_NODE_FLAGS='…' adds Node flags to the API and worker processes (V8 and GC experiments).
 *
 * The figures are medians; this machine is shared, so read them as ratios.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions } from '../src/bundling';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { connectRuntime, type Runtime } from '../src/runtime';
import { turnWorkflowId } from '../src/core/domain';
import { explainHotPath } from './turn-kit/explain';
import { floorTurn } from './turn-kit/floor';
import { historyBreakdown, printActivities, printTimeline } from './turn-kit/history';
import { recordCalls, scriptFor, startModelRig, union, type ModelRig, type RecordedCall } from './turn-kit/model';
import { PeerContender } from './turn-kit/peer';
import { printSummary, summarize } from './turn-kit/profile';
import {
  localServicePids,
  MachineCpu,
  machineSpeedLine,
  processMemory,
  temporalStateLine,
} from './turn-kit/machine-cpu';
import { type ConcurrentSample, type ContenderName, type LoneSample, printTables } from './turn-kit/report';
import { ScriptoriumContender, type TurnTiming } from './turn-kit/scriptorium';
import { removeTurnFiles, seedAccumulated } from './turn-kit/seed';
import { printStepCosts, stepCosts, type StepCost } from './turn-kit/step-cost';
import { temporalMetricsUrl, temporalRequests, temporalRequestsLine } from './turn-kit/temporal-requests';

const ROOT = path.resolve(__dirname, '..');
const MESSAGE = 'Plan a ten-chapter mystery and write chapter 1';

const { values: opt } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    'conc-rounds': { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '10' },
    timings: { type: 'string', default: 'realistic,fast' },
    data: { type: 'string', default: 'fresh,accumulated' },
    parts: { type: 'string', default: 'floor,scriptorium,peer,concurrency' },
    profile: { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
    timeline: { type: 'boolean', default: false },
    'worker-tuning': { type: 'string' },
    ttft: { type: 'string', default: '300' },
    tps: { type: 'string', default: '80' },
    'chapter-words': { type: 'string', default: '1000' },
  },
});
const num = (k: keyof typeof opt) => Number(opt[k]);
const list = (k: keyof typeof opt) => String(opt[k]).split(',').filter(Boolean);
const TIMINGS = {
  realistic: {
    name: 'realistic',
    label: `ttft ${num('ttft')} ms, ${num('tps')} tok/s`,
    ttftMs: num('ttft'),
    tokensPerSecond: num('tps'),
  },
  fast: { name: 'fast', label: 'fast model (ttft 0, instant tokens)', ttftMs: 0, tokensPerSecond: 1e6 },
};
type TimingName = keyof typeof TIMINGS;

interface Bench {
  runtime: Runtime;
  rig: ModelRig;
  calls: RecordedCall[];
  ours: ScriptoriumContender;
  peer: PeerContender | null;
}

/**
 * Runs one contender's turn(s) with the script they need, plus as many spare answers per
 * call for retried steps (an activity retried after a transient failure asks again). Every
 * turn must make all eight calls; retried calls are counted and printed, never hidden.
 */
async function scripted<T>(b: Bench, turns: number, fn: () => Promise<T>): Promise<{ result: T; from: number }> {
  b.rig.model.reset();
  b.rig.model.script(scriptFor(b.calls, 2 * turns));
  const from = b.rig.spans.length;
  const result = await fn();
  if (b.rig.model.failures.length) throw new Error(`model script: ${b.rig.model.failures.join('\n')}`);
  const made = 2 * turns * b.calls.length - b.rig.model.pendingEntries();
  if (made < turns * b.calls.length) throw new Error(`model script: ${made} of ${turns * b.calls.length} calls made`);
  if (made > turns * b.calls.length)
    console.log(`  (${made - turns * b.calls.length} model calls repeated by retried steps)`);
  return { result, from };
}

function lone(
  b: Bench,
  who: ContenderName,
  data: string,
  timing: string,
  t: TurnTiming,
  from: number,
  cpuMs: number,
  mongo: number,
): LoneSample {
  if (t.status !== 'completed') throw new Error(`${who} turn ended ${t.status}`);
  const spans = b.rig.spans.slice(from);
  return {
    contender: who,
    data,
    timing,
    wall: t.end - t.start,
    ttft: t.firstToken - t.start,
    model: union(spans),
    calls: spans.length,
    cpuMs,
    mongo,
    events: t.events,
  };
}

async function main(): Promise<void> {
  const rounds = num('rounds');
  const concRounds = num('conc-rounds');
  const concurrency = num('concurrency');
  const parts = new Set(list('parts'));
  const timings = list('timings') as TimingName[];
  const datas = list('data');
  const chapterWords = num('chapter-words');
  const name = `bench_turn_${Date.now().toString(36)}`;
  const env = {
    ...process.env,
    SCRIPTORIUM_ENV_PRIORITY: 'none',
    OPENAI_API_KEY: '',
    LOG_LEVEL: 'warn',
    TEMPORAL_TASK_QUEUE: `bench-${name}`,
    REDIS_KEY_PREFIX: `bench:${name}:`,
  };
  const config = loadConfig({ env });
  const logger = createLogger('warn', 'bench');
  // The bench's own connection counts its commands too (the llmStep cost probe reads them).
  const runtime = await connectRuntime(
    {
      ...config,
      MONGODB_URI: `${config.MONGODB_URI}${config.MONGODB_URI.includes('?') ? '&' : '?'}monitorCommands=true`,
    },
    logger,
    { dbName: name },
  );
  const rig = await startModelRig(chapterWords);
  const work = path.join(ROOT, '.local', name);
  fs.mkdirSync(work, { recursive: true });
  console.log(machineSpeedLine('at the start'));
  const temporalState = temporalStateLine(ROOT);
  if (temporalState) console.log(temporalState);
  console.log(`bench:turn ${name}: bundling workflows…`);
  const bundleFile = path.join(work, 'bundle.js');
  const silent = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };
  fs.writeFileSync(
    bundleFile,
    (await bundleWorkflowCode({ ...workflowBundleOptions(false), logger: silent as never })).code,
  );
  const ours = await ScriptoriumContender.start({
    config,
    dbName: name,
    modelUrl: rig.url,
    bundleFile,
    workerTuning: opt['worker-tuning'],
  });
  let peer: PeerContender | null = null;
  const lones: LoneSample[] = [];
  const concs: ConcurrentSample[] = [];
  const costs: [string, StepCost[]][] = [];
  const timelines: (() => Promise<void>)[] = [];
  try {
    // The recording turn: our engine against the default persona; its eight requests and the
    // persona's answers become the script every contender gets.
    const rec = await ours.newSession();
    await ours.turn(rec.sessionId, MESSAGE);
    const calls = recordCalls(rig.model.requests, chapterWords);
    console.log(`recorded ${calls.length} model calls: ${calls.map((c) => `${c.agent}/${c.phase}`).join(', ')}`);
    if (calls.length !== 8) throw new Error('expected 8 model calls in the recorded turn');
    const prompts: Record<string, unknown> = { tools: {} };
    for (const c of calls) {
      // The role header no longer opens the prompt (it follows the project material, for
      // prefix caches), so the peer's one system prompt is all of ours, in order.
      prompts[c.agent] = c.body.messages
        .filter((m) => m.role === 'system')
        .map((m) => m.content)
        .join('\n\n');
      (prompts.tools as Record<string, unknown>)[c.agent] = c.body.tools ?? null;
    }
    const promptsFile = path.join(work, 'prompts.json');
    fs.writeFileSync(promptsFile, JSON.stringify(prompts));
    if (parts.has('peer')) {
      const u = new URL(config.MONGODB_URI);
      peer = await PeerContender.start(
        {
          modelUrl: rig.url,
          mongoUri: `${u.protocol}//${u.host}/`,
          db: `${name}_peer`,
          redisUrl: config.REDIS_URL,
          prefix: `bench:${name}:peer:`,
          sqlite: path.join(work, 'peer.sqlite'),
          prompts: promptsFile,
        },
        runtime.redis,
      );
    }
    const b: Bench = { runtime, rig, calls, ours, peer };
    // One untimed turn per contender at the first measured timing: Python imports and first
    // connections are not the peer's turn cost, and compiling the streaming path (a recording
    // turn at instant timing leaves it cold) is not ours. A long-lived service has paid both;
    // without this the first round cost ~1 s more CPU than the next ones.
    rig.model.setTiming(TIMINGS[timings[0]!]);
    const warm = await ours.newSession();
    await scripted(b, 1, () => ours.turn(warm.sessionId, MESSAGE));
    if (peer) await scripted(b, 1, () => peer!.turn('warmup', 'p-warmup', 'th-warmup', MESSAGE));

    for (const data of datas) {
      // Accumulated: one project with 50 chapters and 200 turns of history for each contender.
      let acc: { projectId: string; sessionId: string } | null = null;
      if (data === 'accumulated') {
        await ScriptoriumContender.emptyDatabase(runtime.models);
        await peer?.reset();
        acc = await seedAccumulated(runtime.models, 'local');
        await peer?.seed('peer-acc', 'peer-acc-history', 50, 200);
        console.log('seeded accumulated data (50 chapters, 200 turns of history)');
        if (opt.explain) await explainHotPath(runtime.models, acc);
      }
      const fresh = async (): Promise<void> => {
        if (data !== 'fresh') return;
        await ScriptoriumContender.emptyDatabase(runtime.models);
        await peer?.reset();
      };
      const contenders = (['floor', 'scriptorium', 'peer'] as const).filter(
        (c) => parts.has(c) && (c !== 'peer' || peer),
      );
      for (const tn of timings) {
        const timing = TIMINGS[tn];
        rig.model.setTiming(timing);
        for (let r = 0; r < rounds; r++) {
          const order = contenders.map((_, i) => contenders[(i + r) % contenders.length]!);
          for (const who of order) {
            let cpuSplit = '';
            let measuredTurn: string | null = null;
            await fresh();
            if (who === 'floor') {
              const { result, from } = await scripted(b, 1, () => floorTurn(rig.url, calls));
              lones.push(lone(b, who, data, tn, result, from, 0, 0));
            } else if (who === 'scriptorium') {
              const s = acc ?? (await ours.newSession());
              const before = await ours.stats();
              const { result, from } = await scripted(b, 1, () => ours.turn(s.sessionId, MESSAGE));
              measuredTurn = result.turnId!;
              // The turn's wall ends at `done`; its cost includes finalize, which is still closing.
              await runtime.temporal.workflow.getHandle(turnWorkflowId(result.turnId!)).result();
              const after = await ours.stats();
              lones.push(lone(b, who, data, tn, result, from, after.cpuMs - before.cpuMs, after.mongo - before.mongo));
              cpuSplit = ` (API ${(after.apiCpuMs - before.apiCpuMs).toFixed(0)}, worker ${(after.workerCpuMs - before.workerCpuMs).toFixed(0)})`;
              if (r === rounds - 1) {
                await historyBreakdown(runtime, turnWorkflowId(result.turnId!), before, after, `${data}, ${tn}`);
                costs.push([`${data}, ${tn}`, await stepCosts(runtime, config, turnWorkflowId(result.turnId!))]);
                if (opt.timeline)
                  timelines.push(() => printTimeline(runtime, turnWorkflowId(result.turnId!), result, rig.spans));
              }
            } else {
              const before = await peer!.stats();
              const id = `t${Date.now().toString(36)}${r}`;
              const { result, from } = await scripted(b, 1, () =>
                peer!.turn(id, acc ? 'peer-acc' : `p-${id}`, acc ? 'peer-acc-history' : `th-${id}`, MESSAGE),
              );
              const after = await peer!.stats();
              lones.push(lone(b, who, data, tn, result, from, after.cpuMs - before.cpuMs, after.mongo - before.mongo));
            }
            // Outside the measured window: the next round meets the same accumulated project.
            if (acc && measuredTurn) await removeTurnFiles(runtime.models, measuredTurn);
            const last = lones[lones.length - 1]!;
            console.log(
              `  ${data} ${tn} round ${r + 1} ${who}: wall ${last.wall.toFixed(0)} ms, model ${last.model.toFixed(0)} ms, ttft ${last.ttft.toFixed(0)} ms, cpu ${last.cpuMs.toFixed(0)} ms${cpuSplit}, mongo ${last.mongo}, stream events ${last.events ?? '—'}`,
            );
          }
        }
      }
      if (!parts.has('concurrency')) continue;
      const tn = timings[0]!;
      rig.model.setTiming(TIMINGS[tn]);
      const concContenders = (['scriptorium', 'peer'] as const).filter((c) => parts.has(c) && (c !== 'peer' || peer));
      for (let r = 0; r < concRounds; r++) {
        for (const who of r % 2 ? [...concContenders].reverse() : concContenders) {
          await fresh();
          const turns = await concurrentTurns(b, who, concurrency, acc?.projectId ?? null);
          const before = who === 'scriptorium' ? await ours.stats() : null;
          // The bench process is the offline model and the turns' clients.
          const machine = new MachineCpu(
            who === 'scriptorium'
              ? { ...ours.pids(), ...localServicePids(ROOT), 'model and clients': process.pid }
              : {},
          );
          const requestsBefore =
            who === 'scriptorium' ? await temporalRequests(temporalMetricsUrl(), config.TEMPORAL_NAMESPACE) : null;
          const redisBefore = who === 'scriptorium' ? await redisCommands(runtime.redis) : 0;
          const { result } = await scripted(b, concurrency, turns);
          machine.stop();
          // Each turn's last workflow task (finalize) follows its `done`.
          if (who === 'scriptorium')
            await Promise.all(
              result.map((t) => runtime.temporal.workflow.getHandle(turnWorkflowId(t.turnId!)).result()),
            );
          const requestsAfter =
            who === 'scriptorium' ? await temporalRequests(temporalMetricsUrl(), config.TEMPORAL_NAMESPACE) : null;
          const batchLine =
            who === 'scriptorium' && before
              ? batchFigures(
                  result,
                  before,
                  await ours.stats(),
                  (await redisCommands(runtime.redis)) - redisBefore,
                  ours.pids().worker,
                )
              : '';
          const start = Math.min(...result.map((t) => t.start));
          if (before && r === concRounds - 1) {
            // Activities of all turns (figures are sums over the batch); history of the median-ttft turn.
            const byTtft = [...result].sort((x, y) => x.firstToken - x.start - (y.firstToken - y.start));
            const mid = byTtft[Math.floor(byTtft.length / 2)]!;
            await historyBreakdown(
              runtime,
              turnWorkflowId(mid.turnId!),
              before,
              await ours.stats(),
              `${data}, ${tn}, ${concurrency} concurrent: activities summed over all turns, history of the median-ttft turn`,
            );
            // The model calls of the batch interleave, so the median turn's timeline shows its history alone.
            if (opt.timeline) timelines.push(() => printTimeline(runtime, turnWorkflowId(mid.turnId!), mid, []));
          }
          concs.push({
            contender: who,
            data,
            timing: tn,
            total: Math.max(...result.map((t) => t.end)) - start,
            ttfts: result.map((t) => t.firstToken - t.start),
          });
          // Where the batch's time to first token starts: the API answering 50 POSTs at once.
          const accepted = result
            .filter((t) => t.accepted)
            .map((t) => t.accepted! - t.start)
            .sort((x, y) => x - y);
          const acceptedP50 = accepted.length
            ? `, POST answered p50 ${accepted[accepted.length >> 1]!.toFixed(0)} ms`
            : '';
          // The spread shows whether turns move in lockstep (every turn waits for all) or in turn.
          const ttfts = concs[concs.length - 1]!.ttfts.slice().sort((x, y) => x - y);
          const at = (q: number) =>
            (ttfts[Math.min(ttfts.length - 1, Math.floor(q * ttfts.length))]! / 1000).toFixed(2);
          console.log(
            `  ${data} ${tn} ${concurrency} concurrent, round ${r + 1} ${who}: total ${(concs[concs.length - 1]!.total / 1000).toFixed(2)} s${acceptedP50}, first token min/p25/p50/p75/max ${at(0)}/${at(0.25)}/${at(0.5)}/${at(0.75)}/${at(1)} s`,
          );
          console.log(`    ${machineCpuLine(machine, start, result)}`);
          if (who === 'scriptorium')
            console.log(`    ${batchLine}\n    ${temporalRequestsLine(requestsBefore, requestsAfter, result.length)}`);
        }
      }
    }
    printTables(
      lones,
      concs,
      timings.map((t) => TIMINGS[t]),
      datas,
      concurrency,
    );
    printActivities();
    for (const [label, c] of costs) printStepCosts(label, c);
    for (const t of timelines) await t();
    console.log(machineSpeedLine('at the end'));

    if (opt.profile) {
      // The worker's and the API's main threads through concurrent turns only (start-up excluded).
      const prefix = path.join(work, 'profile');
      rig.model.setTiming(TIMINGS[timings[0]!]);
      await ours.profile(prefix, async () => {
        for (let r = 0; r < Math.max(1, concRounds); r++)
          await scripted(b, concurrency, await concurrentTurns(b, 'scriptorium', concurrency, null));
      });
      for (const role of ['worker', 'api']) {
        const file = `${prefix}.${role}.cpuprofile`;
        console.log(
          `\n${role} CPU profile under ${concurrency} concurrent turns, ${TIMINGS[timings[0]!].label} (${file}):`,
        );
        printSummary(summarize(file, 25));
      }
    }
  } finally {
    await ours.stop();
    await peer?.stop();
    await rig.close();
    const keys = await runtime.redis.keys(`bench:${name}:*`);
    if (keys.length) await runtime.redis.del(...keys);
    await runtime.mongo.dropDatabase().catch(() => undefined);
    await runtime.mongo
      .useDb(`${name}_peer`)
      .dropDatabase()
      .catch(() => undefined);
    await runtime.close();
  }
}

/**
 * The machine's CPU through the batch (every process on the cores). Until the median first
 * token it is what half the turns' openings cost, with the starts of the rest and the streams
 * of those already open; its busy share says whether the cores were the limit. Less noisy
 * than the batch's timings (a run's TTFT p50 varies by ±0.25 s), so a change to the opening
 * shows in it first.
 */
function machineCpuLine(machine: MachineCpu, start: number, result: TurnTiming[]): string {
  const byToken = result.map((t) => t.firstToken).sort((x, y) => x - y);
  const p50At = byToken[byToken.length >> 1]!;
  const end = Math.max(...result.map((t) => t.end));
  const toP50 = machine.busyBetween(start, p50At);
  const whole = machine.busyBetween(start, end);
  if (toP50 === null || whole === null) return 'machine CPU: not available (no /proc/stat)';
  const opened = (byToken.length >> 1) + 1;
  const share = (ms: number, span: number) => ((100 * ms) / (span * machine.cores)).toFixed(0);
  const shares = (to: number, total: number) => {
    const split = Object.entries(machine.byProcessBetween(start, to)).sort((a, b) => b[1] - a[1]);
    const rest = total - split.reduce((n, [, ms]) => n + ms, 0);
    return split.length
      ? [...split, ['other processes and the kernel', rest] as const]
          .map(([name, ms]) => `${name} ${((100 * ms) / total).toFixed(0)} %`)
          .join(', ')
      : '';
  };
  const [untilP50, wholeBatch] = [shares(p50At, toP50), shares(end, whole)];
  return (
    `machine CPU (${machine.cores} cores): until the p50 first token ${(toP50 / 1000).toFixed(2)} core-s ` +
    `(${share(toP50, p50At - start)} % busy; ${(toP50 / opened).toFixed(0)} ms per turn opened), ` +
    `whole batch ${(whole / 1000).toFixed(1)} core-s (${share(whole, end - start)} % busy; ${(whole / result.length).toFixed(0)} ms per turn)` +
    (untilP50
      ? `\n    by process until the p50 first token: ${untilP50}\n    by process over the whole batch: ${wholeBatch}`
      : '')
  );
}

/** Commands the Redis server has processed so far (INFO stats), the bench's own few included. */
async function redisCommands(redis: Bench['runtime']['redis']): Promise<number> {
  const info = await redis.info('stats');
  return Number(/^total_commands_processed:(\d+)/m.exec(info)?.[1] ?? 0);
}

type OursStats = Awaited<ReturnType<ScriptoriumContender['stats']>>;

/** The batch's completions, p95 first token, the worker's CPU and peak memory, and the commands per turn. */
function batchFigures(
  result: TurnTiming[],
  before: OursStats,
  after: OursStats,
  redis: number,
  workerPid: number | undefined,
): string {
  const n = result.length;
  const completed = result.filter((t) => t.status === 'completed').length;
  const ttfts = result.map((t) => t.firstToken - t.start).sort((x, y) => x - y);
  const p95 = ttfts[Math.min(n - 1, Math.floor(0.95 * n))]!;
  const peak = workerPid ? processMemory(workerPid)?.peak : undefined;
  const workerCpu = after.workerCpuMs - before.workerCpuMs;
  return (
    `completed ${completed}/${n}; first token p95 ${(p95 / 1000).toFixed(2)} s; worker CPU ${(workerCpu / 1000).toFixed(1)} s (${(workerCpu / n).toFixed(0)} ms per turn), ` +
    `peak RSS ${peak ? `${(peak / 1024 / 1024).toFixed(0)} MB` : '—'} (its whole life); per turn ${((after.mongo - before.mongo) / n).toFixed(0)} MongoDB and ${(redis / n).toFixed(0)} Redis commands`
  );
}

/** Prepares `n` sessions (or threads) and returns the function that starts all turns at once. */
async function concurrentTurns(
  b: Bench,
  who: 'scriptorium' | 'peer',
  n: number,
  projectId: string | null,
): Promise<() => Promise<TurnTiming[]>> {
  if (who === 'scriptorium') {
    const sessions: { sessionId: string }[] = [];
    // Accumulated data: each turn gets a seeded project of its own. In one shared project the
    // recorded turns would all create "Outline" and "Chapter 1", and all but one be refused
    // (file_exists) — the script no longer fits.
    for (let i = 0; i < n; i++)
      sessions.push(projectId ? await seedAccumulated(b.runtime.models, 'local', 50, 0) : await b.ours.newSession());
    return () => Promise.all(sessions.map((s) => b.ours.turn(s.sessionId, MESSAGE)));
  }
  const tag = Date.now().toString(36);
  return () =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        b.peer!.turn(`c${tag}${i}`, projectId ? 'peer-acc' : `p-c${tag}${i}`, `th-c${tag}${i}`, MESSAGE),
      ),
    );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
