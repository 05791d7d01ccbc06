/**
 * The prose editor: CodeMirror 6 set up for writing, not code — soft-wrapped lines in a
 * readable measure, find and replace, undo that survives saves (the document is never
 * replaced by a save, so its history stays), the selection's words, and the desk's
 * shortcuts. Loaded on its own (React.lazy), so the first screens do not carry CodeMirror.
 *
 * The text lives in CodeMirror, not in React state: a keystroke in a 10,000-word chapter
 * re-renders nothing; the page asks for the text when it needs it (handle.getText).
 */
import { useEffect, useRef, type RefObject } from 'react';
import { Compartment, EditorSelection, EditorState, Transaction } from '@codemirror/state';
import { EditorView, keymap, placeholder as placeholderText } from '@codemirror/view';
import {
  cursorCharLeft,
  cursorCharRight,
  cursorDocEnd,
  cursorDocStart,
  cursorGroupLeft,
  cursorGroupRight,
  cursorLineBoundaryBackward,
  cursorLineBoundaryForward,
  cursorLineDown,
  cursorLineUp,
  cursorPageDown,
  cursorPageUp,
  deleteCharBackward,
  deleteCharForward,
  deleteGroupBackward,
  deleteGroupForward,
  history,
  historyKeymap,
  insertNewline,
  selectAll,
  selectCharLeft,
  selectCharRight,
  selectDocEnd,
  selectDocStart,
  selectGroupLeft,
  selectGroupRight,
  selectLineBoundaryBackward,
  selectLineBoundaryForward,
  selectLineDown,
  selectLineUp,
  selectPageDown,
  selectPageUp,
} from '@codemirror/commands';
import { closeSearchPanel, openSearchPanel, search, searchKeymap, searchPanelOpen } from '@codemirror/search';

/** What the page can do with the open editor. */
export interface ProseEditorHandle {
  getText(): string;
  /**
   * Replaces the text (someone else's version, a merge): only the span that differs changes,
   * so the cursor and scroll stay. `undoable` puts it on the undo history.
   */
  setText(text: string, undoable: boolean): void;
  focus(): void;
  /** Selects [from, to) and scrolls it into the middle of the view. */
  select(from: number, to: number): void;
  openFind(): void;
}

export interface EditorCommands {
  save(): void;
  toggleFocus(): void;
  shortcuts(): void;
  /** Esc with no search panel open: true when it did something (left focus mode). */
  escape(): boolean;
}

interface Props {
  initialText: string;
  label: string;
  lang: string;
  /** CodeMirror's own words (the search panel's), in the author's language. */
  phrases: Record<string, string>;
  placeholder: string;
  /** The text changed: typed by the author, or (`remote`) set by the page through the handle. */
  onChange: (remote: boolean) => void;
  /** The editor is there (its handle works). */
  onReady?: () => void;
  /** The editor goes: its last text, for whoever still needs it. */
  onClose?: (text: string) => void;
  /** The selected text ('' when the selection is empty), after each selection change. */
  onSelection: (selected: string) => void;
  commands: EditorCommands;
  handleRef: RefObject<ProseEditorHandle | null>;
}

/**
 * Moving, selecting and deleting as in any text field — CodeMirror's standard keys without its
 * code editing (indentation, comments, brackets), which prose has no use for and which would
 * bring its language package into the chunk. Enter starts a plain new paragraph.
 */
const proseKeymap = [
  { key: 'ArrowLeft', run: cursorCharLeft, shift: selectCharLeft, preventDefault: true },
  { key: 'Mod-ArrowLeft', mac: 'Alt-ArrowLeft', run: cursorGroupLeft, shift: selectGroupLeft, preventDefault: true },
  { key: 'ArrowRight', run: cursorCharRight, shift: selectCharRight, preventDefault: true },
  {
    key: 'Mod-ArrowRight',
    mac: 'Alt-ArrowRight',
    run: cursorGroupRight,
    shift: selectGroupRight,
    preventDefault: true,
  },
  { key: 'ArrowUp', run: cursorLineUp, shift: selectLineUp, preventDefault: true },
  { key: 'ArrowDown', run: cursorLineDown, shift: selectLineDown, preventDefault: true },
  { key: 'PageUp', run: cursorPageUp, shift: selectPageUp },
  { key: 'PageDown', run: cursorPageDown, shift: selectPageDown },
  { key: 'Home', run: cursorLineBoundaryBackward, shift: selectLineBoundaryBackward, preventDefault: true },
  { key: 'Mod-Home', run: cursorDocStart, shift: selectDocStart },
  { key: 'End', run: cursorLineBoundaryForward, shift: selectLineBoundaryForward, preventDefault: true },
  { key: 'Mod-End', run: cursorDocEnd, shift: selectDocEnd },
  { key: 'Enter', run: insertNewline, shift: insertNewline },
  { key: 'Mod-a', run: selectAll },
  { key: 'Backspace', run: deleteCharBackward, shift: deleteCharBackward, preventDefault: true },
  { key: 'Delete', run: deleteCharForward, preventDefault: true },
  { key: 'Mod-Backspace', mac: 'Alt-Backspace', run: deleteGroupBackward, preventDefault: true },
  { key: 'Mod-Delete', mac: 'Alt-Delete', run: deleteGroupForward, preventDefault: true },
];

/** The one span where `text` differs from the document, as a change. */
function minimalChange(view: EditorView, text: string) {
  const doc = view.state.doc.toString();
  const max = Math.min(doc.length, text.length);
  let from = 0;
  while (from < max && doc.charCodeAt(from) === text.charCodeAt(from)) from++;
  let end = 0;
  while (end < max - from && doc.charCodeAt(doc.length - 1 - end) === text.charCodeAt(text.length - 1 - end)) end++;
  return { from, to: doc.length - end, insert: text.slice(from, text.length - end) };
}

export default function ProseEditor(props: Props) {
  const host = useRef<HTMLDivElement>(null);
  // Callbacks through a ref: the editor is made once, and always calls the page's latest ones.
  const live = useRef(props);
  live.current = props;
  const language = useRef(new Compartment());
  const view = useRef<EditorView | null>(null);

  useEffect(() => {
    const cmds = (): EditorCommands => live.current.commands;
    const run = (f: () => void) => () => (f(), true);
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: live.current.initialText,
        extensions: [
          history(),
          EditorView.lineWrapping,
          search({ top: true }),
          keymap.of([
            { key: 'Mod-s', run: run(() => cmds().save()), preventDefault: true },
            { key: 'Mod-Shift-f', run: run(() => cmds().toggleFocus()), preventDefault: true },
            { key: 'Mod-/', run: run(() => cmds().shortcuts()) },
            ...searchKeymap,
            { key: 'Escape', run: () => cmds().escape() },
            ...historyKeymap,
            ...proseKeymap,
          ]),
          language.current.of(languageExtensions(live.current)),
          EditorView.updateListener.of((u) => {
            // A 'remote' change is one the page made (someone else's version): it rebases itself.
            if (u.docChanged)
              live.current.onChange(
                !u.transactions.some((tr) => tr.docChanged && tr.annotation(Transaction.userEvent) !== 'remote'),
              );
            if (u.selectionSet || u.docChanged) {
              const sel = u.state.selection.main;
              live.current.onSelection(sel.empty ? '' : u.state.sliceDoc(sel.from, sel.to));
            }
          }),
        ],
      }),
    });
    view.current = v;
    live.current.handleRef.current = {
      getText: () => v.state.doc.toString(),
      setText: (text, undoable) => {
        const change = minimalChange(v, text);
        if (change.from === change.to && !change.insert) return;
        v.dispatch({
          changes: change,
          annotations: [Transaction.userEvent.of('remote'), Transaction.addToHistory.of(undoable)],
        });
      },
      focus: () => v.focus(),
      select: (from, to) => {
        const len = v.state.doc.length;
        v.dispatch({
          selection: EditorSelection.single(Math.min(from, len), Math.min(to, len)),
          effects: EditorView.scrollIntoView(Math.min(from, len), { y: 'center' }),
        });
        v.focus();
      },
      openFind: () => {
        if (searchPanelOpen(v.state)) closeSearchPanel(v);
        openSearchPanel(v);
      },
    };
    live.current.onReady?.();
    return () => {
      live.current.onClose?.(v.state.doc.toString());
      live.current.handleRef.current = null;
      view.current = null;
      v.destroy();
    };
  }, []);

  // The author's language and the editor's name follow the page without remaking the editor.
  useEffect(() => {
    view.current?.dispatch({ effects: language.current.reconfigure(languageExtensions(props)) });
  }, [props.lang, props.label, props.phrases, props.placeholder]);

  return <div ref={host} className="prose-editor" lang={props.lang} />;
}

/** What changes with the author's language: the search panel's words, the text's name and language, the empty text's hint. */
function languageExtensions(p: Pick<Props, 'label' | 'lang' | 'phrases' | 'placeholder'>) {
  return [
    EditorState.phrases.of(p.phrases),
    placeholderText(p.placeholder),
    // tabindex: the text is where Tab lands in the editor (axe asks it of a scrolling region's content).
    EditorView.contentAttributes.of({
      'aria-label': p.label,
      'aria-multiline': 'true',
      spellcheck: 'true',
      lang: p.lang,
      autocapitalize: 'sentences',
      tabindex: '0',
    }),
  ];
}
