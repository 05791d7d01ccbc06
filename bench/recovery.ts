/**
 * Recovery time when the worker running a turn's LLM step goes away mid-stream: from the
 * moment it goes (SIGKILL: a crash, detected by the heartbeat timeout; SIGTERM: an orderly
 * shutdown, which hands the step back at once) to the retried step's first event
 * (`step_retry`) on the turn's stream. A second worker is already polling, as in a
 * deployment with spare workers. Prints a table.
 *
 *   npx tsx bench/recovery.ts [--modes kill,term] [--timeouts default|2,5,10] [--runs 3]
 *
 * `default` uses the configured LLM_HEARTBEAT_TIMEOUT_SECONDS / STORE_HEARTBEAT_TIMEOUT_SECONDS.
 * Needs the local services (scripts/services.sh start).
 */
import path from 'node:path';
import fs from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions } from '../src/bundling';
import { createHarness, createProjectAndSession, postTurn, ROOT, waitTurn } from '../tests/helpers/harness';
import { recoveryScript } from '../tests/helpers/recovery';
import { readSse } from '../tests/helpers/sse-client';
import { spawnWorker, type WorkerProcess } from '../tests/helpers/worker-process';
import type { FaultRule } from '../src/shared/faults';

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? def) : def;
}

type Mode = 'kill' | 'term';

interface Sample {
  /** Fault → first event of the retried step. */
  recoveryMs: number;
  /** Fault → the faulty worker process exited. */
  exitMs: number;
}

async function measure(mode: Mode, heartbeat: number | null): Promise<Sample> {
  const h = await createHarness({
    noWorker: true,
    config: {
      REVIEW_WORD_THRESHOLD: '100000',
      ...(heartbeat ? { LLM_HEARTBEAT_TIMEOUT_SECONDS: String(heartbeat), STORE_HEARTBEAT_TIMEOUT_SECONDS: String(heartbeat) } : {}),
    },
  });
  const workers: WorkerProcess[] = [];
  try {
    h.model.script(recoveryScript());
    const { sessionId } = await createProjectAndSession(h);
    // Both workers carry the fault for the step's first attempt: whichever runs it goes away,
    // the other runs attempt 2.
    const rule: FaultRule = { point: 'llm.mid_stream', match: { agent: 'writer', attempt: 1 }, signal: mode === 'kill' ? 'SIGKILL' : 'SIGTERM' };
    for (let i = 0; i < 2; i++) workers.push(await spawnWorker(h, { TEST_FAULTS: JSON.stringify([rule]) }));
    let faultAt = 0;
    let exitedAt = 0;
    for (const w of workers) {
      w.proc.stderr!.on('data', (d: Buffer) => {
        if (!faultAt && d.toString().includes('FAULT llm.mid_stream')) faultAt = Date.now();
      });
      w.proc.once('exit', () => {
        if (faultAt && !exitedAt) exitedAt = Date.now();
      });
    }
    const turnId = await postTurn(h, sessionId, 'Write chapter 1');
    let retryAt = 0;
    const sse = readSse(`${h.baseUrl}/api/v1/turns/${turnId}/events`, {
      timeoutMs: 180000,
      onFrame: (f) => {
        if (f.event === 'step_retry' && !retryAt) retryAt = Date.now();
      },
    });
    await sse;
    await waitTurn(h, turnId);
    if (!faultAt || !retryAt) throw new Error(`no fault (${faultAt}) or no retried step (${retryAt})`);
    return { recoveryMs: retryAt - faultAt, exitMs: exitedAt ? exitedAt - faultAt : NaN };
  } finally {
    await Promise.all(workers.map((w) => w.kill()));
    await h.close();
  }
}

const secs = (ms: number): string => (Number.isNaN(ms) ? '—' : (ms / 1000).toFixed(2));

async function main(): Promise<void> {
  const bundle = path.join(ROOT, '.local/bench-workflow-bundle.js');
  fs.writeFileSync(bundle, (await bundleWorkflowCode({ ...workflowBundleOptions(false) })).code);
  process.env.SCRIPTORIUM_TEST_BUNDLE = bundle;
  const modes = arg('modes', 'kill,term').split(',') as Mode[];
  const timeouts = arg('timeouts', 'default')
    .split(',')
    .map((t) => (t === 'default' ? null : Number(t)));
  const runs = Number(arg('runs', '3'));
  const rows: string[] = [];
  for (const mode of modes)
    for (const t of mode === 'term' ? [null] : timeouts) {
      const samples: Sample[] = [];
      for (let i = 0; i < runs; i++) samples.push(await measure(mode, t));
      const rec = samples.map((s) => s.recoveryMs);
      rows.push(
        `| ${mode === 'kill' ? 'SIGKILL (crash)' : 'SIGTERM (shutdown)'} | ${t ? `${t} s` : 'default'} | ${rec.map(secs).join(', ')} s | ${secs(rec.reduce((a, b) => a + b, 0) / rec.length)} s | ${secs(Math.max(...rec))} s | ${samples.map((s) => secs(s.exitMs)).join(', ')} s |`,
      );
    }
  console.log('\nRecovery when the worker running an LLM step goes away mid-stream (→ first event of the retried step)\n');
  console.log('| how the worker went | LLM heartbeat timeout | samples | mean | max | worker exit after |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
