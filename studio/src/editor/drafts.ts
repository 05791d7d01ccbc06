/**
 * The author's text kept on this device until the server has it. Each file has one draft
 * (localStorage, key `scriptorium.draft.<fileId>`) holding the text and the version it is an
 * edit of; it goes only when the server holds exactly that text. localStorage because it is
 * synchronous: a tab that closes or a page that reloads still writes its last draft in
 * `pagehide` (an asynchronous store could be cut off there).
 */

export interface Draft {
  fileId: string;
  /** The server version the text is an edit of (the `baseVersion` its save sends). */
  baseVersion: number;
  text: string;
  /** When it was kept (ms since the epoch). */
  keptAt: number;
}

/** Where drafts live: localStorage in the browser, a Map in tests. */
export interface DraftStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const PREFIX = 'scriptorium.draft.';

export class DraftStore {
  constructor(private readonly storage: DraftStorage = localStorage) {}

  read(fileId: string): Draft | null {
    try {
      const raw = this.storage.getItem(PREFIX + fileId);
      if (!raw) return null;
      const d = JSON.parse(raw) as Partial<Draft>;
      return typeof d.text === 'string' && typeof d.baseVersion === 'number'
        ? { fileId, baseVersion: d.baseVersion, text: d.text, keptAt: d.keptAt ?? 0 }
        : null;
    } catch {
      return null;
    }
  }

  /** Keeps the text; false when the device refused it (storage full or disabled). */
  write(fileId: string, baseVersion: number, text: string, now = Date.now()): boolean {
    try {
      this.storage.setItem(PREFIX + fileId, JSON.stringify({ baseVersion, text, keptAt: now }));
      return true;
    } catch {
      return false;
    }
  }

  /** Drops the draft once the server holds `savedText`; a draft with other text (typed since, or in another tab) stays. */
  settle(fileId: string, savedText: string): void {
    const d = this.read(fileId);
    if (d && d.text === savedText) this.storage.removeItem(PREFIX + fileId);
  }

  /** Drops the draft whatever it holds (the author chose the server's text over it). */
  discard(fileId: string): void {
    this.storage.removeItem(PREFIX + fileId);
  }
}
