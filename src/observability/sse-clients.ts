/**
 * The SSE responses open in this process: counted for `/metrics`, and closed on SIGTERM
 * with a `retry:` hint so EventSource clients reconnect (to another replica, with
 * Last-Event-ID) instead of seeing the connection die.
 */
import { metrics } from './metrics';

type Closer = (frame: string) => void;
const open = new Set<Closer>();

/** Registers an open SSE response; call the returned function when it ends. */
export function trackSseClient(reader: string, close: Closer): () => void {
  open.add(close);
  metrics.sseConnections.inc({ reader });
  let done = false;
  return () => {
    if (done) return;
    done = true;
    open.delete(close);
    metrics.sseConnections.dec({ reader });
  };
}

export function openSseClients(): number {
  return open.size;
}

/** Ends every open SSE response after telling its client when to reconnect. */
export function closeSseClients(retryMs: number): number {
  const closers = [...open];
  for (const close of closers) close(`retry: ${retryMs}\n: server shutting down, reconnect with Last-Event-ID\n\n`);
  return closers.length;
}
