/**
 * Opens a file at a place in its text (a search hit): once the editor holds the file's text,
 * the hit is selected and scrolled into view. It works with the editor as the page has it —
 * a CodeMirror view (found from its DOM, its module loaded only then) or a plain textarea —
 * and gives up quietly after a few seconds (the file is open either way).
 */
import { useEffect } from 'react';

export interface TextRange {
  from: number;
  to: number;
}

/** The editor of the open file: its CodeMirror root, or its textarea. */
function editorOf(fileId: string): HTMLElement | null {
  const section = document.querySelector<HTMLElement>(`section.file[data-file-id="${CSS.escape(fileId)}"]`);
  if (!section) return null;
  return (
    section.querySelector<HTMLElement>('.cm-editor') ??
    section.querySelector<HTMLTextAreaElement>('.editor textarea') ??
    section.querySelector('textarea')
  );
}

function revealInTextarea(area: HTMLTextAreaElement, at: TextRange): boolean {
  if (area.value.length < at.to) return false;
  // Focusing with the caret at the hit scrolls the textarea to it; then the hit is selected.
  area.blur();
  area.setSelectionRange(at.from, at.from);
  area.focus();
  area.setSelectionRange(at.from, at.to);
  area.closest('section')?.scrollIntoView({ block: 'nearest' });
  return true;
}

async function revealInCodeMirror(root: HTMLElement, at: TextRange): Promise<boolean> {
  const { EditorView } = await import('@codemirror/view');
  const view = EditorView.findFromDOM(root);
  if (!view || view.state.doc.length < at.to) return false;
  view.dispatch({
    selection: { anchor: at.from, head: at.to },
    effects: EditorView.scrollIntoView(at.from, { y: 'center' }),
  });
  view.focus();
  return true;
}

async function revealOnce(fileId: string, at: TextRange): Promise<boolean> {
  const el = editorOf(fileId);
  if (!el) return false;
  if (el instanceof HTMLTextAreaElement) return revealInTextarea(el, at);
  return revealInCodeMirror(el, at);
}

/** Selects `at` in the open file's editor as soon as the file's text is there. */
export function RevealHit({ fileId, at }: { fileId: string; at: TextRange }) {
  const { from, to } = at;
  useEffect(() => {
    let cancelled = false;
    let timer = 0;
    let tries = 0;
    const attempt = () => {
      if (cancelled) return;
      void revealOnce(fileId, { from, to }).then((done) => {
        if (!done && !cancelled && tries++ < 80) timer = window.setTimeout(attempt, 100);
      });
    };
    attempt();
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [fileId, from, to]);
  return null;
}
