/**
 * A short unscripted-model soak in the suite: generated turns through the real
 * stack, every invariant checked after each (tests/soak/run.ts). `npm run soak:models` runs
 * long ones; a seed that fails there is added to REGRESSION_SEEDS below.
 */
import { createHarness, type Harness } from '../helpers/harness';
import { runSoak, SOAK_CONFIG } from './run';

jest.setTimeout(600_000);
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: SOAK_CONFIG });
});
afterAll(async () => h?.close());

/** Seeds that once found a violation (each fixed at the shared mechanism), replayed for a few turns. */
const REGRESSION_SEEDS: number[] = [];

test('generated turns keep every invariant (seed 20261205, 12 turns)', async () => {
  const statuses: string[] = [];
  await runSoak(h, { turns: 12, seed: 20261205, onTurn: (r) => statuses.push(r.status) });
  expect(statuses).toHaveLength(12);
  // The generated turns do reach the agents: some complete, not all end before a model call.
  expect(statuses).toContain('completed');
});

test('regression seeds keep every invariant', async () => {
  for (const seed of REGRESSION_SEEDS) await runSoak(h, { turns: 5, seed });
});
