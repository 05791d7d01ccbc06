/**
 * The stream ledger: how many events each publishing slot of a stream wrote, on record in
 * MongoDB (src/activities/stream/publish.ts writes it once Redis acknowledged them). A reader
 * compares it with what Redis holds to find events Redis lost (src/streams/gaps.ts).
 */
import type { Models } from './models';

/** The slot counts on record for a stream (src/activities/stream/publish.ts writes them). */
export async function slotCounts(
  models: Pick<Models, 'StreamLedger'>,
  key: string,
): Promise<ReadonlyMap<number, number>> {
  const doc = await models.StreamLedger.findById(key).lean();
  const slots = (doc?.slots ?? {}) as Record<string, unknown>;
  return new Map(
    Object.entries(slots).flatMap(([slot, n]) =>
      typeof n === 'number' && /^\d+$/.test(slot) ? [[Number(slot), n] as [number, number]] : [],
    ),
  );
}
