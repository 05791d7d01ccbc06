/**
 * Token usage by project, session and user: totals, per agent and per turn. Numbers come
 * from the per-step UsageRecords (provider usage, or an estimate when the provider sent
 * none); `estimated: true` wherever any record behind a figure was an estimate, so nobody
 * mistakes a counted number for a billed one.
 */
import { Router } from 'express';
import type { AppDeps } from '../context';
import { userOf } from '../auth';
import { ownedJob, ownedProject, ownedSession } from '../ownership';
import { parseId } from '../validation';
import type { Models } from '../../db/models';
import { addCostedUsage, type CostedUsage, zeroCostedUsage } from '../../core/usage';
import { isObjectId } from '../../core/ids';

export interface UsageFigures extends CostedUsage {
  /** Calls to a model with no price: their tokens count, their cost is not in costUsd. */
  unpricedSteps: number;
  /** LLM steps counted. */
  steps: number;
  estimated: boolean;
}

interface Group {
  _id: { turnId: string; agent: string; source: string; priced: boolean };
  p: number;
  c: number;
  t: number;
  k: number;
  u: number;
  n: number;
}

const zero = (): UsageFigures => ({
  ...zeroCostedUsage(),
  unpricedSteps: 0,
  steps: 0,
  estimated: false,
});

function add(into: UsageFigures, g: Group): void {
  // Assigned over keys `into` already has: their order, and so the JSON's, stays as `zero` made it.
  Object.assign(
    into,
    addCostedUsage(into, {
      promptTokens: g.p,
      completionTokens: g.c,
      totalTokens: g.t,
      cachedPromptTokens: g.k,
      costUsd: g.u,
    }),
  );
  if (!g._id.priced) into.unpricedSteps += g.n;
  into.steps += g.n;
  into.estimated ||= g._id.source === 'estimate';
}

/**
 * Groups by (turn, agent, source) and folds in JS: FerretDB v1 has no `$cond`, so grouping
 * by `source` is how the estimate flag survives. One accumulator per `$group` on purpose:
 * FerretDB v1 computes only the first accumulator of a `$group` and answers 0 for the
 * others (checked against the local server), so each sum is its own aggregation.
 */
async function groupedUsage(models: Models, match: Record<string, string>): Promise<Group[]> {
  const sumOf = (field: keyof Omit<Group, '_id'>, expr: string | number) =>
    models.UsageRecord.aggregate<{ _id: Group['_id']; v: number }>([
      { $match: match },
      {
        $group: {
          _id: { turnId: '$turnId', agent: '$agent', source: '$source', priced: '$priced' },
          v: { $sum: expr },
        },
      },
    ]).then((rows) => rows.map((r) => ({ field, ...r, _id: { ...r._id, priced: r._id.priced === true } })));
  const parts = await Promise.all([
    sumOf('p', '$promptTokens'),
    sumOf('c', '$completionTokens'),
    sumOf('t', '$totalTokens'),
    sumOf('k', '$cachedPromptTokens'),
    sumOf('u', '$costUsd'),
    sumOf('n', 1),
  ]);
  const groups = new Map<string, Group>();
  for (const row of parts.flat()) {
    const k = JSON.stringify([row._id.turnId, row._id.agent, row._id.source, row._id.priced]);
    const g = groups.get(k) ?? groups.set(k, { _id: row._id, p: 0, c: 0, t: 0, k: 0, u: 0, n: 0 }).get(k)!;
    g[row.field] = row.v;
  }
  return [...groups.values()];
}

export async function usageReport(models: Models, match: Record<string, string>, opts: { perTurn?: boolean } = {}) {
  const groups = await groupedUsage(models, match);
  const totals = zero();
  const byAgent = new Map<string, UsageFigures>();
  const byTurn = new Map<string, UsageFigures>();
  for (const g of groups) {
    add(totals, g);
    add(byAgent.get(g._id.agent) ?? byAgent.set(g._id.agent, zero()).get(g._id.agent)!, g);
    add(byTurn.get(g._id.turnId) ?? byTurn.set(g._id.turnId, zero()).get(g._id.turnId)!, g);
  }
  const turnIds = [...byTurn.keys()].filter(isObjectId);
  const turns =
    opts.perTurn === false
      ? []
      : await models.Turn.find({ _id: { $in: turnIds } })
          .select({ sessionId: 1, status: 1, createdAt: 1, jobId: 1 })
          .lean();
  const turnInfo = new Map(turns.map((t) => [String(t._id), t]));
  return {
    totals,
    byAgent: [...byAgent]
      .map(([agent, u]) => ({ agent, ...u }))
      .sort((a, b) => b.totalTokens - a.totalTokens || a.agent.localeCompare(b.agent)),
    byTurn: [...(opts.perTurn === false ? [] : byTurn)]
      .map(([turnId, u]) => {
        const t = turnInfo.get(turnId);
        return {
          turnId,
          sessionId: t?.sessionId ?? null,
          jobId: t?.jobId ?? null,
          status: t?.status ?? null,
          createdAt: t?.createdAt ?? null,
          ...u,
        };
      })
      .sort(
        (a, b) => (a.createdAt?.getTime() ?? 0) - (b.createdAt?.getTime() ?? 0) || a.turnId.localeCompare(b.turnId),
      ),
  };
}

export function usageRouter(deps: AppDeps): Router {
  const r = Router();
  const { models } = deps;

  /** Usage of one thing the caller owns: a project, a session or a job (404 for anyone else's). */
  const scopes = [
    { path: '/projects/:projectId/usage', key: 'projectId', owned: ownedProject },
    { path: '/sessions/:sessionId/usage', key: 'sessionId', owned: ownedSession },
    { path: '/jobs/:jobId/usage', key: 'jobId', owned: ownedJob },
  ] as const;
  for (const scope of scopes)
    r.get(scope.path, async (req, res) => {
      const id = parseId((req.params as Record<string, string>)[scope.key], scope.key);
      const userId = userOf(req);
      await scope.owned(models, userId, id);
      res.json({ [scope.key]: id, ...(await usageReport(models, { ownerId: userId, [scope.key]: id })) });
    });

  /** Everything the caller spent (the per-user roll-up); per project and session live above. */
  r.get('/usage', async (req, res) => {
    const userId = userOf(req);
    res.json({ userId, ...(await usageReport(models, { ownerId: userId }, { perTurn: false })) });
  });
  return r;
}
