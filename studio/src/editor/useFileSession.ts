/**
 * One open file and the author's edit of it: loading it (and bringing back text kept on
 * this device), the autosave session, the conflict panel's three ways out, catching up
 * with a version someone else wrote while the author's text was unchanged, and a restore.
 */
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { api, API, ApiError, authHeaders, type FileDoc, get, errText, type VersionInfo } from '../api';
import { useI18n } from '../i18n';
import { useProject } from '../pages/Project';
import {
  AutosaveSession,
  pendingSave,
  type SaveBody,
  type SaveReply,
  type SaveState,
  type SessionHost,
} from './autosave';
import type { Conflict } from './ConflictPanel';
import { DraftStore } from './drafts';
import type { ProseEditorHandle } from './ProseEditor';
import type { Note } from './status';

/** A save that must outlive the page (it is closing): fetch's keepalive, with the API's errors. */
async function putKeepalive(fileId: string, body: SaveBody): Promise<SaveReply> {
  const res = await fetch(`${API}/files/${fileId}`, {
    method: 'PUT',
    keepalive: true,
    headers: { ...authHeaders(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as
    (SaveReply & { error?: { code?: string; message?: string } }) | null;
  if (!res.ok)
    throw new ApiError(res.status, json?.error?.code ?? 'http_error', json?.error?.message ?? String(res.status));
  return json!;
}

/** The browser as the autosave session sees it. */
const browserHost: SessionHost = {
  isOnline: () => navigator.onLine,
  onOnline: (fn) => {
    window.addEventListener('online', fn);
    return () => window.removeEventListener('online', fn);
  },
  idle: (fn) =>
    typeof requestIdleCallback === 'function'
      ? void requestIdleCallback(fn, { timeout: 1000 })
      : void setTimeout(fn, 0),
};

/** How often autosaves refresh the project's file list (its word counts); a save by hand always does. */
const LIST_REFRESH_MS = 20_000;

export function useFileSession(fileId: string, editor: RefObject<ProseEditorHandle | null>) {
  const { t } = useI18n();
  const { files, reloadFiles } = useProject();
  const [file, setFile] = useState<FileDoc | null>(null);
  const [initialText, setInitialText] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<SaveState>({ kind: 'clean' });
  const [note, setNote] = useState<Note | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [error, setError] = useState('');
  const session = useRef<AutosaveSession | null>(null);
  // The text when no editor is mounted (before it loads, after it closes): never stale.
  const lastText = useRef('');
  const read = useCallback(() => editor.current?.getText() ?? lastText.current, [editor]);
  const listRefreshed = useRef(0);

  const showConflict = useCallback(
    async (mine: string) => {
      const s = session.current;
      if (!s) return;
      const theirs = await get<FileDoc>(`/files/${fileId}`);
      // The server already has this very text (a save from a page that went away): nothing to choose.
      if (theirs.content === read()) {
        s.rebase({ version: theirs.version, content: theirs.content });
        setVersion(theirs.version);
        setFile(theirs);
        return;
      }
      setConflict({ theirs, mine, base: { version: s.version, content: s.baseText }, fromDraft: false });
    },
    [fileId, read],
  );

  // The load below runs once per file: it reaches the latest callbacks through refs.
  const callbacks = useRef({ showConflict, reloadFiles });
  callbacks.current = { showConflict, reloadFiles };

  useEffect(() => {
    let cancelled = false;
    const drafts = new DraftStore();
    const load = async () => {
      // A save of this file from a screen just left may still be on its way.
      await pendingSave(fileId);
      const f = await get<FileDoc>(`/files/${fileId}`);
      if (cancelled) return;
      const draft = drafts.read(fileId);
      let text = f.content;
      let opened: Conflict | null = null;
      if (draft && draft.text !== f.content) {
        text = draft.text;
        if (draft.baseVersion !== f.version) {
          // The file moved on since the draft's base: both texts, the author chooses.
          const old = await get<VersionInfo>(`/files/${fileId}/versions/${draft.baseVersion}`).catch(() => null);
          opened = {
            theirs: f,
            mine: draft.text,
            base: { version: draft.baseVersion, content: old?.content ?? null },
            fromDraft: true,
          };
        }
      } else if (draft) drafts.discard(fileId);
      if (cancelled) return;
      lastText.current = text;
      const s = new AutosaveSession({
        fileId,
        base: { version: f.version, content: f.content },
        read,
        put: (body, { keepalive }) =>
          keepalive ? putKeepalive(fileId, body) : api<SaveReply>('PUT', `/files/${fileId}`, body),
        drafts,
        host: browserHost,
        onState: setState,
        onConflict: (mine) => void callbacks.current.showConflict(mine).catch((e: unknown) => setError(errText(e))),
        onSaved: (reply, byHand) => {
          setVersion(reply.version);
          if (byHand || Date.now() - listRefreshed.current > LIST_REFRESH_MS) {
            listRefreshed.current = Date.now();
            callbacks.current.reloadFiles();
          }
        },
      });
      session.current = s;
      setFile(f);
      setVersion(f.version);
      setInitialText(text);
      if (opened) {
        s.hold();
        setConflict(opened);
      } else if (text !== f.content) {
        setNote({ kind: 'draftRestored' });
        void s.save(false);
      }
    };
    load().catch((e: unknown) => !cancelled && setError(errText(e)));
    return () => {
      cancelled = true;
      session.current?.dispose();
      session.current = null;
    };
  }, [fileId, read]);

  // Someone else saved a newer version while the author's text was unchanged: show it.
  const listedVersion = files.find((f) => f.id === fileId)?.version;
  useEffect(() => {
    const s = session.current;
    if (!s || !listedVersion || listedVersion <= s.version || conflict || s.unsaved() || state.kind === 'saving')
      return;
    let cancelled = false;
    get<FileDoc>(`/files/${fileId}`)
      .then((f) => {
        if (cancelled || s.unsaved() || f.version <= s.version) return;
        editor.current?.setText(f.content, false);
        lastText.current = f.content;
        s.rebase({ version: f.version, content: f.content });
        setFile(f);
        setVersion(f.version);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [listedVersion, fileId, conflict, state.kind, editor]);

  /** The author typed: their words replace whatever note the status line showed. */
  const edited = useCallback(() => {
    session.current?.edited();
    setNote(null);
  }, []);

  const resolve = {
    /** Three-way: the author's changes since the base, applied onto the newer text. */
    merge: async (c: Conflict) => {
      const mine = read();
      const { mergeEdits } = await import('./merge');
      const merged = c.base.content === null ? null : mergeEdits(c.base.content, mine, c.theirs.content);
      const text = merged ?? `${c.theirs.content}\n\n<<<<<<< ${t.yourText}\n${mine}\n>>>>>>>\n`;
      editor.current?.setText(text, true);
      lastText.current = text;
      setConflict(null);
      session.current?.rebase({ version: c.theirs.version, content: c.theirs.content });
      setVersion(c.theirs.version);
      setFile(c.theirs);
      if (merged === null) setError(t.mergeFailed);
    },
    /** Their text in the editor (undo brings the author's back). */
    takeTheirs: (c: Conflict) => {
      editor.current?.setText(c.theirs.content, true);
      lastText.current = c.theirs.content;
      setConflict(null);
      session.current?.rebase({ version: c.theirs.version, content: c.theirs.content });
      setVersion(c.theirs.version);
      setFile(c.theirs);
    },
    /** The author's text as the next version, knowingly over theirs. */
    overwrite: (c: Conflict) => {
      setConflict(null);
      session.current?.rebase({ version: c.theirs.version, content: c.theirs.content });
      void session.current?.save(true);
    },
  };

  /** Saves what is typed before a restore replaces it, so the author's last words are a version too; false when it could not. */
  const beforeRestore = useCallback(async () => {
    const s = session.current;
    if (!s || conflict) return false;
    if (s.unsaved()) await s.save(false);
    return !s.unsaved();
  }, [conflict]);

  const restored = useCallback(
    (r: FileDoc & { restoredFrom: number }) => {
      editor.current?.setText(r.content, true);
      lastText.current = r.content;
      session.current?.rebase({ version: r.version, content: r.content });
      setFile(r);
      setVersion(r.version);
      setNote({ kind: 'restored', from: r.restoredFrom, version: r.version });
      reloadFiles();
    },
    [editor, reloadFiles],
  );

  return {
    file,
    initialText,
    version,
    state,
    note,
    conflict,
    error,
    setError,
    session,
    read,
    lastText,
    edited,
    resolve,
    beforeRestore,
    restored,
  };
}
