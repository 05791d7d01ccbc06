/**
 * Reading a turn's or job's stream for a client that resumes after an id: whether the stream
 * can still serve it at all ({@link resumeVerdict}), then its stored entries page by page,
 * checked for events Redis lost ({@link CheckedBacklog}). The SSE route (src/api/sse.ts)
 * only frames what these return; any gap becomes an explicit `reset`, never a silent hole.
 */
import type { Redis } from 'ioredis';
import { isTerminal } from '../core/events';
import { GapTracker } from './gaps';
import { compareStreamIds, lastEntry, missedAfter, readRange, type StreamEntry, streamInfo } from './redis-streams';

/** Why a stream cannot serve a client (the `reason` of a `reset`): stable codes clients may switch on. */
export const RESET_REASONS = {
  trimmed: 'trimmed',
  expired: 'expired',
  unknownId: 'unknown_event_id',
  endedWithoutDone: 'ended_without_done',
  lostEvents: 'lost_events',
} as const;

export type ResumeVerdict =
  { kind: 'serve' } | { kind: 'finished' } | { kind: 'reset'; reason: string; lastAvailableId: string | null };

/**
 * Decides, before any byte is sent, whether the stream can serve a client resuming at
 * `cursor` (null: from the first event): serve it, tell it the stream is over (it already has
 * the terminal event), or reset it (trimmed, expired, or an id the stream never issued).
 */
export async function resumeVerdict(
  redis: Redis,
  key: string,
  cursor: string | null,
  hasEnded: () => Promise<boolean>,
): Promise<ResumeVerdict> {
  const info = await streamInfo(redis, key);
  if (!info.exists) {
    // No stream and the turn is over: it expired. No stream yet but an id: it was never ours.
    if (await hasEnded()) return { kind: 'reset', reason: RESET_REASONS.expired, lastAvailableId: null };
    return cursor ? { kind: 'reset', reason: RESET_REASONS.unknownId, lastAvailableId: null } : { kind: 'serve' };
  }
  // A late joiner must get the turn from its first event: a trimmed head is a gap for it too.
  if (missedAfter(info, cursor)) return { kind: 'reset', reason: RESET_REASONS.trimmed, lastAvailableId: info.lastId };
  if (!cursor) return { kind: 'serve' };
  if (info.lastId && compareStreamIds(cursor, info.lastId) > 0)
    return { kind: 'reset', reason: RESET_REASONS.unknownId, lastAvailableId: info.lastId };
  if (info.lastId && compareStreamIds(cursor, info.lastId) === 0) {
    const last = await lastEntry(redis, key);
    if (last && last.id === cursor && isTerminal(last.event)) return { kind: 'finished' };
  }
  return { kind: 'serve' };
}

/** One page of stored entries, cut at the first gap. */
export interface BacklogPage {
  /** Entries after the cursor, up to (not including) a gap. */
  entries: StreamEntry[];
  /** Events are missing after `entries`: the client must reload the persisted state. */
  lost: boolean;
  /** Nothing more is stored after this page (for now). */
  atEnd: boolean;
}

/**
 * The stored entries after a cursor, read in order page by page and checked against the slot
 * counts on record (gaps.ts). The counts must be loaded before the first read: every count on
 * record was in Redis by then, unless lost.
 */
export class CheckedBacklog {
  private readonly gaps: GapTracker;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    counts: ReadonlyMap<number, number>,
    start: string | null,
    private readonly pageSize = 1000,
  ) {
    this.gaps = new GapTracker(counts, start);
  }

  /** The next page after `cursor` (the last id the client was sent). */
  async after(cursor: string | null): Promise<BacklogPage> {
    const entries = await readRange(this.redis, this.key, cursor, this.pageSize);
    const gapAt = this.gaps.check(entries.map((e) => e.id));
    const atEnd = entries.length < this.pageSize;
    if (gapAt >= 0) return { entries: entries.slice(0, gapAt), lost: true, atEnd };
    return { entries, lost: atEnd && this.gaps.missingAtEnd(), atEnd };
  }
}
