/**
 * A file open for writing: the prose editor, its save status, the words and the chapter's
 * goal, find and replace, focus mode, the shortcuts sheet, the conflict panel, history and
 * delete. What the author types is kept on the device at once and saved after a pause
 * (./autosave.ts); leaving with text that cannot be saved asks first (./leave-guard.ts).
 * Loaded on its own (pages/FileView.tsx), with CodeMirror, when a file is opened.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, errText } from '../api';
import { ConflictPanel } from './ConflictPanel';
import { useFocusMode } from './focus-mode';
import { useLeaveGuard } from './leave-guard';
import type { EditorCommands, ProseEditorHandle } from './ProseEditor';
import { ShortcutsSheet } from './ShortcutsSheet';
import { noteText, stateText } from './status';
import { useFileSession } from './useFileSession';
import { type Dict, fmt, useI18n } from '../i18n';
import { href, navigate } from '../router';
import { countWords } from '../../../src/core/text';
import { isBodyFileType } from '../../../src/core/book/file-types';
import { useProject } from '../pages/Project';

const ProseEditor = lazy(() => import('./ProseEditor'));
const History = lazy(() => import('../pages/History').then((m) => ({ default: m.History })));

/** CodeMirror's own words (its search panel), in the author's language. */
const cmPhrases = (t: Dict): Record<string, string> => ({
  Find: t.edCmFind,
  Replace: t.edCmReplace,
  next: t.edCmNext,
  previous: t.edCmPrevious,
  all: t.edCmAll,
  'match case': t.edCmMatchCase,
  regexp: t.edCmRegexp,
  'by word': t.edCmByWord,
  replace: t.edCmReplaceOne,
  'replace all': t.edCmReplaceAll,
  close: t.edCmClose,
  'Go to line': t.edCmGoToLine,
  go: t.edCmGo,
  'current match': t.edCmCurrentMatch,
  'on line': t.edCmOnLine,
  'replaced match on line $': t.edCmReplacedOne,
  'replaced $ matches': t.edCmReplacedMany,
  'Selection deleted': t.edCmSelectionDeleted,
});

/** A positive number, or undefined (goals are optional fields the API may not send). */
const goalOf = (v: unknown): number | undefined => (typeof v === 'number' && v > 0 ? v : undefined);

const editable = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));

/** Calls `fn` once things have been quiet for `ms` (word counts of a long chapter wait for a pause). */
function useDebounced(fn: () => void, ms: number) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  return useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(fn, ms);
  }, [fn, ms]);
}

/**
 * The status line, refreshed every half minute so "Saved just now" ages. Screen readers hear
 * only what needs the author (offline, not saved, a conflict, a restore, a save by hand), not
 * every pause's "Saving… Saved".
 */
function SaveStatus({ text, announce }: { text: () => string; announce: string }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => tick((n) => n + 1), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <>
      <span className="muted small save-status" data-testid="save-status">
        {text()}
      </span>
      <span role="status" className="sr-only">
        {announce}
      </span>
    </>
  );
}

export default function FileDesk({ fileId }: { fileId: string }) {
  const { t, lang } = useI18n();
  const { project, reloadFiles } = useProject();
  const editor = useRef<ProseEditorHandle | null>(null);
  const fs = useFileSession(fileId, editor);
  const { file, session } = fs;
  const [showHistory, setShowHistory] = useState(false);
  const [focus, setFocus] = useState(false);
  const [words, setWords] = useState(0);
  const [selected, setSelected] = useState(0);
  const sheet = useRef<HTMLDialogElement>(null);
  const section = useRef<HTMLElement>(null);
  useFocusMode(section, focus);
  useLeaveGuard(session, t.edLeaveUnsaved);

  const phrases = useMemo(() => cmPhrases(t), [t]);
  const { read } = fs;
  const recount = useDebounced(
    useCallback(() => setWords(countWords(read())), [read]),
    250,
  );
  const selection = useRef('');
  const countSelection = useDebounced(
    useCallback(() => setSelected(selection.current ? countWords(selection.current) : 0), []),
    120,
  );
  useEffect(() => {
    if (fs.initialText !== null) setWords(countWords(fs.initialText));
  }, [fs.initialText]);

  const saveByHand = useCallback(() => {
    if (!fs.conflict) void session.current?.save(true);
  }, [fs.conflict, session]);
  const toggleFocus = useCallback(() => setFocus((f) => !f), []);
  const openSheet = useCallback(() => sheet.current?.showModal(), []);
  const commands: EditorCommands = useMemo(
    () => ({
      save: saveByHand,
      toggleFocus,
      shortcuts: openSheet,
      escape: () => {
        if (!focus) return false;
        setFocus(false);
        return true;
      },
    }),
    [saveByHand, toggleFocus, openSheet, focus],
  );

  // The desk's keys when the caret is not in the text (the editor's own keymap handles them there).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || (e.target as Element | null)?.closest?.('.cm-content')) return;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && key === 's') {
        e.preventDefault();
        saveByHand();
      } else if (mod && e.shiftKey && key === 'f') {
        e.preventDefault();
        toggleFocus();
      } else if (mod && key === 'f') {
        e.preventDefault();
        editor.current?.openFind();
      } else if (e.key === '?' && !mod && !editable(e.target)) {
        e.preventDefault();
        openSheet();
      } else if (e.key === 'Escape' && focus && !document.querySelector('dialog[open]')) setFocus(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [saveByHand, toggleFocus, openSheet, focus]);

  /** A search hit opens the file at it: `?at=<offset>&len=<n>`, or the first `?find=<text>`. */
  const onReady = useCallback(() => {
    const q = new URLSearchParams(location.search);
    const at = Number(q.get('at'));
    const find = q.get('find');
    if (q.has('at') && Number.isFinite(at)) editor.current?.select(at, at + Math.max(0, Number(q.get('len')) || 0));
    else if (find) {
      const i = read().toLowerCase().indexOf(find.toLowerCase());
      if (i >= 0) editor.current?.select(i, i + find.length);
    }
  }, [read]);

  const remove = async () => {
    if (!window.confirm(t.confirmDelete)) return;
    try {
      // The trash keeps the file as the author last wrote it.
      if (session.current?.unsaved()) await session.current.save(false);
      await api('DELETE', `/files/${fileId}`);
      reloadFiles();
      navigate(href({ page: 'project', projectId: project.id, tab: 'trash' }));
    } catch (e) {
      fs.setError(errText(e));
    }
  };

  if (fs.error && !file)
    return (
      <p role="alert" className="error">
        {fs.error}
      </p>
    );
  if (!file || fs.initialText === null) return <p>{t.loading}</p>;
  const isChapter = isBodyFileType(file.type);
  const goal =
    goalOf((file as { wordGoal?: unknown }).wordGoal) ??
    (isChapter ? goalOf((project as { chapterWordGoal?: unknown }).chapterWordGoal) : undefined);
  const status = () => [noteText(t, fs.note), stateText(t, fs.state, lang)].filter(Boolean).join(' · ');
  const quiet =
    fs.state.kind === 'clean' ||
    fs.state.kind === 'pending' ||
    fs.state.kind === 'saving' ||
    (fs.state.kind === 'saved' && !fs.state.byHand);
  const announce = [noteText(t, fs.note), quiet ? '' : stateText(t, fs.state, lang)].filter(Boolean).join(' · ');
  const label = `${t.editor}: ${file.title}`;
  // The text's own language (spellcheck, line breaking), not the interface's: an English book
  // may be written with the Chinese interface. An empty text follows the interface.
  const textLang =
    /\p{Script=Han}/u.test(fs.initialText.slice(0, 2000)) || (!fs.initialText.trim() && lang === 'zh') ? 'zh-CN' : 'en';
  return (
    <section
      ref={section}
      className={focus ? 'file focus' : 'file'}
      aria-labelledby="file-h"
      data-file-id={file.id}
      data-version={fs.version}
    >
      <div className="file-head">
        <h2 id="file-h">{file.title}</h2>
        <span className="muted small" data-testid="file-meta">
          {fmt(t.edVersionN, { v: fs.version })} · {file.latestAuthor === 'author' ? t.by_author : t.by_ai} ·{' '}
          <span data-testid="word-count">{words.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US')}</span> {t.words}
          {selected > 0 && <span data-testid="selection-words"> · {fmt(t.edSelectionWords, { n: selected })}</span>}
        </span>
        {goal && (
          <span className="goal small" data-testid="goal">
            <progress max={goal} value={Math.min(words, goal)} aria-label={fmt(t.edGoalLabel, { goal })} />
            <span>
              {words >= goal
                ? t.edGoalMet
                : fmt(t.edGoalProgress, { n: words.toLocaleString(), goal: goal.toLocaleString() })}
            </span>
          </span>
        )}
      </div>
      <div className="row file-actions" role="group" aria-label={t.edFileActions}>
        {focus ? (
          <button type="button" className="secondary" onClick={() => setFocus(false)}>
            {t.edFocusLeave}
          </button>
        ) : (
          <>
            <button type="button" onClick={saveByHand} disabled={!!fs.conflict}>
              {t.save}
            </button>
            <button type="button" className="secondary" onClick={() => editor.current?.openFind()}>
              {t.edFindReplace}
            </button>
            <button type="button" className="secondary" onClick={toggleFocus} aria-keyshortcuts="Control+Shift+F">
              {t.edFocusMode}
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => setShowHistory((s) => !s)}
              aria-expanded={showHistory}
            >
              {t.history}
            </button>
            <button
              type="button"
              className="secondary"
              onClick={openSheet}
              aria-haspopup="dialog"
              aria-keyshortcuts="?"
            >
              {t.edShortcutsButton}
            </button>
            <button type="button" className="danger" onClick={() => void remove()}>
              {t.delete}
            </button>
          </>
        )}
        <SaveStatus text={status} announce={announce} />
      </div>
      {fs.error && (
        <p role="alert" className="error">
          {fs.error}
        </p>
      )}
      {fs.conflict && (
        <ConflictPanel
          conflict={fs.conflict}
          onMerge={() => void fs.resolve.merge(fs.conflict!)}
          onTakeTheirs={() => fs.resolve.takeTheirs(fs.conflict!)}
          onOverwrite={() => fs.resolve.overwrite(fs.conflict!)}
        />
      )}
      <Suspense fallback={<div className="prose-frame prose-loading">{t.loading}</div>}>
        <div className="prose-frame">
          <ProseEditor
            initialText={fs.initialText}
            label={label}
            lang={textLang}
            phrases={phrases}
            placeholder={t.edEditorPlaceholder}
            onChange={(remote) => {
              if (!remote) fs.edited();
              recount();
            }}
            onSelection={(text) => {
              if (!text && !selection.current) return;
              selection.current = text;
              countSelection();
            }}
            onReady={onReady}
            onClose={(text) => (fs.lastText.current = text)}
            commands={commands}
            handleRef={editor}
          />
        </div>
      </Suspense>
      {showHistory && !focus && (
        <Suspense fallback={<p>{t.loading}</p>}>
          <History
            fileId={file.id}
            head={fs.version}
            current={session.current?.baseText ?? ''}
            beforeRestore={fs.beforeRestore}
            onRestored={fs.restored}
          />
        </Suspense>
      )}
      <ShortcutsSheet dialog={sheet} />
    </section>
  );
}
