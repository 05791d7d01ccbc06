/**
 * `explain` of every MongoDB query on a turn's hot path, against grown data, with its time.
 * On MongoDB it shows the winning plan (IXSCAN vs COLLSCAN); on FerretDB v1 whether the
 * filter and sort were pushed down to its SQL backend (FerretDB v1 with SQLite pushes down
 * only an `_id` equality: every other filter reads the whole collection, index or not).
 *
 * The query shapes mirror the code that issues them (named in `where`); run by
 * `npm run bench:turn -- --explain` after the accumulated data is seeded.
 */
import type { Models } from '../../src/db/models';

interface Probe {
  where: string;
  run: () => { explain(v: string): Promise<unknown>; exec(): Promise<unknown> };
}

function planOf(e: unknown): string {
  const r = (Array.isArray(e) ? e[0] : e) as Record<string, unknown>;
  if ('filterPushdown' in r)
    return `FerretDB filterPushdown=${String(r.filterPushdown)} sortPushdown=${String(r.sortPushdown)}`;
  const qp = r.queryPlanner as { winningPlan?: unknown } | undefined;
  const stages: string[] = [];
  const walk = (p: unknown): void => {
    if (!p || typeof p !== 'object') return;
    const o = p as Record<string, unknown>;
    if (typeof o.stage === 'string') stages.push(o.indexName ? `${o.stage}(${String(o.indexName)})` : o.stage);
    walk(o.inputStage);
    walk(o.queryPlan);
  };
  walk(qp?.winningPlan);
  return stages.join(' < ') || JSON.stringify(r).slice(0, 120);
}

/** Explains and times each hot-path query for one turn of the seeded session. */
export async function explainHotPath(models: Models, ids: { projectId: string; sessionId: string }): Promise<void> {
  const turn = await models.Turn.findOne({ sessionId: ids.sessionId }).sort({ createdAt: -1 }).lean();
  if (!turn) throw new Error('explain: no turn in the seeded session');
  const turnId = String(turn._id);
  const file = await models.File.findOne({ projectId: ids.projectId, type: 'draft' }).lean();
  const fileId = String(file?._id);
  const probes: Probe[] = [
    { where: 'llmStep: Turn by id', run: () => models.Turn.findById(turnId).lean() },
    {
      where: 'llmStep/assembleContext: project manifest',
      run: () =>
        models.File.find({ projectId: ids.projectId, deletedAt: null })
          .select({ content: 0 })
          .sort({ type: 1, order: 1 })
          .lean(),
    },
    {
      where: 'assembleContext: bodies by $in _id',
      run: () =>
        models.File.find({ _id: { $in: [fileId] } })
          .select({ content: 1 })
          .lean(),
    },
    {
      where: 'agent-messages: history',
      run: () =>
        models.Message.find({ sessionId: ids.sessionId, turnId: { $ne: turnId } })
          .sort({ seq: -1 })
          .limit(200)
          .lean(),
    },
    {
      where: 'agent-messages: working set',
      run: () =>
        models.Message.find({ sessionId: ids.sessionId, role: 'assistant', turnId: { $ne: turnId } })
          .sort({ seq: -1 })
          .limit(2)
          .lean(),
    },
    {
      where: 'agent-messages: earlier steps',
      run: () =>
        models.AgentStep.find({ turnId, step: { $lt: 8 } })
          .sort({ step: 1 })
          .lean(),
    },
    {
      where: 'prepareTurn: previous turn',
      run: () =>
        models.Turn.findOne({ sessionId: ids.sessionId, _id: { $ne: turnId }, createdAt: { $lte: new Date() } })
          .sort({ createdAt: -1, _id: -1 })
          .lean(),
    },
    {
      where: 'prepareTurn: its last assistant message',
      run: () => models.Message.findOne({ turnId, role: 'assistant' }).sort({ seq: -1 }).lean(),
    },
    {
      where: 'executeTool: stored execution by key',
      run: () => models.ToolExecution.findOne({ key: `${turnId}:1:call_1` }).lean(),
    },
    {
      where: 'create_file: pending file',
      run: () => models.File.findOne({ projectId: ids.projectId, pendingTurnId: turnId, deletedAt: null }).lean(),
    },
    {
      where: 'file-store: latest version',
      run: () => models.FileVersion.findOne({ fileId }).sort({ version: -1 }).lean(),
    },
    { where: 'finalizeTurn: steps', run: () => models.AgentStep.find({ turnId }).sort({ step: 1 }).lean() },
    { where: 'finalizeTurn: tool executions', run: () => models.ToolExecution.find({ turnId }).lean() },
    { where: 'finalizeTurn: usage records', run: () => models.UsageRecord.find({ turnId }).lean() },
    { where: 'finalizeTurn: message by key', run: () => models.Message.findOne({ key: `${turnId}:run:1` }).lean() },
  ];
  console.log('\nhot-path queries on the accumulated data (explain, then the median of 3 runs):');
  for (const p of probes) {
    let plan: string;
    try {
      plan = planOf(await p.run().explain('queryPlanner'));
    } catch (err) {
      plan = `explain failed: ${(err as Error).message.slice(0, 80)}`;
    }
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await p.run().exec();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`  ${p.where.padEnd(46)} ${times[1]!.toFixed(1).padStart(7)} ms  ${plan}`);
  }
}
