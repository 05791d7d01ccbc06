/**
 * What activities tell a session's feed (src/streams/session-feed.ts): every item carries a
 * key made only of ids the workflow fixed (turn, approval, job, slot), so an activity that
 * Temporal retries publishes the same keys and the feed keeps one of each.
 */
import { type AnyEventDraft, draft } from '../../core/events';
import { type FeedItem, publishToSessionFeed } from '../../streams/session-feed';
import type { ActivityDeps } from '../deps';

export async function toSessionFeed(
  deps: Pick<ActivityDeps, 'redis' | 'config' | 'clock'>,
  sessionId: string,
  items: FeedItem[],
): Promise<void> {
  await publishToSessionFeed(deps.redis, deps.config.REDIS_KEY_PREFIX, sessionId, items, {
    maxLen: deps.config.STREAM_MAXLEN,
    ttlSeconds: deps.config.SESSION_FEED_TTL_SECONDS,
    clock: deps.clock,
  });
}

type TurnRef = { turnId: string; jobId?: string | null };
const turnEnvelope = (t: TurnRef) => ({ turnId: t.turnId, ...(t.jobId ? { jobId: t.jobId } : {}) });

/** The feed's items of a turn's start and end, and of an approval's request and decision. */
export const feedItems = {
  turnStarted: (t: TurnRef & { sessionId: string }): FeedItem => ({
    key: `turn:${t.turnId}:started`,
    event: draft('turn_started', { sessionId: t.sessionId }, turnEnvelope(t)),
  }),
  turnFinished: (t: TurnRef & { status: string; stopReason?: string | null }): FeedItem => ({
    key: `turn:${t.turnId}:finished`,
    event: draft('turn_finished', { status: t.status, stopReason: t.stopReason ?? null }, turnEnvelope(t)),
  }),
  /** The same event the turn's stream got (approval_requested / approval_decided), keyed by approval. */
  approval: (t: TurnRef, approvalId: string, event: AnyEventDraft): FeedItem => ({
    key: `turn:${t.turnId}:approval:${approvalId}:${event.type}`,
    event: { ...event, ...turnEnvelope(t) },
  }),
  /**
   * A job event mirrored from the job's stream: keyed by the job's stream slot (one per
   * activity call, fixed by the workflow) and the event's place in that call.
   */
  job: (jobId: string, slot: number, index: number, event: AnyEventDraft): FeedItem => ({
    key: `job:${jobId}:${slot}:${index}:${event.type}`,
    event: { ...event, jobId },
  }),
};
