import { jobStreamKey, StreamPublisher, turnStreamKey, expireStream } from '../streams/redis-streams';
import type { AnyEventDraft } from '../events/contract';
import type { PublishInput } from '../shared/turn-types';
import { observeEvents } from '../observability/event-metrics';
import type { ActivityDeps } from './deps';

export function streamKeyFor(deps: ActivityDeps, kind: 'turn' | 'job', id: string): string {
  return kind === 'turn' ? turnStreamKey(deps.config.REDIS_KEY_PREFIX, id) : jobStreamKey(deps.config.REDIS_KEY_PREFIX, id);
}

/**
 * A publisher that also records, in MongoDB, how many events its slot has in Redis. Redis
 * (AOF `everysec`) can lose its last second of writes in a crash; the publisher does not
 * notice and numbers on, so a slot ends up with a hole a reader cannot see. With the count
 * on record, the SSE route can tell a lost event from one never written (src/api/stream-gaps.ts).
 *
 * The record is written after Redis acknowledged the events and off the publishing path
 * (one write in flight per publisher; later counts coalesce), so token streaming does not
 * wait on MongoDB. It only ever undercounts (a worker that dies before the write lands), which
 * can hide a loss but never invent one.
 */
class CountingPublisher extends StreamPublisher {
  private recorded = 0;
  private target = 0;
  private writing: Promise<void> | null = null;

  constructor(
    private readonly deps: ActivityDeps,
    key: string,
    slot: number,
  ) {
    super(deps.redis, key, slot, { maxLen: deps.config.STREAM_MAXLEN, clock: deps.clock });
  }

  override async publish(drafts: AnyEventDraft[]): Promise<string[]> {
    const written = await super.publish(drafts);
    // Duplicates of an earlier attempt are always a prefix: the new events are the tail (metrics count them once).
    observeEvents(drafts.slice(drafts.length - written.length));
    if (this.count > this.target) {
      this.target = this.count;
      this.writing ??= this.record();
    }
    return written;
  }

  private async record(): Promise<void> {
    try {
      while (this.recorded < this.target) {
        const n = this.target;
        await this.deps.models.StreamLedger.updateOne({ _id: this.key }, { $max: { [`slots.${this.slot}`]: n } }, { upsert: true });
        this.recorded = n;
      }
    } catch (err) {
      this.deps.logger.warn({ err, key: this.key, slot: this.slot }, 'could not record the stream slot count');
    } finally {
      this.writing = null;
    }
  }
}

export function publisherFor(deps: ActivityDeps, kind: 'turn' | 'job', id: string, slot: number): StreamPublisher {
  return new CountingPublisher(deps, streamKeyFor(deps, kind, id), slot);
}

/** Publishes workflow-level events (agent switches, progress, done) in the workflow's slot. */
export function createPublishActivities(deps: ActivityDeps) {
  return {
    async publishEvents(input: PublishInput): Promise<void> {
      await publisherFor(deps, input.streamKind, input.streamId, input.slot).publish(input.events);
      if (input.final) await expireStream(deps.redis, streamKeyFor(deps, input.streamKind, input.streamId), deps.config.STREAM_TTL_SECONDS);
    },
  };
}
