/**
 * A watchdog on a model stream that has started: when no chunk arrives for a while, it aborts
 * the request so the step fails and is retried (going on from its checkpointed text), instead
 * of waiting out the step's whole time limit on a provider that went quiet mid-answer.
 */

/** A stream that went quiet: a plain error, so Temporal retries the step. */
export class StreamStalled extends Error {
  constructor(seconds: number) {
    super(`model stream stalled: no data for ${seconds} s after it started`);
    this.name = new.target.name;
  }
}

export class IdleWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private fired = false;

  /** `seconds` 0: never fires. */
  constructor(private readonly seconds: number) {}

  /** The request's signal: the step's own cancellation, or this watchdog. */
  signal(outer: AbortSignal): AbortSignal {
    return AbortSignal.any([outer, this.controller.signal]);
  }

  /** A chunk arrived: the countdown starts again. Only chunks arm it (see LLM_STREAM_IDLE_SECONDS). */
  touch(): void {
    if (this.seconds <= 0) return;
    // One timer, pushed back per chunk (refresh): a chunk arrives per token, and a new timer
    // per token is a timer-list insert and removal each time.
    if (this.timer) this.timer.refresh();
    else
      this.timer = setTimeout(() => {
        this.fired = true;
        this.controller.abort(new StreamStalled(this.seconds));
      }, this.seconds * 1000);
  }

  /** Never a cut-off answer: a stream the watchdog ended (quietly) fails the step, which is retried. */
  check(): void {
    if (this.fired) throw new StreamStalled(this.seconds);
  }

  /**
   * What a failed stream failed with: the watchdog's abort surfaces as the client's abort
   * error, and says here what happened; the step's own cancellation stays a cancellation.
   */
  failure(err: unknown, outer: AbortSignal): unknown {
    return this.fired && !outer.aborted ? new StreamStalled(this.seconds) : err;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}
