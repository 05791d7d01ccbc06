/**
 * `npm run deploy:rehearse` as a test: a deploy of a build whose workflows would break the
 * replay of the running ones, and a rollback, with turns arriving every second and a job
 * running (rehearsal.ts). Every check of the rehearsal must hold.
 */
import { rehearseDeploy } from './rehearsal';

jest.setTimeout(300_000);

test('a deploy and a rollback: no failed turn, no nondeterminism, turns end on their build, the job moves between chapters', async () => {
  const report = await rehearseDeploy();
  const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
  expect(failed).toEqual([]);
  expect(report.checks).toHaveLength(8);
  expect(report.nondeterminismErrors).toBe(0);
  // The job ran on both builds, in runs of one build each.
  expect(new Set(report.jobRuns.flatMap((r) => r.builds)).size).toBe(2);
});
