/**
 * Reads started ahead of the activity that needs them, in the same worker (prepareTurn starts
 * the context's and the router's while the turn opens): kept briefly by key and taken once.
 * Only ever a shortcut: a read that failed, expired or ran in another worker is done again
 * by the taker, and a retried activity (the entry is gone) reads anew.
 */
import { LRUCache } from 'lru-cache';
import { quiet } from '../core/quiet';

export class EarlyReads<T extends object> {
  private readonly pending: LRUCache<string, Promise<T>>;

  constructor(opts: { max: number; ttlMs: number }) {
    this.pending = new LRUCache({ max: opts.max, ttl: opts.ttlMs });
  }

  /** Keeps a read that has started (not awaited: a failure only means the taker reads itself). */
  start(key: string, reads: Promise<T>): void {
    this.pending.set(key, quiet(reads));
  }

  /** Whether a read started under `key` is held (not yet taken or expired). */
  holds(key: string): boolean {
    return this.pending.has(key);
  }

  /**
   * Resolves once every read held now has finished (failed ones included): what a worker, or a
   * test, awaits before closing the connections those reads use, so none is left waiting on a
   * closed client.
   */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending.values()]);
  }

  /** The read started under `key`, taken once; otherwise (or if it failed) `readNow`. */
  async take<R>(key: string, readNow: () => Promise<R>): Promise<T | R> {
    const early = this.pending.get(key);
    this.pending.delete(key);
    if (early) {
      try {
        return await early;
      } catch {
        // Read again below.
      }
    }
    return readNow();
  }
}
