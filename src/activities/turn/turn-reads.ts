/**
 * A turn's own records read by `_id` (record-ids.ts; tool executions derive theirs from the
 * call's key, tools/index.ts), for the prompt builder and finalize: one `_id $in` read per
 * kind. On MongoDB a `{turnId}` filter is indexed anyway; on FerretDB v1 (the local
 * MongoDB-wire server) `{turnId}` reads every turn's documents, so finalize slowed down as
 * history grew (accumulated bench: 388 ms with 200 turns of history), while `_id` lookups,
 * `$in` included, use the `_id` index (scripts/ferretdb/pushdown.go).
 */
import type { Models } from '../../db/models';
import { stepId, usageId } from '../../core/turn/record-ids';
import { toolExecutionId, toolKey } from '../tools';

/**
 * The turn's steps 1 … `last` that were stored, in order (a step that never finished has none).
 * `withoutAnswers`: without each step's raw answer and packet, for a reader that needs only what
 * was said and called (finalize): a writer's raw answer holds the whole chapter it streamed.
 */
export async function stepsUpTo(models: Models, turnId: string, last: number, opts: { withoutAnswers?: boolean } = {}) {
  if (last < 1) return [];
  const ids = Array.from({ length: last }, (_, i) => stepId(turnId, i + 1));
  const query = models.AgentStep.find({ _id: { $in: ids } });
  const docs = await (opts.withoutAnswers ? query.select({ rawContent: 0, packet: 0 }) : query).lean();
  return docs.sort((a, b) => a.step - b.step);
}

type StoredStep = Awaited<ReturnType<typeof stepsUpTo>>[number];

/**
 * The stored executions of the steps' tool calls. One not under its derived `_id` is looked
 * up by key: a parallel_execute batch (stored under a fresh `_id`, tools/parallel.ts), one
 * stored before executions were keyed by `_id`, or a call that never ran.
 */
export async function executionsOf(models: Models, turnId: string, steps: StoredStep[]) {
  const keys = steps.flatMap((s) => s.toolCalls.map((c) => toolKey(turnId, s.step, c.id ?? '')));
  if (!keys.length) return [];
  const byId = await models.ToolExecution.find({ _id: { $in: keys.map(toolExecutionId) } }).lean();
  const found = new Set(byId.map((d) => d.key));
  const others = await Promise.all(
    keys.filter((k) => !found.has(k)).map((key) => models.ToolExecution.findOne({ key }).lean()),
  );
  return [...byId, ...others.filter((d): d is NonNullable<typeof d> => d !== null)];
}

/** The usage records of the turn's model calls: each step, the router and the suggestions. */
export async function usageOf(models: Models, turnId: string, lastStep: number) {
  const ids = [
    ...Array.from({ length: Math.max(0, lastStep) }, (_, i) => usageId(turnId, i + 1)),
    usageId(turnId, 'router'),
    usageId(turnId, 'suggestions'),
  ];
  return models.UsageRecord.find({ _id: { $in: ids } }).lean();
}
