/**
 * activities/stream/: how activities put events on a turn's or a job's Redis stream and on a
 * session's feed: the publisher that keeps its count on record (publish.ts), token events
 * gathered into batches (batching-publisher.ts), the counts written in one batch per worker
 * (stream-ledger-batch.ts), and the feed's keyed items (session-feed.ts). The streams
 * themselves (keys, reads, the feed) are in src/streams/.
 */
import {
  type Alongside,
  jobStreamKey,
  StreamPublisher,
  turnStreamKey,
  expireStream,
} from '../../streams/redis-streams';
import type { AnyEventDraft } from '../../core/events';
import type { PublishInput } from '../../core/turn/turn-types';
import { observeEvents } from '../../observability/event-metrics';
import type { ActivityDeps } from '../deps';

export function streamKeyFor(deps: ActivityDeps, kind: 'turn' | 'job', id: string): string {
  return kind === 'turn'
    ? turnStreamKey(deps.config.REDIS_KEY_PREFIX, id)
    : jobStreamKey(deps.config.REDIS_KEY_PREFIX, id);
}

/**
 * A publisher that also records, in MongoDB, how many events its slot has in Redis. Redis
 * (AOF `everysec`) can lose its last second of writes in a crash; the publisher does not
 * notice and numbers on, so a slot ends up with a hole a reader cannot see. With the count
 * on record, the SSE route can tell a lost event from one never written (src/api/stream-gaps.ts).
 *
 * The record is written after Redis acknowledged the events and off the publishing path, so
 * token streaming does not wait on MongoDB. It only ever undercounts (a worker that dies
 * before the write lands), which can hide a loss but never invent one — so it need not keep
 * up with every batch: counts go to the worker's batch (stream-ledger-batch.ts), written for
 * all its streams at most once per interval, and {@link CountingPublisher.settle} (a step's
 * or a turn's end) writes them now.
 */
export class CountingPublisher extends StreamPublisher {
  private noted = 0;

  constructor(
    private readonly deps: ActivityDeps,
    key: string,
    slot: number,
  ) {
    super(deps.redis, key, slot, { maxLen: deps.config.STREAM_MAXLEN, clock: deps.clock });
  }

  override async publish(drafts: AnyEventDraft[], alongside?: Alongside): Promise<string[]> {
    const written = await super.publish(drafts, alongside);
    // Duplicates of an earlier attempt are always a prefix: the new events are the tail (metrics count them once).
    observeEvents(drafts.slice(drafts.length - written.length));
    if (this.count > this.noted) {
      this.noted = this.count;
      this.deps.caches.streamLedger.note(this.deps, this.key, this.slot, this.count);
    }
    return written;
  }

  /** Writes the counts not yet on record now (the end of a streamed step or of a turn), and waits for it. */
  async settle(): Promise<void> {
    await this.deps.caches.streamLedger.flush();
  }
}

export function publisherFor(deps: ActivityDeps, kind: 'turn' | 'job', id: string, slot: number): CountingPublisher {
  return new CountingPublisher(deps, streamKeyFor(deps, kind, id), slot);
}

/** Publishes workflow-level events (agent switches, progress, done) in the workflow's slot. */
export function createPublishActivities(deps: ActivityDeps) {
  return {
    async publishEvents(input: PublishInput): Promise<void> {
      await publisherFor(deps, input.streamKind, input.streamId, input.slot).publish(input.events);
      if (input.final)
        await expireStream(
          deps.redis,
          streamKeyFor(deps, input.streamKind, input.streamId),
          deps.config.STREAM_TTL_SECONDS,
        );
    },
  };
}
