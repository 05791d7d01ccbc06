/** Reading turns' records of what the author saw (schemas/turn-views.ts). */
import type { TurnView } from '../core/turn/turn-view';
import type { Models } from './models';

/** The records of these turns that exist, by turn id. */
export async function turnViewsOf(models: Models, turnIds: string[]): Promise<Map<string, TurnView>> {
  if (!turnIds.length) return new Map();
  const docs = await models.TurnView.find({ _id: { $in: turnIds } })
    .select({ view: 1 })
    .lean();
  return new Map(docs.map((d) => [String(d._id), d.view as TurnView]));
}
