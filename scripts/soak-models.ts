/**
 * The unscripted-model soak: generated turns answered from the whole space a real
 * model can produce, through the real stack (local services, a worker, the offline model),
 * with every invariant checked after each turn (tests/soak/run.ts).
 *
 *   npm run soak:models -- [--turns 300] [--seed N]
 *
 * A violation stops the run with fast-check's report: the smallest failing turn, and the seed
 * and path that replay it. Add the seed to REGRESSION_SEEDS in tests/soak/soak.test.ts.
 */
import { createHarness } from '../tests/helpers/harness';
import { runSoak, SOAK_CONFIG } from '../tests/soak/run';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} must be a whole number`);
  return v;
}

async function main(): Promise<void> {
  const turns = arg('turns', 300);
  const seed = arg('seed', Date.now() % 2 ** 31);
  console.log(`soak: ${turns} generated turns, seed ${seed}`);
  const h = await createHarness({ config: SOAK_CONFIG });
  const statuses = new Map<string, number>();
  let n = 0;
  const started = performance.now();
  try {
    await runSoak(h, {
      turns,
      seed,
      onTurn: (r) => {
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (++n % 10 === 0)
          process.stdout.write(`\r  ${n} turns, ${((performance.now() - started) / 1000).toFixed(0)} s   `);
      },
    });
    console.log(
      `\nsoak passed: ${n} turns (fast-check runs shrinking turns too), seed ${seed}; turn outcomes: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  } catch (err) {
    console.log(`\nsoak FAILED at seed ${seed} (replay: npm run soak:models -- --turns ${turns} --seed ${seed})`);
    console.error((err as Error).message.replace(/^Hint:.*$/m, ''));
    process.exitCode = 1;
  } finally {
    await h.close();
  }
}

void main();
