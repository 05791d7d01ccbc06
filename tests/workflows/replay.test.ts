/**
 * The replay gate: recorded histories of representative turns must replay against the
 * current workflow code. A change that breaks replay fails here and must go behind
 * `patched('…')` (or the histories are re-recorded when nothing in flight can be affected).
 */
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { quietTemporalRuntime, ROOT, testBundle } from '../helpers/harness';
import { SCENARIOS } from '../fixtures/scenarios';
import { temporalTracingPlugin } from '../../src/observability/tracing';

const DIR = path.join(ROOT, 'tests/fixtures/histories');

function loadHistories() {
  return fs
    .readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({
      workflowId: `fixture-${f.replace(/\.json$/, '')}`,
      history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8'))),
    }));
}

async function replayAll(workflowBundle: { code: string }, tracing = true) {
  const results = [];
  // With tracing, the plugin registers the span sink the bundle's interceptors call.
  for await (const r of Worker.runReplayHistories(
    { workflowBundle, replayName: 'gate', plugins: tracing ? [temporalTracingPlugin()] : [] },
    loadHistories(),
  ))
    results.push(r);
  return results;
}

beforeAll(() => quietTemporalRuntime());

test('every representative scenario has a recorded history', () => {
  const names = fs.readdirSync(DIR).map((f) => f.replace(/\.json$/, ''));
  expect(names.sort()).toEqual(SCENARIOS.map((s) => s.name).sort());
});

test.each([true, false])(
  'recorded histories replay against the current workflow code (tracing %s)',
  async (tracing) => {
    const results = await replayAll(testBundle(tracing), tracing);
    expect(results.length).toBe(SCENARIOS.length);
    const failures = results.filter((r) => r.error).map((r) => `${r.workflowId}: ${String(r.error)}`);
    expect(failures).toEqual([]);
  },
);

test('the gate fails when workflow code changes incompatibly', async () => {
  // A variant that adds a timer before the turn starts: an extra command the recorded
  // histories do not have.
  const variant = path.join(ROOT, '.local/incompatible-workflows.ts');
  fs.writeFileSync(
    variant,
    [
      "import { sleep } from '@temporalio/workflow';",
      `import { turnWorkflow as original } from '${path.join(ROOT, 'src/workflows/turn')}';`,
      'export async function turnWorkflow(input: Parameters<typeof original>[0]) {',
      "  await sleep('1 ms');",
      '  return original(input);',
      '}',
    ].join('\n'),
  );
  const { code } = await bundleWorkflowCode({
    workflowsPath: variant,
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } as never,
  });
  const results = await replayAll({ code });
  expect(results.length).toBe(SCENARIOS.length);
  expect(results.every((r) => r.error)).toBe(true);
  expect(String(results[0]!.error)).toMatch(/[Nn]ondetermin/);
}, 60000);
