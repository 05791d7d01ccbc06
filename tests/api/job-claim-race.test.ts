/**
 * The job claim under simultaneous POSTs over real HTTP, on the real services: when the
 * project's claim is stale (its job has ended), several requests replace it at once, and
 * exactly one job may start. On FerretDB v1 a filtered delete is a read then a delete by
 * _id, so without one-deleter-per-claim two requests could each clear the claim and start.
 */
import { api, createHarness, createProjectAndSession, type Harness } from '../helpers/harness';
import { newId } from '../../src/db/models';

const REQUESTS = 10;
const ROUNDS = 4;

let h: Harness;
const started: string[] = [];

beforeAll(async () => {
  // No worker: the started job workflows only need to exist, not run.
  h = await createHarness({ noWorker: true, config: { RATE_LIMIT_JOBS: '1000' } });
});

afterAll(async () => {
  await Promise.all(
    started.map((id) =>
      h.runtime.temporal.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined),
    ),
  );
  await h.close();
});

test('simultaneous job starts over a stale claim start exactly one job; the others get 409', async () => {
  const { Job, JobClaim } = h.runtime.models;
  for (let round = 0; round < ROUNDS; round++) {
    const { projectId, sessionId } = await createProjectAndSession(h);
    const ended = newId();
    await Job.create({
      _id: ended,
      ownerId: 'local',
      projectId,
      sessionId,
      from: 1,
      to: 1,
      status: 'completed',
      workflowId: `job-${ended}`,
    });
    await JobClaim.create({ _id: projectId, jobId: ended });

    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, () =>
        api<{ jobId?: string; workflowId?: string }>(h, 'POST', '/api/v1/jobs', {
          projectId,
          chapters: { from: 1, to: 2 },
        }),
      ),
    );
    const accepted = responses.filter((r) => r.status === 202);
    started.push(...accepted.map((r) => r.body.workflowId!));
    expect(accepted).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(REQUESTS - 1);
    const claim = await JobClaim.findById(projectId).lean();
    expect(claim?.jobId).toBe(accepted[0]!.body.jobId);
    expect(await Job.countDocuments({ projectId, status: { $ne: 'completed' } })).toBe(1);
  }
});
