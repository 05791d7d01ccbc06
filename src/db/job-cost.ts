/**
 * What jobs have cost so far, from their usage records (the source of truth however often a
 * job continued or restarted): USD by the price table of every priced call, and how many calls
 * went to a model with no price (their cost is unknown, so it is not in the sum — a client
 * says so rather than show a bill that looks complete). One accumulator per aggregation
 * (FerretDB v1 computes only the first), the two aggregations at once.
 */
import type { Models } from './models';

export interface JobCost {
  costUsd: number;
  unpricedCalls: number;
}

const rounded = (usd: number): number => Math.round(usd * 1e9) / 1e9;

/** A job as its cost is looked up: its usage records are among its project's (an indexed field), so the read stays within the project. */
export interface JobRef {
  jobId: string;
  projectId: string;
}

/** Each job's cost, by job id (a job with no usage yet costs 0). */
export async function jobCosts(models: Models, jobs: readonly JobRef[]): Promise<Map<string, JobCost>> {
  const out = new Map<string, JobCost>(jobs.map((j) => [j.jobId, { costUsd: 0, unpricedCalls: 0 }]));
  if (!jobs.length) return out;
  const match = {
    projectId: { $in: [...new Set(jobs.map((j) => j.projectId))] },
    jobId: { $in: jobs.map((j) => j.jobId) },
  };
  const [spent, unpriced] = await Promise.all([
    models.UsageRecord.aggregate<{ _id: string; v: number }>([
      { $match: match },
      { $group: { _id: '$jobId', v: { $sum: '$costUsd' } } },
    ]),
    models.UsageRecord.aggregate<{ _id: string; n: number }>([
      { $match: { ...match, priced: { $ne: true } } },
      { $group: { _id: '$jobId', n: { $sum: 1 } } },
    ]),
  ]);
  for (const r of spent) out.get(r._id)!.costUsd = rounded(r.v ?? 0);
  for (const r of unpriced) out.get(r._id)!.unpricedCalls = r.n ?? 0;
  return out;
}

/** One job's cost. */
export async function jobCost(models: Models, job: JobRef): Promise<JobCost> {
  return (await jobCosts(models, [job])).get(job.jobId)!;
}
