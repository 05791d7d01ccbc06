/**
 * Recovery time after a worker SIGKILL mid LLM stream: from the kill to the next event on
 * the turn's stream, for several LLM heartbeat timeouts. Prints a table.
 *
 *   npx tsx bench/recovery.ts [--timeouts 2,5,10] [--runs 2]
 *
 * Needs the local services (scripts/services.sh start).
 */
import path from 'node:path';
import fs from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';
import { createHarness, createProjectAndSession, postTurn, ROOT, waitTurn } from '../tests/helpers/harness';
import { readSse } from '../tests/helpers/sse-client';
import { spawnWorker } from '../tests/helpers/worker-process';

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? def) : def;
}

async function measure(heartbeat: number): Promise<number> {
  const h = await createHarness({
    noWorker: true,
    config: { LLM_HEARTBEAT_TIMEOUT_SECONDS: String(heartbeat), STORE_HEARTBEAT_TIMEOUT_SECONDS: String(heartbeat), REVIEW_WORD_THRESHOLD: '100000' },
  });
  try {
    const { sessionId } = await createProjectAndSession(h);
    const faulty = await spawnWorker(h, { TEST_FAULTS: JSON.stringify([{ point: 'llm.mid_stream', match: { agent: 'writer' } }]) });
    const turnId = await postTurn(h, sessionId, 'Write chapter 1');
    let killedAt = 0;
    let recoveredAt = 0;
    const sse = readSse(`${h.baseUrl}/api/v1/turns/${turnId}/events`, {
      timeoutMs: 120000,
      onFrame: () => {
        if (killedAt && !recoveredAt) recoveredAt = Date.now();
      },
    });
    await new Promise<void>((resolve) => faulty.proc.once('exit', () => resolve()));
    killedAt = Date.now();
    // A replacement worker is already waiting, as in a deployment with spare workers.
    const next = await spawnWorker(h);
    await sse;
    await waitTurn(h, turnId);
    await next.kill();
    return recoveredAt - killedAt;
  } finally {
    await h.close();
  }
}

async function main(): Promise<void> {
  const bundle = path.join(ROOT, '.local/bench-workflow-bundle.js');
  fs.writeFileSync(bundle, (await bundleWorkflowCode({ workflowsPath: path.join(ROOT, 'src/workflows/index.ts') })).code);
  process.env.SCRIPTORIUM_TEST_BUNDLE = bundle;
  const timeouts = arg('timeouts', '2,5,10').split(',').map(Number);
  const runs = Number(arg('runs', '2'));
  const rows: string[] = [];
  for (const t of timeouts) {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) samples.push(await measure(t));
    rows.push(`| ${t} s | ${samples.map((s) => (s / 1000).toFixed(2)).join(', ')} s | ${(samples.reduce((a, b) => a + b, 0) / samples.length / 1000).toFixed(2)} s |`);
  }
  console.log('\nRecovery after worker SIGKILL mid LLM stream (kill → next event on the stream)\n');
  console.log('| LLM heartbeat timeout | samples | mean |');
  console.log('|---|---|---|');
  for (const r of rows) console.log(r);
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
