/**
 * What a turn loses when the worker running its writer step goes away mid-chapter: the time
 * from the signal (SIGKILL: a crash, noticed by the heartbeat timeout; SIGTERM: an orderly
 * shutdown, which hands the step back at once) to the retried step's first event
 * (`step_resumed`, or `step_retry` for a step that starts over) and to its next streamed
 * text; and what was generated twice: the characters and tokens the model
 * produced in both attempts, as a share of what the first attempt had streamed — 100 % when
 * a retried step starts over, only the seam when it goes on from its text. A second worker
 * is already polling, as in a deployment with spare workers. The signal comes from outside
 * at a point in the chapter (`--at` characters the client has seen), as a crash would. Prints a table.
 *
 *   npx tsx bench/recovery.ts [--modes kill,term] [--timeouts default|2,5,10] [--continuation auto,off] [--at 4000] [--runs 3]
 *
 * `default` uses the configured LLM_HEARTBEAT_TIMEOUT_SECONDS / STORE_HEARTBEAT_TIMEOUT_SECONDS.
 * Needs the local services (scripts/services.sh start).
 */
import path from 'node:path';
import fs from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions } from '../src/bundling';
import { countTokens } from '../src/activities/context';
import { createHarness, createProjectAndSession, postTurn, ROOT, waitTurn } from '../tests/helpers/harness';
import { recoveryScript } from '../tests/helpers/recovery';
import { readSse } from '../tests/helpers/sse-client';
import { spawnWorker, type WorkerProcess } from '../tests/helpers/worker-process';

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? def) : def;
}

type Mode = 'kill' | 'term';

interface Sample {
  /** Signal → first event of the retried step. */
  recoveryMs: number;
  /** Signal → the retried step's first streamed text. */
  nextTextMs: number;
  /** Signal → the signalled worker process exited. */
  exitMs: number;
  /** Characters the first attempt streamed, and those the model generated in both attempts. */
  firstChars: number;
  regeneratedChars: number;
  firstTokens: number;
  regeneratedTokens: number;
}

async function measure(mode: Mode, heartbeat: number | null, continuation: string, at: number): Promise<Sample> {
  const h = await createHarness({
    noWorker: true,
    config: {
      REVIEW_WORD_THRESHOLD: '100000',
      ...(heartbeat
        ? { LLM_HEARTBEAT_TIMEOUT_SECONDS: String(heartbeat), STORE_HEARTBEAT_TIMEOUT_SECONDS: String(heartbeat) }
        : {}),
    },
  });
  const workers: WorkerProcess[] = [];
  const env = { LLM_CONTINUATION: continuation };
  try {
    // A 1,500-word chapter at 80 tokens a second (about 20 s), signalled halfway by default.
    const script = recoveryScript({ words: 1500, tokensPerSecond: 80 });
    h.model.script(script);
    const answer = script.at(-1)!.reply!.content!;
    const { sessionId } = await createProjectAndSession(h);
    // The first worker takes the turn; the second polls from the start, idle until the retry.
    workers.push(await spawnWorker(h, env));
    const turnId = await postTurn(h, sessionId, 'Write chapter 1');
    workers.push(await spawnWorker(h, env));
    let signalAt = 0;
    let comebackAt = 0;
    let nextTextAt = 0;
    let exitedAt = 0;
    let seen = 0;
    workers[0]!.proc.once('exit', () => (exitedAt = Date.now()));
    const sse = readSse(`${h.baseUrl}/api/v1/turns/${turnId}/events`, {
      timeoutMs: 180000,
      onFrame: (f) => {
        if (f.event === 'file_content') {
          seen += (JSON.parse(f.data) as { data: { delta: string } }).data.delta.length;
          if (comebackAt && !nextTextAt) nextTextAt = Date.now();
          if (!signalAt && seen >= at) {
            signalAt = Date.now();
            workers[0]!.proc.kill(mode === 'kill' ? 'SIGKILL' : 'SIGTERM');
          }
        }
        if ((f.event === 'step_resumed' || f.event === 'step_retry') && !comebackAt) comebackAt = Date.now();
      },
    });
    await sse;
    await waitTurn(h, turnId);
    if (!signalAt || !comebackAt) throw new Error(`no signal (${signalAt}) or no retried step (${comebackAt})`);
    const [first, second] = h.model.requests.filter((r) => r.agent === 'writer').slice(-2);
    const firstChars = first!.sentChars ?? 0;
    // The first attempt made answer[0, firstChars); the retry made the answer's last sentChars.
    const twice = answer.slice(answer.length - (second!.sentChars ?? 0), firstChars);
    return {
      recoveryMs: comebackAt - signalAt,
      nextTextMs: nextTextAt ? nextTextAt - signalAt : NaN,
      exitMs: exitedAt ? exitedAt - signalAt : NaN,
      firstChars,
      regeneratedChars: twice.length,
      firstTokens: countTokens(answer.slice(0, firstChars)),
      regeneratedTokens: twice ? countTokens(twice) : 0,
    };
  } finally {
    await Promise.all(workers.map((w) => w.kill()));
    await h.close();
  }
}

const secs = (ms: number): string => (Number.isNaN(ms) ? '—' : (ms / 1000).toFixed(2));

const pct = (part: number, whole: number): string => (whole ? `${((100 * part) / whole).toFixed(1)} %` : '—');
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

async function main(): Promise<void> {
  const bundle = path.join(ROOT, '.local/bench-workflow-bundle.js');
  fs.writeFileSync(bundle, (await bundleWorkflowCode({ ...workflowBundleOptions(false) })).code);
  process.env.SCRIPTORIUM_TEST_BUNDLE = bundle;
  const modes = arg('modes', 'kill,term').split(',') as Mode[];
  const timeouts = arg('timeouts', 'default')
    .split(',')
    .map((t) => (t === 'default' ? null : Number(t)));
  const continuations = arg('continuation', 'auto,off').split(',');
  const at = Number(arg('at', '4000'));
  const runs = Number(arg('runs', '3'));
  const rows: string[] = [];
  for (const continuation of continuations)
    for (const mode of modes)
      for (const t of mode === 'term' ? [null] : timeouts) {
        const samples: Sample[] = [];
        for (let i = 0; i < runs; i++) samples.push(await measure(mode, t, continuation, at));
        const rec = samples.map((s) => s.recoveryMs);
        const next = samples.map((s) => s.nextTextMs);
        const regenerated = `${pct(sum(samples.map((s) => s.regeneratedChars)), sum(samples.map((s) => s.firstChars)))} of chars, ${pct(sum(samples.map((s) => s.regeneratedTokens)), sum(samples.map((s) => s.firstTokens)))} of tokens (${samples.map((s) => `${s.regeneratedChars}/${s.firstChars}`).join(', ')})`;
        rows.push(
          `| ${continuation} | ${mode === 'kill' ? 'SIGKILL (crash)' : 'SIGTERM (shutdown)'} | ${t ? `${t} s` : 'default'} | ${rec.map(secs).join(', ')} s | ${secs(sum(rec) / rec.length)} s | ${secs(sum(next) / next.length)} s | ${regenerated} | ${samples.map((s) => secs(s.exitMs)).join(', ')} s |`,
        );
      }
  console.log(`\nRecovery when the worker running the writer's step goes away ${at} characters into the chapter\n`);
  console.log(
    '| LLM_CONTINUATION | how the worker went | LLM heartbeat timeout | → retried step (samples) | mean | → next text (mean) | regenerated | worker exit after |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
