import type { AnyEventDraft } from '../../core/events';
import { OpenCount } from '../open-count';
import type { Alongside, StreamPublisher } from '../../streams/redis-streams';

const DELTA_TYPES = new Set(['content', 'thinking', 'file_content']);

/**
 * How long token events gather before the next XADD. The first event after a quiet spell
 * goes out at once (time to first token is untouched); after that at most one batch per
 * window, 20 a second: smooth for text appearing on screen. At 80 tokens/s a 50 ms window
 * sends ~4 tokens per event, a quarter of the XADDs, SSE frames, XREAD wake-ups and JSON
 * parses per token on every process along the stream path, for at most 50 ms of extra delay
 * on later tokens. On this kind of machine each of those is a socket write that costs more
 * than the work around it: 25 → 50 ms took a turn from ~710 to ~370 stream events and
 * ~1.9 to ~1.7 s of CPU (bench/turn.ts measures the CPU per turn).
 */
export const DEFAULT_LINGER_MS = 50;
/** The widest window under load: still four updates a second on the author's screen. */
export const MAX_LINGER_MS = 250;

/**
 * The token streams one worker has open, and the window they batch with. A batch costs the
 * same whatever it carries: a socket write here, Redis's work, an XREAD wake-up and an SSE
 * write in the API, a read in every client. So the worker's streams together send at most
 * `batchesPerSecond` batches (`STREAM_BATCHES_PER_SECOND`): up to that many streams / 20 each
 * keeps the 50 ms window, and past it every stream's window widens evenly (at 400 a second,
 * 50 streams batch every 125 ms), up to {@link MAX_LINGER_MS}. Under 50 turns at once the
 * stream path's CPU per turn fell by about a sixth (bench:turn). The first event
 * after a quiet spell still goes out at once.
 */
export class StreamLoad extends OpenCount {
  get streams(): number {
    return this.open;
  }

  lingerMs(batchesPerSecond: number): number {
    return Math.min(MAX_LINGER_MS, Math.max(DEFAULT_LINGER_MS, (this.open * 1000) / batchesPerSecond));
  }
}

export interface BatchingOptions {
  /** The window, fixed or read at each batch (a {@link StreamLoad}'s). */
  lingerMs?: number | (() => number);
  /**
   * Called as each batch is cut: writes to make in the same transaction as the batch (an
   * LLM step's text checkpoint, which must match the events on the stream exactly).
   */
  alongside?: () => Alongside | undefined;
  /** Injectable for tests. */
  now?: () => number;
}

/**
 * Publishes token events without waiting on Redis per token: new deltas queue up while a
 * batch is in flight or the window is open, and adjacent deltas of the same kind merge into
 * one event. Under heavy load batches grow, so Redis round trips never fall behind the model.
 */
export class BatchingPublisher {
  private queue: AnyEventDraft[] = [];
  private running: Promise<void> | null = null;
  private error: unknown = null;
  private lastSentAt = -Infinity;
  private wake: (() => void) | null = null;
  private flushing = false;
  private readonly lingerMs: () => number;
  private readonly now: () => number;
  private readonly alongside: BatchingOptions['alongside'];

  constructor(
    private readonly publisher: StreamPublisher,
    opts: BatchingOptions = {},
  ) {
    const linger = opts.lingerMs ?? DEFAULT_LINGER_MS;
    this.lingerMs = typeof linger === 'number' ? () => linger : linger;
    this.now = opts.now ?? (() => performance.now());
    this.alongside = opts.alongside;
  }

  add(event: AnyEventDraft): void {
    const last = this.queue[this.queue.length - 1];
    if (!DELTA_TYPES.has(event.type)) this.queue.push(event);
    else if (last && last.type === event.type && sameTarget(last, event))
      (last.data as { delta: string }).delta += (event.data as { delta: string }).delta;
    // A queued delta is merged into in place, so it is our own copy (its data is flat strings;
    // a structuredClone per token cost more than the merge saves).
    else this.queue.push({ ...event, data: { ...event.data } } as AnyEventDraft);
    this.running ??= this.drain();
  }

  /** Resolves when everything added so far is in Redis (without waiting out the window); rethrows a publish failure. */
  async flush(): Promise<void> {
    this.flushing = true;
    try {
      this.wake?.();
      while (this.running) await this.running;
    } finally {
      this.flushing = false;
    }
    if (this.error) throw this.error;
  }

  /** Waits until the window since the last batch has passed, or a flush asks for everything now. */
  private async windowClosed(): Promise<void> {
    const wait = this.lastSentAt + this.lingerMs() - this.now();
    if (wait <= 0 || this.flushing) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, wait);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
    this.wake = null;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        await this.windowClosed();
        const batch = this.queue;
        this.queue = [];
        this.lastSentAt = this.now();
        await this.publisher.publish(batch, this.alongside?.());
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
