/**
 * The session feed: one Redis stream per session telling every open client what happens in
 * it (turns started and finished, approvals asked and decided, job progress).
 *
 * Unlike a turn's or job's stream, many independent writers publish here (each turn's
 * activities, each job's), so ids cannot be the `<slot>-<index>` a single workflow hands out:
 * Redis assigns them (`<ms>-<n>`, which the SSE route reads and resumes by like any other).
 * Idempotency comes from a deterministic event key instead: a Lua script adds the entry only
 * when the key is not yet in the session's "once" hash, and records it in the same atomic
 * step, so an activity retried after a crash cannot publish its event twice, and a crash
 * between the check and the write cannot lose it.
 */
import type { Redis } from 'ioredis';
import { type AnyEventDraft, makeEvent } from '../core/events';
import { STREAM_FIELD } from './redis-streams';

/** `{sessionId}` is a Redis Cluster hash tag: the script's two keys always live in one slot. */
export const sessionFeedKey = (prefix: string, sessionId: string): string => `${prefix}stream:session:{${sessionId}}`;
/** The hash of event keys already published (and the `#seq` counter), beside the stream. */
const onceKey = (streamKey: string): string => `${streamKey}:once`;

/** One event with the key that makes it unique (`turn:<id>:finished`, …). */
export interface FeedItem {
  key: string;
  event: AnyEventDraft;
}

export interface FeedOptions {
  maxLen: number;
  /** Stream and once-hash live this long after the session's last event. */
  ttlSeconds: number;
  clock: () => Date;
}

/**
 * KEYS[1] stream, KEYS[2] once-hash; ARGV[1] event key, ARGV[2] the event's JSON without its
 * opening brace, ARGV[3] MAXLEN, ARGV[4] TTL, ARGV[5] field name. `seq` is stamped here,
 * from a counter in the once-hash, so it rises in stream order whoever publishes.
 */
const PUBLISH_ONCE = `
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
local seq = redis.call('HINCRBY', KEYS[2], '#seq', 1)
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', ARGV[5], '{"seq":' .. seq .. ',' .. ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], id)
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 1
`;

/**
 * Publishes each item once per session, in order (one pipeline: Redis runs the scripts in
 * the order sent). Returns how many were new. Events are validated against the contract
 * first: a bad event is a bug, and none of the batch is written.
 */
export async function publishToSessionFeed(
  redis: Redis,
  prefix: string,
  sessionId: string,
  items: FeedItem[],
  opts: FeedOptions,
): Promise<number> {
  if (items.length === 0) return 0;
  const key = sessionFeedKey(prefix, sessionId);
  const ts = opts.clock().toISOString();
  const bodies = items.map(({ event }) => {
    // `seq` is the script's; 0 only passes validation here and is left out of the JSON.
    const { seq: _seq, ...rest } = makeEvent({ ...event, sessionId }, 0, ts);
    return JSON.stringify(rest).slice(1);
  });
  const pipeline = redis.pipeline();
  items.forEach((item, i) =>
    pipeline.eval(PUBLISH_ONCE, 2, key, onceKey(key), item.key, bodies[i]!, opts.maxLen, opts.ttlSeconds, STREAM_FIELD),
  );
  const results = (await pipeline.exec()) ?? [];
  let added = 0;
  for (const [err, value] of results) {
    if (err) throw err;
    added += Number(value);
  }
  return added;
}
