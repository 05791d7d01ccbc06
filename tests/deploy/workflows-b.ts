/**
 * Build B of the deploy rehearsal (rehearsal.ts): today's workflows with one extra step at the
 * start of each, a 1 ms timer. Replaying a history build A recorded on this code fails with a
 * nondeterminism error, so B running any of A's turns or job runs would show.
 */
import { sleep } from '@temporalio/workflow';
import type { JobInput, JobResult } from '../../src/core/job/job-messages';
import type { TurnInput, TurnOutcome } from '../../src/core/turn/turn-types';
import { jobWorkflow as jobOfA } from '../../src/workflows/job';
import { turnWorkflow as turnOfA } from '../../src/workflows/turn';

export async function turnWorkflow(input: TurnInput): Promise<TurnOutcome> {
  await sleep(1);
  return turnOfA(input);
}

export async function jobWorkflow(input: JobInput): Promise<JobResult> {
  await sleep(1);
  return jobOfA(input);
}
