/**
 * Finds events a stream lost, so a reader (reader.ts) can declare the gap — the SSE route
 * sends a `reset` — instead of serving a stream with a silent hole.
 *
 * Publishers number each slot's events 0, 1, 2, … (src/streams/redis-streams.ts) and record
 * how many each slot wrote (src/activities/stream/publish.ts). So, reading in order:
 * - within a slot, an index that skips one means events in between were lost;
 * - a new slot must start at 0, and the slot before it must have reached its recorded count;
 * - a recorded slot with events that never shows up was lost whole;
 * - at the end of what Redis holds, every recorded event must have been seen (the counts are
 *   loaded before the stream is read, and recorded only after Redis acknowledged the events).
 * Redis with AOF `everysec` loses the last second of writes when it crashes; this is how a
 * late client learns of it.
 */
import { parseStreamId, type StreamId } from './redis-streams';

export class GapTracker {
  private prev: StreamId | null;

  /**
   * @param counts events per slot on record (slot → count); may be empty (then only holes
   *   inside what Redis still holds are found).
   * @param cursor the id the client already has (null: from the start).
   */
  constructor(
    private readonly counts: ReadonlyMap<number, number>,
    cursor: string | null,
  ) {
    this.prev = cursor ? parseStreamId(cursor) : null;
  }

  /** Index of the first entry that comes after a gap, or -1 when the entries continue the stream. */
  check(ids: readonly string[]): number {
    for (let i = 0; i < ids.length; i++) {
      const id = parseStreamId(ids[i]!);
      if (!id) continue;
      if (this.gapBefore(id)) return i;
      this.prev = id;
    }
    return -1;
  }

  /** True when events on record were never seen: call once the stream has no more entries. */
  missingAtEnd(): boolean {
    return this.gapBefore({ slot: Number.MAX_SAFE_INTEGER, index: 0 });
  }

  private gapBefore(id: StreamId): boolean {
    const prev = this.prev;
    if (prev && id.slot === prev.slot) return id.index !== prev.index + 1;
    if (prev && id.slot < prev.slot) return false;
    // A new slot: the previous one is complete, none on record in between, and it starts at 0.
    if (prev && prev.index + 1 < (this.counts.get(prev.slot) ?? 0)) return true;
    for (const [slot, n] of this.counts)
      if (n > 0 && slot < id.slot && (prev === null || slot > prev.slot)) return true;
    return id.slot !== Number.MAX_SAFE_INTEGER && id.index !== 0;
  }
}
