/**
 * Autosave for one open file: nothing the author types is lost. Every change is kept on the
 * device at once (a draft, see ./drafts.ts) and saved to the server after a pause in typing
 * (`PUT` with `autosave` and the version it is an edit of, which the server folds into one
 * version per burst). One save is in flight at a time; text typed meanwhile goes in the next.
 * A 409 stops saving and hands the author's text to the conflict panel; a dropped connection
 * keeps the draft and retries when the browser is back online (and every little while); a
 * refusal says why. Framework-free: the page renders {@link SaveState}.
 */
import { ApiError } from '../api';
import type { DraftStore } from './drafts';

export type SaveFailure = 'gone' | 'tooLarge' | 'signedOut' | 'server';

export type SaveState =
  | { kind: 'clean' }
  | { kind: 'pending' }
  | { kind: 'saving' }
  | { kind: 'saved'; version: number; byHand: boolean; at: number }
  /** `kept`: the device holds the text (false: its storage refused it). */
  | { kind: 'offline'; kept: boolean }
  | { kind: 'failed'; reason: SaveFailure }
  | { kind: 'conflict' };

export interface SaveBody {
  content: string;
  baseVersion: number;
  autosave?: boolean;
}
export interface SaveReply {
  version: number;
  changed: boolean;
}

export interface AutosaveOptions {
  fileId: string;
  /** The server's text the editor starts from, and its version. */
  base: { version: number; content: string };
  /** The editor's text now. */
  read: () => string;
  put: (body: SaveBody, opts: { keepalive: boolean }) => Promise<SaveReply>;
  drafts: DraftStore;
  onState: (s: SaveState) => void;
  /** The server moved on since the base (409): the author's text, for the conflict panel. */
  onConflict: (mine: string) => void;
  /** After a successful save (the page refreshes the file list now and then). */
  onSaved?: (reply: SaveReply, byHand: boolean) => void;
  /** Pause in typing before an autosave. */
  delayMs?: number;
  /** Longest wait before retrying a save that failed for a passing reason. */
  retryMs?: number;
  /** The browser's connection and idle time (tests bring their own). */
  host: SessionHost;
  now?: () => number;
}

/** Why a save failed, in the author's terms; null for a conflict. */
function failureOf(err: unknown, online: boolean): SaveState {
  if (err instanceof ApiError) {
    if (err.status === 409) return { kind: 'conflict' };
    if (err.status === 401 || err.status === 403) return { kind: 'failed', reason: 'signedOut' };
    if (err.status === 404) return { kind: 'failed', reason: 'gone' };
    if (err.status === 413 || err.status === 400) return { kind: 'failed', reason: 'tooLarge' };
    return { kind: 'failed', reason: 'server' };
  }
  // fetch rejects (a TypeError) when the request never reached the server.
  return online ? { kind: 'failed', reason: 'server' } : { kind: 'offline', kept: true };
}

/** Failures that pass by themselves: the save is tried again. */
const passing = (s: SaveState) => s.kind === 'offline' || (s.kind === 'failed' && s.reason === 'server');

/** What a session needs of the browser; kept apart so the session runs (and is tested) without one. */
export interface SessionHost {
  isOnline(): boolean;
  /** Calls `fn` whenever the connection comes back; returns how to stop. */
  onOnline(fn: () => void): () => void;
  /** Runs `fn` when the page is idle (within a second). */
  idle(fn: () => void): void;
}

/** What a keepalive request may carry, leaving room for its headers. */
const KEEPALIVE_BYTES = 60_000;

/** A save still running when its page went away: the next opening of the file waits for it. */
const leaving = new Map<string, Promise<unknown>>();
export const pendingSave = (fileId: string): Promise<unknown> => leaving.get(fileId) ?? Promise.resolve();

export class AutosaveSession {
  private base: { version: number; content: string };
  private state: SaveState = { kind: 'clean' };
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private draftTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retries = 0;
  private inFlight: Promise<void> | null = null;
  private queued: 'auto' | 'hand' | null = null;
  /** The head is an autosave of ours that the server may still fold into: leaving closes it. */
  private burstOpen = false;
  /** The text this page last kept on the device. */
  private lastKept: string | null = null;
  private disposed = false;
  private readonly delayMs: number;
  private readonly retryMs: number;
  private readonly stopListening: () => void;
  private readonly now: () => number;

  constructor(private readonly o: AutosaveOptions) {
    this.base = { ...o.base };
    this.delayMs = o.delayMs ?? 1500;
    this.retryMs = o.retryMs ?? 30_000;
    this.now = o.now ?? Date.now;
    this.stopListening = o.host.onOnline(() => this.retry());
  }

  get version(): number {
    return this.base.version;
  }
  get baseText(): string {
    return this.base.content;
  }
  get current(): SaveState {
    return this.state;
  }

  /** The editor's text is not (yet) what the server holds. */
  unsaved(): boolean {
    return this.o.read() !== this.base.content;
  }

  /** Unsaved text that saving cannot reach now (offline, refused, in conflict): leaving should ask. */
  stuck(): boolean {
    const k = this.state.kind;
    return this.unsaved() && (k === 'offline' || k === 'failed' || k === 'conflict');
  }

  /** The author typed: keep it on the device soon, save it after a pause. */
  edited(): void {
    if (this.disposed) return;
    // Writing a long chapter's draft takes a few milliseconds: it waits for a moment between
    // keys (at most a second), so it never delays one. A page going away writes it at once.
    this.draftTimer ??= setTimeout(() => this.o.host.idle(() => this.keep()), 250);
    if (this.state.kind === 'conflict') return;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    // While offline the draft is what counts; saving resumes when the connection does.
    if (passing(this.state)) return;
    this.saveTimer = setTimeout(() => void this.save(false), this.delayMs);
    if (this.state.kind !== 'pending' && !this.inFlight) this.set({ kind: 'pending' });
  }

  /** Writes the draft now (a page going away, a failed save); false when the device refused it. */
  keep(): boolean {
    if (this.draftTimer) clearTimeout(this.draftTimer);
    this.draftTimer = null;
    const text = this.o.read();
    // Back to the server's text (saved, or undone): nothing of it needs keeping.
    if (text === this.base.content) {
      this.dropDraft();
      return true;
    }
    const kept = this.o.drafts.write(this.o.fileId, this.base.version, text, this.now());
    if (kept) this.lastKept = text;
    return kept;
  }

  /** Drops this page's draft, not one another tab of the same file wrote since (its text is not on the server). */
  private dropDraft(): void {
    const d = this.o.drafts.read(this.o.fileId);
    if (d && (d.text === this.lastKept || d.text === this.base.content)) this.o.drafts.discard(this.o.fileId);
    this.lastKept = null;
  }

  /** Saves now: `byHand` (Ctrl+S, Save) also closes the server's burst, so history gets an entry of its own. */
  save(byHand: boolean): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.state.kind === 'conflict' && !byHand) return Promise.resolve();
    if (this.inFlight) {
      this.queued = byHand || this.queued === 'hand' ? 'hand' : 'auto';
      return this.inFlight;
    }
    this.clearTimers();
    const text = this.o.read();
    if (!byHand && text === this.base.content) {
      this.keep();
      if (this.state.kind === 'pending') this.set({ kind: 'clean' });
      return Promise.resolve();
    }
    this.keep();
    this.set({ kind: 'saving' });
    this.inFlight = this.send(text, byHand).finally(() => (this.inFlight = null));
    return this.inFlight.then(() => {
      const next = this.queued;
      this.queued = null;
      if (next && !this.disposed && this.state.kind === 'saved') return this.save(next === 'hand');
    });
  }

  private async send(text: string, byHand: boolean): Promise<void> {
    try {
      const reply = await this.o.put(
        { content: text, baseVersion: this.base.version, autosave: !byHand },
        { keepalive: false },
      );
      this.base = { version: reply.version, content: text };
      this.burstOpen = !byHand;
      this.retries = 0;
      this.keep();
      // Text typed while the save was on its way is in the draft (on the new base) and goes
      // with the next pause, like any other.
      this.set({ kind: 'saved', version: reply.version, byHand, at: this.now() });
      this.o.onSaved?.(reply, byHand);
    } catch (err) {
      const kept = this.keep();
      const failed = failureOf(err, this.o.host.isOnline());
      if (failed.kind === 'offline') failed.kept = kept;
      this.set(failed);
      if (failed.kind === 'conflict') this.o.onConflict(text);
      else if (passing(failed)) this.scheduleRetry();
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.disposed) return;
    const wait = Math.min(this.retryMs, 2000 * 2 ** this.retries++);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.retry();
    }, wait);
  }

  /** Back online (or time to try again): save what waits. */
  retry(): void {
    if (this.disposed || !passing(this.state)) return;
    if (this.unsaved()) void this.save(false);
    else this.set({ kind: 'clean' });
  }

  /** Saving waits for the author's choice in the conflict panel (a draft older than the file). */
  hold(): void {
    this.clearTimers();
    this.set({ kind: 'conflict' });
  }

  /**
   * Starts again from a server text: after taking theirs, merging, or catching up with a
   * version someone else wrote. The editor's text is then an edit of `base`.
   */
  rebase(base: { version: number; content: string }): void {
    this.clearTimers();
    this.base = { ...base };
    this.burstOpen = false;
    this.set({ kind: 'clean' });
    if (this.unsaved()) this.edited();
    else this.dropDraft();
  }

  private set(s: SaveState): void {
    this.state = s;
    this.o.onState(s);
  }

  private clearTimers(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.saveTimer = this.retryTimer = null;
  }

  /**
   * The file is left (another file, another screen, the tab closing): the draft is written,
   * and what the server does not have yet is sent by hand, which also closes the burst; with
   * nothing new, an open burst is closed. `keepalive` lets the request outlive a closing page.
   */
  leave(keepalive: boolean): void {
    if (this.disposed) return;
    this.keep();
    const text = this.o.read();
    const unsaved = text !== this.base.content;
    if (!unsaved && !this.burstOpen) return;
    if (this.state.kind === 'conflict') return;
    // Offline, a send cannot arrive and would only race the draft: the draft keeps the text and
    // the next opening of the file saves it. (A browser reports offline only when it truly is.)
    if (!this.o.host.isOnline()) return;
    if (this.inFlight) {
      // Its answer still settles the draft; what was typed after it stays in the draft.
      const running = this.inFlight.finally(
        () => leaving.get(this.o.fileId) === running && leaving.delete(this.o.fileId),
      );
      leaving.set(this.o.fileId, running);
      return;
    }
    const body = { content: text, baseVersion: this.base.version };
    // A closing page's requests may carry 64 KiB in all: a longer text stays in the draft, and
    // the next opening of the file brings it back and saves it.
    if (keepalive && new TextEncoder().encode(JSON.stringify(body)).length > KEEPALIVE_BYTES) return;
    this.burstOpen = false;
    const fileId = this.o.fileId;
    const sent = this.o
      .put(body, { keepalive })
      .then((reply) => {
        this.base = { version: reply.version, content: text };
        this.o.drafts.settle(fileId, text);
      })
      .catch(() => undefined)
      .finally(() => {
        if (leaving.get(fileId) === sent) leaving.delete(fileId);
      });
    leaving.set(fileId, sent);
  }

  dispose(): void {
    this.leave(false);
    this.disposed = true;
    this.clearTimers();
    if (this.draftTimer) clearTimeout(this.draftTimer);
    this.stopListening();
  }
}
