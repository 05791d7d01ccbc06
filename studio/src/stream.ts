/**
 * A live stream (a turn's or a job's) read through the browser's own EventSource, resumed
 * exactly: the browser reconnects by itself with `Last-Event-ID` after a dropped connection;
 * when it gives up (an HTTP error such as an expired stream token), this opens a new
 * EventSource with a fresh stream token and `?after=<last id>`. Events at or below the last
 * id seen are dropped, so nothing is ever applied twice. Events are handed over in batches,
 * once per animation frame, so a fast stream never re-renders per token.
 */
import { API, get, post } from './api';
import type { StreamEvent } from './events';

export const ACTIVE_TURN = ['queued', 'running', 'awaiting_approval'];
export const ENDED_JOB = ['completed', 'cancelled'];

export type { Ev, StreamEvent } from './events';

/** Every event name the API sends (the contract's types, plus any unknown one arriving as `message`). */
const EVENT_NAMES = [
  'turn_started',
  'agent_selected',
  'thinking',
  'content',
  'tool_call',
  'tool_result',
  'file_created',
  'file_updated',
  'file_content',
  'handoff',
  'workflow_stopped',
  'steering_received',
  'usage',
  'step_retry',
  'step_resumed',
  'approval_requested',
  'approval_decided',
  'job_progress',
  'reset',
  'error',
  'suggestions',
  'done',
  'message',
  // The session feed's own.
  'turn_finished',
  'job_started',
  'job_finished',
  'job_summary',
] as const;

/** Redis stream ids (`ms-seq`) in order. */
export function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am! - bm! || as! - bs!;
}

export interface LiveStreamOptions {
  /** A turn's or job's stream, or a session's feed (which never ends). */
  kind: 'turn' | 'job' | 'session';
  id: string;
  /** A stream token the API minted (POST /turns|jobs responses); a fresh one is asked for when needed. */
  token?: string;
  /** Resume strictly after this id; none: from the stream's first event (late join). */
  after?: string | null;
  onEvents: (events: StreamEvent[]) => void;
  /** The stream is over: `done`, a `reset` (reload the persisted state), or `finished` (nothing more to read). */
  onEnd?: (why: 'done' | 'reset' | 'finished') => void;
  /** Connection state for the UI: live, reconnecting. */
  onState?: (state: 'live' | 'reconnecting') => void;
}

export class LiveStream {
  lastId: string | null;
  private es: EventSource | null = null;
  private ended = false;
  private queue: StreamEvent[] = [];
  private scheduled = false;
  private retryTimer: number | undefined;
  private failures = 0;
  private token: string | undefined;

  constructor(private readonly opts: LiveStreamOptions) {
    this.lastId = opts.after ?? null;
    this.token = opts.token;
    window.addEventListener('offline', this.wentOffline);
    window.addEventListener('online', this.cameOnline);
    void this.open();
  }

  /**
   * The device lost its network: a connection that still looks open may be dead (a socket
   * keeps no promise). Stop reading, and resume after the last event once back online.
   */
  private readonly wentOffline = (): void => {
    if (this.ended) return;
    this.es?.close();
    this.es = null;
    window.clearTimeout(this.retryTimer);
    this.opts.onState?.('reconnecting');
  };

  private readonly cameOnline = (): void => {
    if (this.ended || this.es) return;
    this.failures = 0;
    void this.open();
  };

  private async open(): Promise<void> {
    if (this.ended || !navigator.onLine) return;
    if (!this.token) {
      try {
        this.token = (await post<{ token: string }>(`/${this.opts.kind}s/${this.opts.id}/stream-token`)).token;
      } catch {
        return this.retryLater();
      }
    }
    if (this.ended || !navigator.onLine) return;
    this.es?.close();
    const q = new URLSearchParams({ token: this.token });
    if (this.lastId) q.set('after', this.lastId);
    const es = new EventSource(`${API}/${this.opts.kind}s/${this.opts.id}/events?${q}`);
    this.es = es;
    const onFrame = (e: MessageEvent<string>) => this.frame(e);
    for (const name of EVENT_NAMES) es.addEventListener(name, onFrame as EventListener);
    es.onopen = () => {
      this.failures = 0;
      this.opts.onState?.('live');
    };
    es.onerror = () => {
      if (this.ended || this.es !== es) return;
      this.opts.onState?.('reconnecting');
      // CONNECTING: the browser retries by itself with Last-Event-ID. CLOSED: it gave up
      // (an HTTP error, or 204 once the stream is over): open anew, with a fresh token.
      if (es.readyState === EventSource.CLOSED) {
        es.close();
        this.es = null;
        this.token = undefined;
        void this.closedByServer();
      }
    };
  }

  /** The server ended the connection for good: over (it answers 204 after the end), or retry. */
  private async closedByServer(): Promise<void> {
    try {
      if (this.opts.kind === 'session') return this.retryLater();
      const state = await get<{ status: string }>(`/${this.opts.kind}s/${this.opts.id}`);
      const ended = this.opts.kind === 'turn' ? !ACTIVE_TURN.includes(state.status) : ENDED_JOB.includes(state.status);
      if (ended) return this.end('finished');
    } catch {
      // Offline or the API restarting: try again.
    }
    this.retryLater();
  }

  private retryLater(): void {
    if (this.ended) return;
    this.failures += 1;
    window.clearTimeout(this.retryTimer);
    this.retryTimer = window.setTimeout(() => void this.open(), Math.min(5000, 250 * 2 ** Math.min(this.failures, 5)));
  }

  private frame(e: MessageEvent<string>): void {
    if (this.ended) return;
    let event: StreamEvent;
    try {
      event = JSON.parse(e.data) as StreamEvent;
    } catch {
      return;
    }
    // A `reset` frame carries no id of its own (the browser then repeats the previous one).
    if (e.lastEventId && event.type !== 'reset') {
      // Already applied (a replay after reconnecting): never twice.
      if (this.lastId && compareIds(e.lastEventId, this.lastId) <= 0) return;
      this.lastId = e.lastEventId;
    }
    this.queue.push(event);
    if (event.type === 'reset' && this.opts.kind === 'session') {
      // The feed cannot resume from here (expired or trimmed): the listener reloads what it
      // shows, and the feed goes on from its start.
      this.lastId = null;
      this.es?.close();
      this.es = null;
      this.schedule();
      this.retryLater();
    } else if (event.type === 'done' || event.type === 'reset') this.end(event.type);
    else this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => this.flush();
    if (document.hidden) window.setTimeout(run, 100);
    else requestAnimationFrame(run);
  }

  private flush(): void {
    this.scheduled = false;
    if (!this.queue.length) return;
    const batch = this.queue;
    this.queue = [];
    this.opts.onEvents(batch);
  }

  private end(why: 'done' | 'reset' | 'finished'): void {
    this.ended = true;
    this.unlisten();
    this.es?.close();
    window.clearTimeout(this.retryTimer);
    this.flush();
    this.opts.onEnd?.(why);
  }

  private unlisten(): void {
    window.removeEventListener('offline', this.wentOffline);
    window.removeEventListener('online', this.cameOnline);
  }

  close(): void {
    this.ended = true;
    this.unlisten();
    window.clearTimeout(this.retryTimer);
    this.es?.close();
    this.queue = [];
  }
}
