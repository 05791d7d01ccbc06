/**
 * How much a turn puts into Temporal history: events per agent step and the largest
 * payload, for a 3-agent turn (planner → hook designer → writer) driven by the offline
 * model's default persona (a ~1000-word chapter, a 10-chapter outline).
 *
 *   npx tsx bench/turn-history.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions } from '../src/bundling';
import { createHarness, createProjectAndSession, ROOT, runTurn } from '../tests/helpers/harness';

function payloadBytes(obj: unknown): number {
  // Sums the `data` of every Payload inside one history event.
  let n = 0;
  const walk = (v: unknown): void => {
    if (!v || typeof v !== 'object') return;
    if (v instanceof Uint8Array) return;
    const rec = v as Record<string, unknown>;
    if (rec.data instanceof Uint8Array && rec.metadata) n += rec.data.length;
    for (const x of Object.values(rec)) walk(x);
  };
  walk(obj);
  return n;
}

async function main(): Promise<void> {
  const bundle = path.join(ROOT, '.local/bench-workflow-bundle.js');
  fs.writeFileSync(bundle, (await bundleWorkflowCode({ ...workflowBundleOptions(false) })).code);
  process.env.SCRIPTORIUM_TEST_BUNDLE = bundle;
  const h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '100000' } });
  try {
    const { sessionId } = await createProjectAndSession(h);
    const { turnId, outcome } = await runTurn(
      h,
      sessionId,
      'Plan the novel, design the opening hooks, and write chapter 1',
    );
    const history = await h.runtime.temporal.workflow.getHandle(`turn-${turnId}`).fetchHistory();
    const events = history.events ?? [];
    const steps = await h.runtime.models.AgentStep.countDocuments({ turnId });
    const sizes = events.map((e) => ({
      type: Object.keys(e).find((k) => k.endsWith('Attributes')) ?? '?',
      bytes: payloadBytes(e),
    }));
    const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    const total = sizes.reduce((n, s) => n + s.bytes, 0);
    const chapter = await h.runtime.models.File.findOne({
      projectId: (await h.runtime.models.Turn.findById(turnId).lean())!.projectId,
      type: 'draft',
    }).lean();
    console.log(`\nTurn ${turnId}: agents ${outcome.agents.join(' → ')}, status ${outcome.status}`);
    console.log(
      `| history events | LLM steps | events per step | total payload bytes | largest payload | chapter size in MongoDB |`,
    );
    console.log(`|---|---|---|---|---|---|`);
    console.log(
      `| ${events.length} | ${steps} | ${(events.length / steps).toFixed(1)} | ${total} | ${largest.bytes} B (${largest.type}) | ${chapter?.content.length ?? 0} chars |`,
    );
  } finally {
    await h.close();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
