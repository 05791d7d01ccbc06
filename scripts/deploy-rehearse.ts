/**
 * `npm run deploy:rehearse`: a deploy and a rollback of the agent logic, rehearsed on the local
 * services while turns arrive every second and a 6-chapter job runs (tests/deploy/rehearsal.ts
 * says what happens and what is checked). Prints the timeline, each check and the figures;
 * exits 1 when a check fails. Runs in the test suite as tests/deploy/deploy-rehearse.test.ts.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { TEST_NAMESPACE, TEST_REDIS_DB } from '../tests/global-setup';

async function main(): Promise<void> {
  // The test suite's namespace and Redis database: a rehearsal leaves nothing in the app's.
  process.env.TEMPORAL_NAMESPACE ||= TEST_NAMESPACE;
  process.env.REDIS_URL ||= `redis://127.0.0.1:6379/${TEST_REDIS_DB}`;
  execFileSync('bash', [path.join(__dirname, 'services.sh'), 'start'], { stdio: 'inherit' });
  // Loaded after the environment above, which its config reads.
  const { rehearseDeploy } = await import('../tests/deploy/rehearsal');
  const { quietTemporalRuntime } = await import('../tests/helpers/harness');
  quietTemporalRuntime();
  const report = await rehearseDeploy({ log: (line) => console.log(line) });
  console.log('');
  for (const c of report.checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'}  ${c.name}: ${c.detail}`);
  const byBuild = new Map<string, number>();
  for (const t of report.turns) {
    const key = t.builds.map((b) => b.slice(-1).toUpperCase()).join('+') || 'none';
    byBuild.set(key, (byBuild.get(key) ?? 0) + 1);
  }
  console.log(
    `\nturns: ${report.turns.length} (${[...byBuild].map(([b, n]) => `${n} on ${b}`).join(', ')}); ` +
      `job runs: ${report.jobRuns.length}; nondeterminism errors: ${report.nondeterminismErrors}; ${report.seconds.toFixed(0)} s`,
  );
  const failed = report.checks.filter((c) => !c.ok).length;
  console.log(failed ? `deploy:rehearse: ${failed} check(s) failed` : 'deploy:rehearse: all checks passed');
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
