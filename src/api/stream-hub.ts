/**
 * Shared live readers: one XREAD BLOCK connection per followed stream per API process,
 * fanning every new entry out to all SSE clients of that stream.
 *
 * Why not one blocking connection per client: at 100 clients on one turn, each event then
 * costs 100 Redis replies, 100 zod parses and 100 JSON serialisations on this process's
 * single thread, and the last client in line waits for all of them (bench/sse-relay.ts
 * measures both). A tail parses an entry once and builds its SSE frame once.
 *
 * Resume semantics stay per client and live in `sse.ts`: a client attaches here first,
 * then reads its own backlog with XRANGE, then drops live entries at or below the last id
 * it sent — so attaching late can neither open a gap nor send a duplicate. That only holds
 * if the tail's starting point is fixed before the client reads its backlog: `subscribe`
 * resolves after it is.
 */
import type { Redis } from 'ioredis';
import { type StreamEvent, toSseFrame } from '../core/events';
import { readBlocking, streamInfo } from '../streams/redis-streams';
import { metrics } from '../observability/metrics';

/** A stream entry as the tail hands it out, with its SSE frame already built. */
export interface LiveEntry {
  id: string;
  event: StreamEvent;
  frame: string;
}

/** Receives the entries of one XREAD at a time (several under bursts), in stream order. */
export type LiveListener = (entries: LiveEntry[]) => void;

export interface StreamHubOptions {
  /** Upper bound of one XREAD BLOCK; the tail re-checks whether it is still wanted this often. */
  blockMs?: number;
  /** Called when a read fails (the tail retries after a short pause). */
  onError?: (err: unknown, key: string) => void;
}

const RETRY_PAUSE_MS = 200;

/** Redis CLIENT name of an SSE reader connection (lets tests and operators count them). */
export const readerConnectionName = (key: string): string => `sse:${key}`.replace(/\s/g, '_');

/** Opens a dedicated, lazily connected reader: XREAD BLOCK would stall any shared connection. */
export function openReader(redis: Redis, key: string): Redis {
  return redis.duplicate({
    lazyConnect: true,
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    connectionName: readerConnectionName(key),
  });
}

class Tail {
  readonly listeners = new Set<LiveListener>();
  readonly ready: Promise<void>;
  private readonly conn: Redis;
  private cursor = '0-0';
  private stopped = false;

  constructor(
    private readonly hub: StreamHub,
    readonly key: string,
    redis: Redis,
    private readonly opts: Required<Pick<StreamHubOptions, 'blockMs'>> & StreamHubOptions,
  ) {
    this.conn = openReader(redis, key);
    metrics.fanoutReaders.inc();
    this.ready = (async () => {
      // Everything up to the current top is in the backlog a subscriber reads next; the
      // tail only has to deliver what comes after it.
      this.cursor = (await streamInfo(redis, key)).lastId ?? '0-0';
    })();
    this.ready.then(
      () => void this.loop(),
      () => this.stop(),
    );
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let entries;
      try {
        entries = await readBlocking(this.conn, this.key, this.cursor, this.opts.blockMs);
      } catch (err) {
        if (this.stopped) return;
        this.opts.onError?.(err, this.key);
        await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS));
        continue;
      }
      if (entries.length === 0) continue;
      this.cursor = entries[entries.length - 1]!.id;
      // Built once for every client; handed over as one batch so each client gets one write.
      const batch: LiveEntry[] = entries.map(({ id, event }) => ({ id, event, frame: toSseFrame(id, event) }));
      // A copy: a listener that finishes on `done` unsubscribes while we iterate.
      for (const listener of [...this.listeners]) {
        try {
          listener(batch);
        } catch (err) {
          this.opts.onError?.(err, this.key);
        }
      }
    }
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    metrics.fanoutReaders.dec();
    // Disconnecting aborts the pending XREAD BLOCK: the connection is released at once.
    this.conn.disconnect();
    this.hub.forget(this);
  }
}

/** One per Redis client (see {@link hubFor}); tails live exactly as long as someone listens. */
export class StreamHub {
  private readonly tails = new Map<string, Tail>();
  private readonly opts: Required<Pick<StreamHubOptions, 'blockMs'>> & StreamHubOptions;

  constructor(
    private readonly redis: Redis,
    opts: StreamHubOptions = {},
  ) {
    this.opts = { blockMs: 5000, ...opts };
  }

  /**
   * Starts delivering entries published after this call's starting point to `listener`.
   * Resolves (with the unsubscribe function) once that point is fixed; read the backlog
   * only after that.
   */
  async subscribe(key: string, listener: LiveListener): Promise<() => void> {
    let tail = this.tails.get(key);
    if (!tail) {
      tail = new Tail(this, key, this.redis, this.opts);
      this.tails.set(key, tail);
    }
    const t = tail;
    t.listeners.add(listener);
    const unsubscribe = (): void => {
      t.listeners.delete(listener);
      if (t.listeners.size === 0) t.stop();
    };
    try {
      await t.ready;
    } catch (err) {
      unsubscribe();
      throw err;
    }
    return unsubscribe;
  }

  /** Streams with a live reader right now. */
  get activeStreams(): number {
    return this.tails.size;
  }

  /** @internal called by a tail that stopped. */
  forget(tail: Tail): void {
    if (this.tails.get(tail.key) === tail) this.tails.delete(tail.key);
  }
}

const hubs = new WeakMap<Redis, StreamHub>();

/** The process-wide hub of a Redis client, so every route following streams shares tails. */
export function hubFor(redis: Redis): StreamHub {
  let hub = hubs.get(redis);
  if (!hub) {
    hub = new StreamHub(redis);
    hubs.set(redis, hub);
  }
  return hub;
}
