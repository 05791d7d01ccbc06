import { jobStreamKey, StreamPublisher, turnStreamKey, expireStream } from '../streams/redis-streams';
import type { PublishInput } from '../shared/turn-types';
import type { AnyEventDraft } from '../events/contract';
import { observeEvents } from '../observability/event-metrics';
import type { ActivityDeps } from './deps';

export function streamKeyFor(deps: ActivityDeps, kind: 'turn' | 'job', id: string): string {
  return kind === 'turn' ? turnStreamKey(deps.config.REDIS_KEY_PREFIX, id) : jobStreamKey(deps.config.REDIS_KEY_PREFIX, id);
}

/** Counts what it publishes (metrics derived from events); a retry's duplicates are skipped, so not counted. */
class ObservedPublisher extends StreamPublisher {
  override async publish(drafts: AnyEventDraft[]): Promise<string[]> {
    const written = await super.publish(drafts);
    // Duplicates of an earlier attempt are always a prefix: the new events are the tail.
    observeEvents(drafts.slice(drafts.length - written.length));
    return written;
  }
}

export function publisherFor(deps: ActivityDeps, kind: 'turn' | 'job', id: string, slot: number): StreamPublisher {
  return new ObservedPublisher(deps.redis, streamKeyFor(deps, kind, id), slot, { maxLen: deps.config.STREAM_MAXLEN, clock: deps.clock });
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
