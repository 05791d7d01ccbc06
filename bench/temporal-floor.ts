/**
 * Benchmark: the Temporal engine's own cost per activity call on this machine.
 * A bare workflow runs `--calls` activities one after another, each only waiting
 * `--activity-ms` (like a model call that takes that long), as remote activities and as local
 * activities, interleaved round by round, against the same dev server our turns use, with
 * no interceptors, plugins or database. Prints the wall time beyond the waits (per run and
 * per call) and, from each run's history, where it went.
 *
 * A turn makes one remote activity per model call (router, each agent step), so this is the
 * floor under its "overhead per turn" in bench:turn, before any work of ours.
 *
 * `--tracing on` gives the worker what ours carries while tracing is on (and always did before):
 * Temporal's OpenTelemetry plugin and its workflow interceptors, here with spans to a no-op
 * processor (src/observability/tracing.ts); `--tracing both` runs a worker of each kind side by side.
 *
 *   npm run bench:temporal-floor -- [--calls 8] [--activity-ms 100] [--rounds 6] [--tracing off|on|both]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { loadConfig } from '../src/config';
import { temporalTracingPlugin } from '../src/observability/tracing';
import type { floorChain } from './fixtures/floor-workflow';

const { values: opt } = parseArgs({
  options: {
    calls: { type: 'string', default: '8' },
    'activity-ms': { type: 'string', default: '100' },
    rounds: { type: 'string', default: '6' },
    tracing: { type: 'string', default: 'off' },
  },
});
const CALLS = Number(opt.calls);
const WAIT_MS = Number(opt['activity-ms']);
const ROUNDS = Number(opt.rounds);
if (!['off', 'on', 'both'].includes(String(opt.tracing)))
  throw new Error(`--tracing must be off, on or both (got "${opt.tracing}")`);
const KINDS = ['remote', 'local'] as const;
type Kind = (typeof KINDS)[number];

interface Sample {
  wallMs: number;
  /** Workflow task scheduled → started (waiting for the worker's poll). */
  wftWait: number[];
  /** Workflow task started → completed (the worker's turn, and its answer reaching the server). */
  wftRun: number[];
  /** Remote activity: started → completed beyond its wait. */
  activityExtra: number[];
  /** Remote activity: scheduled → started (dispatch, through matching or eagerly). */
  activityWait: number[];
}

const median = (xs: number[]): number => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const ms = (x: number) => (Number.isNaN(x) ? '—' : `${x.toFixed(1)} ms`);

async function runOnce(client: Client, taskQueue: string, kind: Kind, round: number): Promise<Sample> {
  const workflowId = `${taskQueue}-${kind}-${round}`;
  const start = performance.now();
  await client.workflow.execute<typeof floorChain>('floorChain', {
    taskQueue,
    workflowId,
    args: [CALLS, WAIT_MS, kind],
  });
  const wallMs = performance.now() - start;
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const at = (e: NonNullable<typeof history.events>[number]) =>
    Number(e.eventTime!.seconds) * 1000 + e.eventTime!.nanos! / 1e6;
  const sample: Sample = { wallMs, wftWait: [], wftRun: [], activityExtra: [], activityWait: [] };
  const scheduledAt = new Map<string, number>();
  const startedAt = new Map<string, number>();
  for (const e of history.events ?? []) {
    const id = String(e.eventId);
    if (e.workflowTaskScheduledEventAttributes) scheduledAt.set(id, at(e));
    if (e.workflowTaskStartedEventAttributes) {
      sample.wftWait.push(at(e) - scheduledAt.get(String(e.workflowTaskStartedEventAttributes.scheduledEventId))!);
      startedAt.set(id, at(e));
    }
    if (e.workflowTaskCompletedEventAttributes)
      sample.wftRun.push(at(e) - startedAt.get(String(e.workflowTaskCompletedEventAttributes.startedEventId))!);
    if (e.activityTaskScheduledEventAttributes) scheduledAt.set(id, at(e));
    if (e.activityTaskStartedEventAttributes) {
      startedAt.set(id, at(e));
      sample.activityWait.push(at(e) - scheduledAt.get(String(e.activityTaskStartedEventAttributes.scheduledEventId))!);
    }
    if (e.activityTaskCompletedEventAttributes)
      sample.activityExtra.push(
        at(e) - startedAt.get(String(e.activityTaskCompletedEventAttributes.startedEventId))! - WAIT_MS,
      );
  }
  return sample;
}

async function main(): Promise<void> {
  const config = loadConfig();
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const stamp = Date.now().toString(36);
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const tracings = opt.tracing === 'both' ? [false, true] : [opt.tracing === 'on'];
  // One worker per variant, each on its own task queue, all in this process.
  const variants = await Promise.all(
    tracings.flatMap((tracing) =>
      KINDS.map(async (kind) => {
        const taskQueue = `bench-floor-${stamp}-${kind}${tracing ? '-traced' : ''}`;
        const worker = await Worker.create({
          connection,
          namespace: config.TEMPORAL_NAMESPACE,
          taskQueue,
          workflowsPath: path.join(__dirname, 'fixtures', 'floor-workflow.ts'),
          activities: { wait: (n: number) => new Promise<number>((r) => setTimeout(() => r(n), n)) },
          // As our worker (src/worker.ts): it changes nothing while the worker is alive.
          stickyQueueScheduleToStartTimeout: '3s',
          ...(tracing ? { plugins: [temporalTracingPlugin()] } : {}),
        });
        return {
          name: `${kind}${tracing ? ' + tracing plugin' : ''}`,
          kind,
          taskQueue,
          worker,
          running: worker.run(),
          samples: [] as Sample[],
        };
      }),
    ),
  );
  const client = new Client({
    connection: await Connection.connect({ address: config.TEMPORAL_ADDRESS }),
    namespace: config.TEMPORAL_NAMESPACE,
  });
  try {
    // One unmeasured run of each: the first workflow task of a fresh worker loads the bundle.
    for (const v of variants) await runOnce(client, v.taskQueue, v.kind, -1);
    for (let round = 0; round < ROUNDS; round++)
      for (const v of round % 2 ? [...variants].reverse() : variants) {
        const s = await runOnce(client, v.taskQueue, v.kind, round);
        v.samples.push(s);
        console.log(`  round ${round + 1} ${v.name}: wall ${s.wallMs.toFixed(0)} ms (waits ${CALLS * WAIT_MS} ms)`);
      }
    console.log(
      `\n| ${CALLS} calls of ${WAIT_MS} ms, ${ROUNDS} rounds (medians) | ${variants.map((v) => v.name).join(' | ')} |`,
    );
    console.log(`|---|${variants.map(() => '---|').join('')}`);
    const row = (label: string, f: (v: (typeof variants)[number]) => string) =>
      console.log(`| ${label} | ${variants.map(f).join(' | ')} |`);
    const over = (v: (typeof variants)[number]) => median(v.samples.map((s) => s.wallMs - CALLS * WAIT_MS));
    row('start → result, beyond the waits', (v) => ms(over(v)));
    row('the same per call', (v) => ms(over(v) / CALLS));
    row('workflow tasks per run', (v) => String(median(v.samples.map((s) => s.wftRun.length))));
    row('workflow task: scheduled → started', (v) => ms(median(v.samples.flatMap((s) => s.wftWait))));
    row('workflow task: started → completed', (v) => ms(median(v.samples.flatMap((s) => s.wftRun))));
    row('activity: scheduled → started', (v) =>
      v.kind === 'remote' ? ms(median(v.samples.flatMap((s) => s.activityWait))) : '—',
    );
    row('activity: started → completed, beyond its wait', (v) =>
      v.kind === 'remote' ? ms(median(v.samples.flatMap((s) => s.activityExtra))) : '—',
    );
  } finally {
    for (const v of variants) v.worker.shutdown();
    await Promise.all(variants.map((v) => v.running));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
