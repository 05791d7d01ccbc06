import type { AnyEventDraft } from '../events/contract';
import type { StreamPublisher } from '../streams/redis-streams';

const DELTA_TYPES = new Set(['content', 'thinking', 'file_content']);

/**
 * Publishes token events without waiting on Redis per token: while one XADD batch is in
 * flight, new deltas queue up and adjacent deltas of the same kind merge into one event.
 * Under light load every token goes out at once; under heavy load batches grow, so Redis
 * round trips never fall behind the model.
 */
export class BatchingPublisher {
  private queue: AnyEventDraft[] = [];
  private running: Promise<void> | null = null;
  private error: unknown = null;

  constructor(private readonly publisher: StreamPublisher) {}

  add(event: AnyEventDraft): void {
    const last = this.queue[this.queue.length - 1];
    if (last && DELTA_TYPES.has(event.type) && last.type === event.type && sameTarget(last, event)) {
      (last.data as { delta: string }).delta += (event.data as { delta: string }).delta;
    } else {
      this.queue.push(structuredClone(event));
    }
    this.running ??= this.drain();
  }

  /** Resolves when everything added so far is in Redis; rethrows a publish failure. */
  async flush(): Promise<void> {
    while (this.running) await this.running;
    if (this.error) throw this.error;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        await this.publisher.publish(batch);
      }
    } catch (err) {
      this.error = err;
    } finally {
      this.running = null;
    }
  }
}

function sameTarget(a: AnyEventDraft, b: AnyEventDraft): boolean {
  if (a.type !== 'file_content' || b.type !== 'file_content') return true;
  return a.data.fileId === b.data.fileId;
}
