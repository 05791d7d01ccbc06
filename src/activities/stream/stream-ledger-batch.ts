/**
 * The stream counts a worker has yet to put on record (publish.ts), written for all its
 * streams in one bulk write: at most once per {@link LEDGER_INTERVAL_MS}, or at once when a
 * step or a turn ends and settles its count. One worker-wide batch instead of a write per
 * publisher: a turn's opening (its announcement, the router's and the first step's events,
 * the tool cards) wrote a count each, 15 to 20 commands a turn, most of them while 50 turns
 * opened at once and competed for the same cores and MongoDB.
 *
 * Counts only ever go up ($max), so a batch written late or twice does no harm; a count not
 * yet written when a worker dies undercounts, which can hide a loss but never invent one.
 * The worker writes what is pending when it stops (worker.ts).
 */
import type { AnyBulkWriteOperation } from 'mongoose';
import type { Logger } from 'pino';
import type { Models } from '../../db/models';

// 3 s, not 1 s: at 50 turns at once on one FerretDB, the per-second writes were the largest
// MongoDB cost (30.8 s of MongoDB time over the 50 turns; 19.3 s at 3 s) and pushed time to
// first token from 2.80× to 3.25× a lone turn's (bench:turn --concurrency 50).
export const LEDGER_INTERVAL_MS = 3000;

interface Writer {
  models: Models;
  logger: Logger;
}

export class StreamLedgerBatch {
  /** Stream key → slot → the highest count not yet on record. */
  private pending = new Map<string, Map<number, number>>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private writer: Writer | null = null;

  constructor(private readonly intervalMs = LEDGER_INTERVAL_MS) {}

  /** Remembers a slot's count, to be written with the next batch. */
  note(writer: Writer, key: string, slot: number, count: number): void {
    this.writer = writer;
    const slots = this.pending.get(key) ?? new Map<number, number>();
    if ((slots.get(slot) ?? 0) >= count) return;
    slots.set(slot, count);
    this.pending.set(key, slots);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      // Nothing may escape a timer: a failed write is logged and kept (write below).
      this.flush().catch(() => undefined);
    }, this.intervalMs);
    // A worker that stops writes what is pending itself; the timer must not keep a process up.
    this.timer.unref();
  }

  /** Writes every pending count now, after a write already under way; resolves when done. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.pending.size === 0 || !this.writer) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.pending;
    this.pending = new Map();
    this.writing = this.write(this.writer, batch).finally(() => (this.writing = null));
    await this.writing;
  }

  private async write({ models, logger }: Writer, batch: Map<string, Map<number, number>>): Promise<void> {
    const ops: AnyBulkWriteOperation[] = [...batch].map(([key, slots]) => ({
      updateOne: {
        filter: { _id: key },
        update: { $max: Object.fromEntries([...slots].map(([slot, n]) => [`slots.${slot}`, n])) },
        upsert: true,
      },
    }));
    try {
      await models.StreamLedger.bulkWrite(ops, { ordered: false });
    } catch (err) {
      // Kept for the next batch, an interval later: a MongoDB outage must not become a retry loop.
      logger.warn({ err, streams: batch.size }, 'could not record stream slot counts');
      for (const [key, slots] of batch) for (const [slot, n] of slots) this.note({ models, logger }, key, slot, n);
    }
  }
}
