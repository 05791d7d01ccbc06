/**
 * The representative scenarios again, on a worker with maxCachedWorkflows: 0: every
 * workflow task starts from an empty cache and replays the whole history so far, so any
 * non-determinism in the turn workflow shows up as a failed task here.
 */
import { createHarness, type Harness } from '../helpers/harness';
import { runScenario } from '../helpers/run-scenario';
import { SCENARIOS } from '../fixtures/scenarios';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ maxCachedWorkflows: 0, config: { REVIEW_WORD_THRESHOLD: '300', MAX_AGENT_RUNS: '6' } });
});
afterAll(async () => h?.close());

test.each(SCENARIOS.map((s) => [s.name, s] as const))(
  '%s completes with every task replayed',
  async (_name, scenario) => {
    const { turnId, outcome } = await runScenario(h, scenario);
    expect(outcome.status).toBe(scenario.expectStatus);
    const history = await h.runtime.temporal.workflow.getHandle(`turn-${turnId}`).fetchHistory();
    // No workflow task failed (a determinism error would fail the task and retry it).
    expect((history.events ?? []).filter((e) => e.workflowTaskFailedEventAttributes)).toEqual([]);
  },
);
