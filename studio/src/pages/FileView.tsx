/**
 * A file: its text in an editor with a live word count, saved as the author (`PUT` with the
 * version the edit started from). When someone saved in between (409), the newer text is
 * shown beside the author's, who merges, takes theirs or overwrites knowingly. History with
 * side-by-side diffs and restore; delete moves the file to the trash.
 */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { api, ApiError, type FileDoc, get, errText } from '../api';
import { fmt, useI18n } from '../i18n';
import { href, navigate } from '../router';
import { countWords } from '../../../src/core/text';
import { useProject } from './Project';

const History = lazy(() => import('./History').then((m) => ({ default: m.History })));

interface Conflict {
  theirs: FileDoc;
  mine: string;
}

/** The newer text beside the author's, after a 409: merge, take theirs, or overwrite knowingly. */
function ConflictPanel({ conflict, onMerge, onTakeTheirs, onOverwrite }: { conflict: Conflict; onMerge: () => void; onTakeTheirs: () => void; onOverwrite: () => void }) {
  const { t } = useI18n();
  return (
    <div className="conflict card" role="alertdialog" aria-labelledby="conflict-h" aria-describedby="conflict-b">
      <h3 id="conflict-h">{t.conflictTitle}</h3>
      <p id="conflict-b">{fmt(t.conflictBody, { v: conflict.theirs.version })}</p>
      <div className="columns">
        <div>
          <h4>
            {t.theirText} (v{conflict.theirs.version})
          </h4>
          <pre className="doc" data-testid="their-text" tabIndex={0}>
            {conflict.theirs.content}
          </pre>
        </div>
        <div>
          <h4>{t.yourText}</h4>
          <pre className="doc" data-testid="your-text" tabIndex={0}>
            {conflict.mine}
          </pre>
        </div>
      </div>
      <div className="row">
        <button type="button" onClick={onMerge}>
          {t.merge}
        </button>
        <button type="button" className="secondary" onClick={onTakeTheirs}>
          {t.discardMine}
        </button>
        <button type="button" className="danger" onClick={onOverwrite}>
          {t.overwrite}
        </button>
      </div>
    </div>
  );
}

/**
 * The open file and the author's edit of it: the text, the version it started from, saving
 * (`PUT` with `baseVersion`; a 409 becomes a {@link Conflict}), merging, and catching up with
 * a newer version while the author has not touched the text.
 */
function useFileEditor(fileId: string) {
  const { t } = useI18n();
  const { files, reloadFiles } = useProject();
  const [file, setFile] = useState<FileDoc | null>(null);
  const [text, setText] = useState('');
  const [base, setBase] = useState<{ version: number; content: string } | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      const f = await get<FileDoc>(`/files/${fileId}`);
      setFile(f);
      setText(f.content);
      setBase({ version: f.version, content: f.content });
      setError('');
    } catch (e) {
      setError(errText(e));
    }
  }, [fileId]);
  useEffect(() => {
    void load();
  }, [load]);

  // A newer version landed (an agent, a job, another tab) while the author has not touched
  // the text: show it. With edits of their own, the save's 409 handles it instead.
  const listedVersion = files.find((f) => f.id === fileId)?.version;
  useEffect(() => {
    if (listedVersion && base && listedVersion > base.version && text === base.content && !conflict && !busy) void load();
  }, [listedVersion, base, text, conflict, busy, load]);

  const put = async (content: string, baseVersion: number) => {
    setBusy(true);
    setStatus(t.saving);
    try {
      const saved = await api<FileDoc & { changed: boolean }>('PUT', `/files/${fileId}`, { content, baseVersion });
      setFile(saved);
      setText(saved.content);
      setBase({ version: saved.version, content: saved.content });
      setConflict(null);
      setStatus(saved.changed ? `${t.savedVersion} ${saved.version}` : t.unchanged);
      reloadFiles();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        const theirs = await get<FileDoc>(`/files/${fileId}`);
        setConflict({ theirs, mine: content });
        setStatus('');
      } else {
        setStatus('');
        setError(errText(e));
      }
    } finally {
      setBusy(false);
    }
  };

  const merge = async (c: Conflict) => {
    // Three-way: the author's changes since the base, applied onto the newer text.
    const { createPatch, applyPatch } = await import('diff');
    const patch = createPatch('file', base?.content ?? '', c.mine);
    const merged = applyPatch(c.theirs.content, patch, { fuzzFactor: 2 });
    setBase({ version: c.theirs.version, content: c.theirs.content });
    setFile(c.theirs);
    setConflict(null);
    if (merged === false) {
      setText(`${c.theirs.content}\n\n<<<<<<< ${t.yourText}\n${c.mine}\n>>>>>>>\n`);
      setStatus(t.mergeFailed);
    } else {
      setText(merged);
      setStatus('');
    }
  };

  return { file, text, setText, base, status, error, setError, conflict, setConflict, busy, load, put, merge };
}

export function FilePage({ fileId }: { fileId: string }) {
  const { t } = useI18n();
  const { project, reloadFiles } = useProject();
  const [showHistory, setShowHistory] = useState(false);
  const { file, text, setText, base, status, error, setError, conflict, setConflict, busy, load, put, merge } = useFileEditor(fileId);

  const remove = async () => {
    if (!window.confirm(t.confirmDelete)) return;
    try {
      await api('DELETE', `/files/${fileId}`);
      reloadFiles();
      navigate(href({ page: 'project', projectId: project.id, tab: 'trash' }));
    } catch (e) {
      setError(errText(e));
    }
  };

  if (error && !file) return <p role="alert" className="error">{error}</p>;
  if (!file || !base) return <p>{t.loading}</p>;
  const dirty = text !== base.content;
  const words = countWords(text);
  return (
    <section className="file" aria-labelledby="file-h" data-file-id={file.id} data-version={base.version}>
      <div className="row file-head">
        <h2 id="file-h">{file.title}</h2>
        <span className="muted small" data-testid="file-meta">
          {t.version} {base.version} · {file.latestAuthor === 'author' ? t.by_author : t.by_ai} · <span data-testid="word-count">{words}</span> {t.words}
        </span>
      </div>
      <div className="row">
        <button type="button" onClick={() => void put(text, base.version)} disabled={busy || !!conflict}>
          {t.save}
        </button>
        <button type="button" className="secondary" onClick={() => setShowHistory((s) => !s)} aria-expanded={showHistory}>
          {t.history}
        </button>
        <button type="button" className="danger" onClick={() => void remove()}>
          {t.delete}
        </button>
        <span role="status" className="muted small" data-testid="save-status">
          {status}
          {dirty && !status ? '•' : ''}
        </span>
      </div>
      {error && <p role="alert" className="error">{error}</p>}
      {conflict && (
        <ConflictPanel
          conflict={conflict}
          onMerge={() => void merge(conflict)}
          onTakeTheirs={() => void load().then(() => setConflict(null))}
          onOverwrite={() => void put(conflict.mine, conflict.theirs.version)}
        />
      )}
      <label className="editor">
        <span className="sr-only">{t.editor}</span>
        <textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if ((e.ctrlKey || e.metaKey) && e.key === 's') {
              e.preventDefault();
              if (!busy && !conflict) void put(text, base.version);
            }
          }}
          spellCheck={false}
          aria-label={`${t.editor}: ${file.title}`}
        />
      </label>
      {showHistory && (
        <Suspense fallback={<p>{t.loading}</p>}>
          <History
            fileId={file.id}
            head={base.version}
            current={base.content}
            onRestored={() => {
              void load();
              reloadFiles();
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
