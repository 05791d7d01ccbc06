import { type Alongside, jobStreamKey, StreamPublisher, turnStreamKey, expireStream } from '../streams/redis-streams';
import type { AnyEventDraft } from '../core/events';
import type { PublishInput } from '../core/turn-types';
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
 * The record is written after Redis acknowledged the events and off the publishing path, so
 * token streaming does not wait on MongoDB. It only ever undercounts (a worker that dies
 * before the write lands), which can hide a loss but never invent one — so it need not keep
 * up with every batch: the first count is written at once, later ones at most once per
 * {@link LEDGER_INTERVAL_MS} (a streamed step would otherwise write once per token batch,
 * hundreds of commands per turn), and {@link CountingPublisher.settle} writes the last one now.
 */
// 3 s, not 1 s: at 50 turns at once on one FerretDB, the per-second writes were the largest
// MongoDB cost (30.8 s of MongoDB time over the 50 turns; 19.3 s at 3 s) and pushed time to
// first token from 2.80× to 3.25× a lone turn's (bench:turn --concurrency 50, issue 32).
export const LEDGER_INTERVAL_MS = 3000;

export class CountingPublisher extends StreamPublisher {
  private recorded = 0;
  private target = 0;
  private writing: Promise<boolean> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastWriteAt = -Infinity;

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
    if (this.count > this.target) {
      this.target = this.count;
      this.schedule();
    }
    return written;
  }

  /** Writes the count on record now (the end of a streamed step), and waits for it. */
  async settle(): Promise<void> {
    for (;;) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      if (this.writing) await this.writing;
      else if (this.recorded >= this.target || !(await (this.writing = this.record()))) return;
    }
  }

  private schedule(): void {
    if (this.writing || this.timer) return;
    const wait = this.lastWriteAt + LEDGER_INTERVAL_MS - performance.now();
    if (wait <= 0) this.writing = this.record();
    else
      this.timer = setTimeout(() => {
        this.timer = null;
        this.writing ??= this.record();
      }, wait);
  }

  /** One write of the latest count; counts that came in meanwhile wait for the next window. */
  private async record(): Promise<boolean> {
    const n = this.target;
    this.lastWriteAt = performance.now();
    let ok = false;
    try {
      await this.deps.models.StreamLedger.updateOne({ _id: this.key }, { $max: { [`slots.${this.slot}`]: n } }, { upsert: true });
      this.recorded = Math.max(this.recorded, n);
      ok = true;
    } catch (err) {
      // Left to the next publish (or settle): a MongoDB outage must not become a retry loop here.
      this.deps.logger.warn({ err, key: this.key, slot: this.slot }, 'could not record the stream slot count');
    } finally {
      this.writing = null;
    }
    if (ok && this.recorded < this.target) this.schedule();
    return ok;
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
      if (input.final) await expireStream(deps.redis, streamKeyFor(deps, input.streamKind, input.streamId), deps.config.STREAM_TTL_SECONDS);
    },
  };
}
