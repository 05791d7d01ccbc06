/**
 * A test SSE client over real HTTP, parsing frames with eventsource-parser (the parser
 * behind the `eventsource` package), so tests read exactly what a browser would.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseFrame {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

export interface ReadOptions {
  headers?: Record<string, string>;
  /** Stop after this many frames (simulates a client that drops). */
  maxFrames?: number;
  timeoutMs?: number;
  /** Called as each frame arrives. */
  onFrame?: (f: SseFrame) => void;
  /** Stops reading when aborted (a stream that never ends, such as a session feed). */
  signal?: AbortSignal;
}

export interface SseResult {
  status: number;
  frames: SseFrame[];
  comments: string[];
  retry: number | null;
  /** The server ended the response (as opposed to us dropping it). */
  ended: boolean;
}

export async function readSse(url: string, opts: ReadOptions = {}): Promise<SseResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? 30000);
  opts.signal?.addEventListener('abort', () => controller.abort());
  const frames: SseFrame[] = [];
  const comments: string[] = [];
  let retry: number | null = null;
  let ended = false;
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...opts.headers },
    signal: controller.signal,
  });
  if (!res.ok || !res.body) {
    clearTimeout(timer);
    return { status: res.status, frames, comments, retry, ended: true };
  }
  let enough = false;
  const parser = createParser({
    onEvent(m: EventSourceMessage) {
      const f = { id: m.id, event: m.event, data: m.data };
      frames.push(f);
      opts.onFrame?.(f);
      if (opts.maxFrames && frames.length >= opts.maxFrames) enough = true;
    },
    onComment(c) {
      comments.push(c);
    },
    onRetry(r) {
      retry = r;
    },
  });
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  try {
    // Leave the loop ourselves: aborting from inside a chunk being parsed can leave
    // undici's body iterator waiting forever once the body has been fully received.
    while (!enough) {
      const { value, done } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (err) {
    // By name: jest's realm makes `instanceof Error` false for the DOMException fetch throws.
    if ((err as { name?: unknown } | null)?.name !== 'AbortError') throw err;
  } finally {
    clearTimeout(timer);
    if (!ended) {
      controller.abort();
      await reader.cancel().catch(() => undefined);
    }
  }
  return { status: res.status, frames, comments, retry, ended };
}
