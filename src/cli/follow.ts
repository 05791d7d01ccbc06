/**
 * Follows one SSE stream to its end over `fetch`, parsing frames with eventsource-parser,
 * and reconnects with `Last-Event-ID` whenever the connection drops — the same contract a
 * browser's EventSource relies on, usable where EventSource does not exist (a terminal).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface Frame {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

export type FollowEnd = 'done' | 'reset' | 'complete';

export interface FollowOptions {
  url: string;
  headers?: Record<string, string>;
  onFrame: (frame: Frame) => void;
  /** Told before each reconnect (after a drop), with the id it resumes after. */
  onReconnect?: (info: { attempt: number; lastEventId: string | undefined; reason: string }) => void;
  /** Reconnects in a row without receiving a frame before giving up. */
  maxFailures?: number;
  /** Delay before reconnecting until the server sends its own `retry:` hint. */
  retryMs?: number;
  signal?: AbortSignal;
  fetchImpl?: typeof fetch;
}

export interface FollowResult {
  end: FollowEnd;
  lastEventId: string | undefined;
  connections: number;
}

/** A refusal that reconnecting cannot fix (bad token, unknown turn, bad id). */
export class StreamRefused extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`stream refused with HTTP ${status}: ${body.slice(0, 300)}`);
    this.name = new.target.name;
  }
}

const isAbort = (err: unknown): boolean => (err as { name?: unknown } | null)?.name === 'AbortError';

export async function followStream(opts: FollowOptions): Promise<FollowResult> {
  const doFetch = opts.fetchImpl ?? fetch;
  const maxFailures = opts.maxFailures ?? 10;
  let retryMs = opts.retryMs ?? 1000;
  let lastEventId: string | undefined;
  let failures = 0;
  let connections = 0;

  for (;;) {
    connections++;
    let end: FollowEnd | null = null;
    let reason = 'the server closed the stream';
    let gotFrame = false;
    try {
      const res = await doFetch(opts.url, {
        headers: {
          accept: 'text/event-stream',
          ...opts.headers,
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
        signal: opts.signal,
      });
      // 204: we already have everything (resumed after the terminal event).
      if (res.status === 204) return { end: 'complete', lastEventId, connections };
      if (res.status >= 400 && res.status < 500) throw new StreamRefused(res.status, await res.text());
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      const parser = createParser({
        onEvent(m: EventSourceMessage) {
          if (end) return;
          gotFrame = true;
          // A reset has no id: keep resuming from the last real one.
          if (m.id) lastEventId = m.id;
          opts.onFrame({ id: m.id, event: m.event, data: m.data });
          if (m.event === 'done') end = 'done';
          else if (m.event === 'reset') end = 'reset';
        },
        onRetry(ms) {
          retryMs = ms;
        },
      });
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      try {
        // Leave the loop ourselves rather than abort mid-chunk (undici can hang on that).
        while (!end) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
        }
      } finally {
        await reader.cancel().catch(() => undefined);
      }
    } catch (err) {
      if (err instanceof StreamRefused || (isAbort(err) && opts.signal?.aborted)) throw err;
      reason = err instanceof Error ? err.message : String(err);
    }
    if (end) return { end, lastEventId, connections };
    failures = gotFrame ? 0 : failures + 1;
    if (failures >= maxFailures) throw new Error(`gave up after ${failures} reconnects without progress: ${reason}`);
    opts.onReconnect?.({ attempt: connections, lastEventId, reason });
    await new Promise((r) => setTimeout(r, gotFrame ? Math.min(retryMs, 250) : retryMs));
  }
}
