/**
 * Serves one Redis stream as Server-Sent Events: this module frames and writes; what the
 * stream can serve and its gap-checked reading are src/streams/reader.ts.
 *
 * - `id:` is the Redis stream id; `Last-Event-ID` (or `?after=`) resumes strictly after it.
 * - A client without an id gets the stream from its first event (late join).
 * - An id the stream can no longer answer for — trimmed, expired, or never issued — gets an
 *   explicit `reset` event pointing at the persisted state, then the response ends:
 *   never a silent gap.
 * - A client resuming after the terminal event gets `204 No Content`, which tells an
 *   EventSource to stop reconnecting.
 * - A keep-alive comment goes out whenever nothing was sent for `keepAliveMs`.
 * - The response ends right after `done`.
 * - Live entries come from a shared per-stream reader ({@link StreamHub}) by default, or
 *   from a reader connection of the client's own (`reader: 'dedicated'`). Either way the
 *   Redis reader is released as soon as the client goes away.
 */
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { draft, isTerminal, makeEvent, type StreamEvent, toSseFrame, toSseResetFrame } from '../core/events';
import { compareStreamIds, lastEntry, parseStreamId, readBlocking } from '../streams/redis-streams';
import { CheckedBacklog, RESET_REASONS, resumeVerdict } from '../streams/reader';
import { BadRequestError } from './errors';
import { hubFor, type LiveEntry, openReader, type StreamHub } from './stream-hub';
import { metrics } from '../observability/metrics';
import { trackSseClient } from '../observability/sse-clients';

export interface StreamSource {
  key: string;
  /** Where the final state can be read when the stream cannot serve the client. */
  stateUrl: string;
  /** True once the turn/job has ended (its terminal event was published). */
  hasEnded: () => Promise<boolean>;
  /**
   * Whether it had ended when the route read it a moment ago (to check who may read it). The
   * opening check uses that read: a client that connects before the turn's first event would
   * otherwise read the turn again at once. Later checks (at each keep-alive) call `hasEnded`.
   */
  endedWhenOpened?: boolean;
  envelope: { turnId?: string; jobId?: string; sessionId?: string };
  /** Events each publishing slot wrote, on record (slot → count): lets the route find events Redis lost. */
  publishedCounts?: () => Promise<ReadonlyMap<number, number>>;
}

export interface SseOptions {
  keepAliveMs: number;
  retryMs: number;
  clock: () => Date;
  /** `fanout` (default): one shared reader per stream per process. `dedicated`: one per client. */
  reader?: 'fanout' | 'dedicated';
  /** The hub to use in fanout mode; defaults to the process-wide hub of `redis`. */
  hub?: StreamHub;
}

export { RESET_REASONS };

/** A client this far behind is cut off; it reconnects with Last-Event-ID and loses nothing. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const BACKLOG_PAGE = 1000;

/** The id to resume after (`Last-Event-ID` wins over `?after=`); 400 when malformed. Routes call it before any lookup. */
export function resumeIdOf(req: Request): string | null {
  const header = req.headers['last-event-id'];
  const raw =
    (typeof header === 'string' && header.trim()) || (typeof req.query.after === 'string' ? req.query.after : '');
  if (!raw) return null;
  if (!parseStreamId(raw))
    throw new BadRequestError('Last-Event-ID / after must be a stream id like 12-3', undefined, 'invalid_event_id');
  return raw;
}

/** One client's response: writes, keep-alives, the cursor, and how it ends. */
class SseConnection {
  closed = false;
  cursor: string | null;
  private readonly keepAlive: NodeJS.Timeout;
  private readonly finished: Promise<void>;
  private resolveFinished!: () => void;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly res: Response,
    cursor: string | null,
    private readonly onIdle: () => Promise<void>,
    keepAliveMs: number,
  ) {
    this.cursor = cursor;
    this.finished = new Promise((r) => (this.resolveFinished = r));
    res.on('close', () => this.finish());
    // Re-armed on every write (refresh), so a comment follows at most keepAliveMs of silence.
    this.keepAlive = setTimeout(() => void this.idle(), keepAliveMs);
  }

  onFinish(fn: () => void): void {
    if (this.closed) fn();
    else this.cleanups.push(fn);
  }

  /** Resolves when the response is over (terminal event, reset, or the client left). */
  wait(): Promise<void> {
    return this.finished;
  }

  private write(chunk: string): boolean {
    if (this.closed) return false;
    this.res.write(chunk);
    this.keepAlive.refresh();
    return true;
  }

  /**
   * Sends the entries above the cursor as one write (one syscall per batch, not per event),
   * up to and including a terminal one. True when the stream is over for this client.
   */
  send(entries: readonly { id: string; frame: string; event: Pick<StreamEvent, 'type'> }[]): boolean {
    if (this.closed) return true;
    let chunk = '';
    let terminal = false;
    for (const e of entries) {
      if (this.cursor !== null && compareStreamIds(e.id, this.cursor) <= 0) continue;
      this.cursor = e.id;
      chunk += e.frame;
      if (isTerminal(e.event)) {
        terminal = true;
        break;
      }
    }
    if (chunk) this.write(chunk);
    if (terminal) this.finish();
    return this.closed;
  }

  /**
   * Live entries cannot wait for a slow socket (the shared reader serves everyone), so a
   * client already this far behind is cut off instead of buffering without bound; it
   * reconnects with Last-Event-ID and catches up from Redis at its own pace.
   */
  sendLive = (batch: LiveEntry[]): void => {
    if (this.res.writableLength > MAX_BUFFERED_BYTES) this.finish();
    else this.send(batch);
  };

  reset(frame: string): void {
    this.write(frame);
    this.finish();
  }

  /** Waits for the socket to take more, so a dedicated reader never outruns a slow client. */
  async drained(): Promise<void> {
    if (this.closed || !this.res.writableNeedDrain) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  private async idle(): Promise<void> {
    if (!this.write(': keep-alive\n\n')) return;
    try {
      await this.onIdle();
    } catch {
      // A failed check is retried at the next keep-alive; the stream itself is unaffected.
    }
  }

  finish(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.keepAlive);
    for (const fn of this.cleanups.splice(0)) fn();
    if (!this.res.writableEnded) this.res.end();
    this.resolveFinished();
  }
}

export async function serveSse(
  req: Request,
  res: Response,
  redis: Redis,
  source: StreamSource,
  opts: SseOptions,
): Promise<void> {
  const cursor = resumeIdOf(req);
  const { endedWhenOpened } = source;
  const verdict = await resumeVerdict(
    redis,
    source.key,
    cursor,
    endedWhenOpened === undefined ? source.hasEnded : async () => endedWhenOpened,
  );
  if (verdict.kind === 'finished') {
    res.status(204).end();
    return;
  }
  openEventStream(res, opts.retryMs);

  const resetFrame = resetFrameOf(source, opts.clock);
  const checkIdle = endedWithoutDoneCheck(redis, source, resetFrame);
  const conn = new SseConnection(res, cursor, (): Promise<void> => checkIdle(conn), opts.keepAliveMs);
  conn.onFinish(trackSseClient(opts.reader ?? 'fanout', (frame) => conn.reset(frame)));
  if (verdict.kind === 'reset') {
    conn.reset(resetFrame(verdict.reason, verdict.lastAvailableId));
    return;
  }

  const sendBacklog = await backlogSender(redis, source, conn, cursor, resetFrame);
  try {
    if (opts.reader === 'dedicated') await followDedicated(redis, source.key, conn, sendBacklog, opts.keepAliveMs);
    else await followShared(opts.hub ?? hubFor(redis), source.key, conn, sendBacklog);
  } catch (err) {
    // A client that left mid-read closes its reader under XREAD: not an error.
    if (!conn.closed) throw err;
  } finally {
    conn.finish();
  }
}

/** The 200 of an event stream: its headers, sent at once, and the client's reconnect delay. */
function openEventStream(res: Response, retryMs: number): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.write(`retry: ${retryMs}\n\n`);
}

type ResetFrame = (reason: string, lastAvailableId: string | null) => string;

/** A `reset` event's frame for this stream (counted in the metrics), pointing at the persisted state. */
function resetFrameOf(source: StreamSource, clock: () => Date): ResetFrame {
  return (reason, lastAvailableId) => {
    metrics.resetsSent.inc({ reason });
    return toSseResetFrame(
      makeEvent(
        { ...draft('reset', { reason, stateUrl: source.stateUrl, lastAvailableId }), ...source.envelope },
        0,
        clock().toISOString(),
      ),
    );
  };
}

/**
 * On every keep-alive: a stream that expired, or a turn that ended without `done`
 * (its worker was terminated), would otherwise keep a silent client forever.
 * Finalize records the final status a moment before it publishes `done`, so one look
 * can land in between: only a stream whose top is still the same non-terminal entry at
 * the next keep-alive ended without `done`.
 */
function endedWithoutDoneCheck(
  redis: Redis,
  source: StreamSource,
  resetFrame: ResetFrame,
): (conn: SseConnection) => Promise<void> {
  let suspect: string | null | undefined;
  return async (conn) => {
    if (conn.closed || !(await source.hasEnded())) return;
    const last = await lastEntry(redis, source.key);
    if (conn.closed || (last && isTerminal(last.event))) return;
    const top = last?.id ?? null;
    if (suspect !== top) {
      suspect = top;
      return;
    }
    if (!last) conn.reset(resetFrame(RESET_REASONS.expired, null));
    else conn.reset(resetFrame(RESET_REASONS.endedWithoutDone, last.id));
  };
}

/** The stored entries after the cursor, read page by page and checked for gaps against the counts on record. */
async function backlogSender(
  redis: Redis,
  source: StreamSource,
  conn: SseConnection,
  cursor: string | null,
  resetFrame: ResetFrame,
): Promise<() => Promise<boolean>> {
  // Loaded before the first read: every count on record was in Redis by then, unless lost.
  const backlog = new CheckedBacklog(
    redis,
    source.key,
    source.publishedCounts ? await source.publishedCounts() : new Map(),
    cursor,
    BACKLOG_PAGE,
  );
  const declareLost = async (): Promise<true> => {
    conn.reset(resetFrame(RESET_REASONS.lostEvents, (await lastEntry(redis, source.key))?.id ?? null));
    return true;
  };

  /** Sends stored entries after the cursor; true when the stream is over for this client. */
  return async (): Promise<boolean> => {
    for (;;) {
      const page = await backlog.after(conn.cursor);
      metrics.backlogReads.inc();
      if (conn.send(page.entries.map(({ id, event }) => ({ id, event, frame: toSseFrame(id, event) })))) return true;
      // Up to the hole the stream is good; past it, the client must reload the persisted state.
      if (page.lost) return declareLost();
      if (page.atEnd) return conn.closed;
      await conn.drained();
    }
  };
}

async function followShared(
  hub: StreamHub,
  key: string,
  conn: SseConnection,
  sendBacklog: () => Promise<boolean>,
): Promise<void> {
  // A finished turn is served from the backlog alone, without starting a live reader.
  if (await sendBacklog()) return;
  const pending: LiveEntry[][] = [];
  let catchingUp = true;
  const unsubscribe = await hub.subscribe(key, (e) => (catchingUp ? pending.push(e) : conn.sendLive(e)));
  conn.onFinish(unsubscribe);
  // Entries published between the first backlog read and the subscription.
  if (await sendBacklog()) return;
  // Synchronous from here on: nothing the tail delivers can slip between flush and switch.
  catchingUp = false;
  for (const batch of pending.splice(0)) conn.sendLive(batch);
  await conn.wait();
}

async function followDedicated(
  redis: Redis,
  key: string,
  conn: SseConnection,
  sendBacklog: () => Promise<boolean>,
  blockMs: number,
): Promise<void> {
  if (await sendBacklog()) return;
  const reader = openReader(redis, key);
  conn.onFinish(() => reader.disconnect());
  while (!conn.closed) {
    const entries = await readBlocking(reader, key, conn.cursor ?? '0-0', blockMs);
    if (conn.send(entries.map(({ id, event }) => ({ id, event, frame: toSseFrame(id, event) })))) return;
    await conn.drained();
  }
}
