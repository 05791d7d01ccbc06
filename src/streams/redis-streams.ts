/**
 * Redis Streams: one stream per turn and per job.
 *
 * Ids are explicit and deterministic: `<slot>-<index>`. The workflow hands every activity
 * that publishes a fresh `slot` (a counter in workflow state, so it survives replay), and
 * the activity numbers its events from 0. A retried activity therefore re-publishes the
 * same ids, and Redis rejects an id that is not above the stream's top: a retried publish
 * cannot duplicate an event. An LLM step retried after a crash cannot reproduce the model's
 * tokens, so it continues after the last id of its slot and announces itself first:
 * `step_resumed` (it goes on from its text) or `step_retry` (it starts over: clients drop what
 * STEP_RETRY_VOIDS in src/core/step-retry.ts names, and the rest of the slot stands — the retry
 * never publishes it again).
 */
import type { ChainableCommander, Redis } from 'ioredis';
import { type AnyEventDraft, makeEvent, type StreamEvent, streamEventSchema } from '../core/events';

/** Field of the stream entry holding the JSON envelope (the session feed writes it too). */
export const STREAM_FIELD = 'e';
const FIELD = STREAM_FIELD;
/** `seq` = slot * SLOT_SPAN + index: strictly increasing, the same order as the stream ids. */
const SLOT_SPAN = 1_000_000;

export const turnStreamKey = (prefix: string, turnId: string): string => `${prefix}stream:turn:${turnId}`;
export const jobStreamKey = (prefix: string, jobId: string): string => `${prefix}stream:job:${jobId}`;

export interface StreamId {
  slot: number;
  index: number;
}

export function parseStreamId(id: string): StreamId | null {
  const m = /^(\d+)-(\d+)$/.exec(id);
  if (!m) return null;
  return { slot: Number(m[1]), index: Number(m[2]) };
}

export function compareStreamIds(a: string, b: string): number {
  const x = parseStreamId(a);
  const y = parseStreamId(b);
  if (!x || !y) throw new Error(`not a stream id: ${x ? b : a}`);
  return x.slot - y.slot || x.index - y.index;
}

function isDuplicateIdError(err: unknown): boolean {
  return err instanceof Error && /equal or smaller than the target stream top item/i.test(err.message);
}

/** Adds commands to the transaction that publishes a batch of events. */
export type Alongside = (tx: ChainableCommander) => void;

export interface PublisherOptions {
  maxLen: number;
  clock?: () => Date;
}

/** Publishes one activity's events into one stream under one slot. */
export class StreamPublisher {
  private nextIndex = 0;
  private readonly clock: () => Date;

  constructor(
    private readonly redis: Redis,
    readonly key: string,
    readonly slot: number,
    private readonly options: PublisherOptions,
  ) {
    if (!Number.isInteger(slot) || slot < 1) throw new Error(`stream slot must be a positive integer, got ${slot}`);
    this.clock = options.clock ?? (() => new Date());
  }

  /** Events numbered in this slot so far (the next index): with no loss, the slot holds indexes 0 … count-1. */
  get count(): number {
    return this.nextIndex;
  }

  /**
   * Moves past whatever an earlier attempt of this activity already published, so new
   * (non-reproducible) events get fresh ids. Deterministic events published before this
   * call keep their ids and are deduplicated by Redis.
   */
  async continueAfterExisting(): Promise<void> {
    const top = await this.redis.xrevrange(this.key, `${this.slot}-${SLOT_SPAN - 1}`, `${this.slot}-0`, 'COUNT', 1);
    const last = top[0] ? parseStreamId(top[0][0]) : null;
    if (last && last.slot === this.slot) this.nextIndex = Math.max(this.nextIndex, last.index + 1);
  }

  /** The events this slot holds (an earlier attempt's), in order. */
  async slotEvents(): Promise<StreamEvent[]> {
    const raw = await this.redis.xrange(this.key, `${this.slot}-0`, `${this.slot}-${SLOT_SPAN - 1}`);
    return toEntries(raw).map((e) => e.event);
  }

  /**
   * Numbers the next event `index` of this slot: a resumed step republishes its tool cards
   * at the positions its first attempt used, so those already written are deduplicated.
   */
  resumeAt(index: number): void {
    this.nextIndex = index;
  }

  /**
   * Appends events in one round trip. Returns the ids that were new; ids an earlier
   * attempt already wrote are skipped silently (that is the idempotency).
   */
  async publish(drafts: AnyEventDraft[], alongside?: Alongside): Promise<string[]> {
    if (drafts.length === 0 && !alongside) return [];
    const ts = this.clock().toISOString();
    // Writes that must land with the events or not at all (an LLM step's text checkpoint) make
    // it a transaction: a worker killed mid-write leaves both or neither.
    const pipeline = alongside ? this.redis.multi() : this.redis.pipeline();
    const ids: string[] = [];
    for (const d of drafts) {
      const index = this.nextIndex++;
      if (index >= SLOT_SPAN) throw new Error(`more than ${SLOT_SPAN} events in slot ${this.slot}`);
      const id = `${this.slot}-${index}`;
      const event = makeEvent(d, this.slot * SLOT_SPAN + index, ts);
      ids.push(id);
      pipeline.xadd(this.key, 'MAXLEN', '~', this.options.maxLen, id, FIELD, JSON.stringify(event));
    }
    alongside?.(pipeline);
    const results = (await pipeline.exec()) ?? [];
    const written: string[] = [];
    results.forEach(([err], i) => {
      if (i >= ids.length) {
        if (err) throw err;
      } else if (!err) written.push(ids[i]!);
      else if (!isDuplicateIdError(err)) throw err;
    });
    return written;
  }
}

/** After the terminal event: the stream lives on for late clients, then expires. */
export async function expireStream(redis: Redis, key: string, ttlSeconds: number): Promise<void> {
  await redis.expire(key, ttlSeconds);
}

export interface StreamEntry {
  id: string;
  event: StreamEvent;
}

function toEntries(raw: [string, string[]][]): StreamEntry[] {
  return raw.map(([id, fields]) => {
    const idx = fields.indexOf(FIELD);
    return { id, event: streamEventSchema.parse(JSON.parse(fields[idx + 1] ?? 'null')) };
  });
}

/** Entries strictly after `afterId` (or from the start), up to `count`. */
export async function readRange(
  redis: Redis,
  key: string,
  afterId: string | null,
  count = 1000,
): Promise<StreamEntry[]> {
  const start = afterId ? `(${afterId}` : '-';
  return toEntries(await redis.xrange(key, start, '+', 'COUNT', count));
}

/** Blocks up to `blockMs` for entries after `afterId`. Use a dedicated connection: it blocks. */
export async function readBlocking(
  redis: Redis,
  key: string,
  afterId: string,
  blockMs: number,
  count = 1000,
): Promise<StreamEntry[]> {
  const res = (await redis.xread('COUNT', count, 'BLOCK', blockMs, 'STREAMS', key, afterId)) as
    [string, [string, string[]][]][] | null;
  return res?.[0] ? toEntries(res[0][1]) : [];
}

export interface StreamInfo {
  exists: boolean;
  firstId: string | null;
  lastId: string | null;
  /**
   * Highest id removed by XDEL. Redis does NOT set it when MAXLEN/XTRIM trims the head
   * (checked on Redis 7.0): use {@link missedAfter}, which also looks at `entriesAdded`.
   */
  maxDeletedId: string | null;
  /** Entries currently held. */
  length?: number;
  /** Entries ever added (Redis ≥ 7); more than `length` means some were trimmed or deleted. */
  entriesAdded?: number | null;
}

/**
 * True when a client that has seen everything up to `cursor` (null: nothing yet) may have
 * missed entries the stream no longer holds. Trimming removes the oldest entries, so a
 * cursor below the first remaining entry of a stream that lost entries is a gap.
 * Conservative at the edge: a cursor equal to the last trimmed id also counts, because
 * Redis does not record that id.
 */
export function missedAfter(info: StreamInfo, cursor: string | null): boolean {
  if (!info.exists) return false;
  if (info.maxDeletedId && (cursor === null || compareStreamIds(cursor, info.maxDeletedId) < 0)) return true;
  // Redis < 7 has no `entries-added`: only a client claiming an id below the head looks like a gap.
  const lost = typeof info.entriesAdded === 'number' ? info.entriesAdded > (info.length ?? 0) : cursor !== null;
  if (!lost) return false;
  // Every remaining entry is newer than every lost one.
  if (info.firstId === null)
    return cursor === null || (info.lastId !== null && compareStreamIds(cursor, info.lastId) < 0);
  return cursor === null || compareStreamIds(cursor, info.firstId) < 0;
}

export async function streamInfo(redis: Redis, key: string): Promise<StreamInfo> {
  let raw: unknown[];
  try {
    raw = (await redis.xinfo('STREAM', key)) as unknown[];
  } catch (err) {
    if (err instanceof Error && /no such key/i.test(err.message))
      return { exists: false, firstId: null, lastId: null, maxDeletedId: null };
    throw err;
  }
  const info = new Map<string, unknown>();
  for (let i = 0; i + 1 < raw.length; i += 2) info.set(String(raw[i]), raw[i + 1]);
  const entryId = (v: unknown): string | null => (Array.isArray(v) && typeof v[0] === 'string' ? v[0] : null);
  const maxDeleted = String(info.get('max-deleted-entry-id') ?? '0-0');
  return {
    exists: true,
    firstId: entryId(info.get('first-entry')),
    lastId: String(info.get('last-generated-id') ?? '') || null,
    maxDeletedId: maxDeleted === '0-0' ? null : maxDeleted,
    length: Number(info.get('length') ?? 0),
    entriesAdded: info.has('entries-added') ? Number(info.get('entries-added')) : null,
  };
}

/** The newest entry of a stream, or null when it is empty or gone. */
export async function lastEntry(redis: Redis, key: string): Promise<StreamEntry | null> {
  return toEntries(await redis.xrevrange(key, '+', '-', 'COUNT', 1))[0] ?? null;
}
