/**
 * Serves one Redis stream as Server-Sent Events.
 *
 * - `id:` is the Redis stream id; `Last-Event-ID` (or `?after=`) resumes strictly after it.
 * - A client without an id gets the stream from its first event (late join).
 * - An id older than what the stream still holds (trimmed, or the stream expired) gets an
 *   explicit `reset` event pointing at the persisted state, then the response ends:
 *   never a silent gap.
 * - A keep-alive comment goes out whenever nothing was sent for SSE_KEEPALIVE_MS.
 * - Each client reads with its own Redis connection (XREAD BLOCK blocks it); the
 *   connection is closed when the client goes away.
 */
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { draft, makeEvent, toSseFrame, toSseResetFrame } from '../events/contract';
import { compareStreamIds, parseStreamId, readBlocking, readRange, streamInfo } from '../streams/redis-streams';
import { BadRequestError } from './errors';

export interface StreamSource {
  key: string;
  /** Where the final state can be read when the stream cannot serve the client. */
  stateUrl: string;
  /** True once the turn/job has ended (its terminal event was published). */
  hasEnded: () => Promise<boolean>;
  envelope: { turnId?: string; jobId?: string };
}

export interface SseOptions {
  keepAliveMs: number;
  retryMs: number;
  clock: () => Date;
}

function resumeIdOf(req: Request): string | null {
  const header = req.headers['last-event-id'];
  const raw = (typeof header === 'string' && header.trim()) || (typeof req.query.after === 'string' ? req.query.after : '');
  if (!raw) return null;
  if (!parseStreamId(raw)) throw new BadRequestError('Last-Event-ID / after must be a stream id like 12-3', undefined, 'invalid_event_id');
  return raw;
}

export async function serveSse(req: Request, res: Response, redis: Redis, source: StreamSource, opts: SseOptions): Promise<void> {
  let cursor = resumeIdOf(req);
  const reader = redis.duplicate({ lazyConnect: true, enableOfflineQueue: true, maxRetriesPerRequest: null });
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    reader.disconnect();
  };
  req.on('close', close);

  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.write(`retry: ${opts.retryMs}\n\n`);

  const reset = (reason: string, lastAvailableId: string | null): void => {
    const event = makeEvent(
      { ...draft('reset', { reason, stateUrl: source.stateUrl, lastAvailableId }), ...source.envelope },
      0,
      opts.clock().toISOString(),
    );
    res.write(toSseResetFrame(event));
  };

  try {
    const info = await streamInfo(redis, source.key);
    if (info.exists && cursor && info.maxDeletedId && compareStreamIds(cursor, info.maxDeletedId) <= 0) {
      reset('events after your last id were trimmed from the live stream', info.lastId);
      return;
    }
    if (!info.exists && (await source.hasEnded())) {
      reset('the live stream has expired; the final state is persisted', null);
      return;
    }
    // First the backlog (late join or resume), then block for new entries.
    let lastSent = Date.now();
    for (;;) {
      if (closed) return;
      const entries = cursor === null ? await readRange(redis, source.key, null) : await readBlocking(reader, source.key, cursor, opts.keepAliveMs);
      if (closed) return;
      for (const { id, event } of entries) {
        res.write(toSseFrame(id, event));
        cursor = id;
        if (event.type === 'done') return;
      }
      if (entries.length > 0) {
        lastSent = Date.now();
        continue;
      }
      if (cursor === null) cursor = '0-0';
      if (Date.now() - lastSent >= opts.keepAliveMs - 5) {
        res.write(': keep-alive\n\n');
        lastSent = Date.now();
        // The stream may have expired under a silent client: do not wait forever.
        if (!(await streamInfo(redis, source.key)).exists && (await source.hasEnded())) {
          reset('the live stream has expired; the final state is persisted', null);
          return;
        }
      }
    }
  } catch (err) {
    // A client that left mid-read closes the reader under XREAD: not an error.
    if (!closed) throw err;
  } finally {
    close();
    if (!res.writableEnded) res.end();
  }
}
