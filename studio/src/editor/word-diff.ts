/**
 * Two versions of prose compared by words: paragraphs are paired by a line diff, and inside a
 * changed stretch only the words that differ are marked. Words come from `Intl.Segmenter`,
 * which knows where Chinese words begin and end (there are no spaces to go by); without it,
 * every CJK character is a token of its own. A stretch too different to compare word by word
 * in reasonable time is marked whole.
 */
import { type Change, diffLines, diffWords, diffWordsWithSpace } from 'diff';

export interface Piece {
  text: string;
  kind: 'same' | 'del' | 'add';
}

/** One paragraph on each side (null: none there); `change` rows carry their marked words. */
export interface Row {
  left: Piece[] | null;
  right: Piece[] | null;
  kind: 'same' | 'change' | 'del' | 'add';
}

const WORD_DIFF_TIMEOUT_MS = 300;

let segmenters: Record<string, unknown> = {};
function segmenter(lang: string): unknown {
  if (typeof Intl === 'undefined' || !('Segmenter' in Intl)) return undefined;
  segmenters[lang] ??= new Intl.Segmenter(lang, { granularity: 'word' });
  return segmenters[lang];
}
/** Forgets the segmenters (tests compare with and without one). */
export const resetSegmenters = () => (segmenters = {});

/** The words of `before` and `after` marked same / removed / added; null when it took too long. */
export function diffByWords(before: string, after: string, lang = 'en'): Piece[] | null {
  const seg = segmenter(lang);
  const changes: Change[] | undefined = seg
    ? diffWords(before, after, { intlSegmenter: seg, timeout: WORD_DIFF_TIMEOUT_MS })
    : diffWordsWithSpace(before, after, { timeout: WORD_DIFF_TIMEOUT_MS });
  if (!changes) return null;
  return changes.map((c) => ({ text: c.value, kind: c.added ? 'add' : c.removed ? 'del' : 'same' }));
}

/** Splits pieces into lines at their newlines; a removed newline (`keepRemovedBreaks` false) joins its lines. */
function linesOf(pieces: Piece[], keepRemovedBreaks = true): Piece[][] {
  const lines: Piece[][] = [[]];
  for (const p of pieces) {
    const text = !keepRemovedBreaks && p.kind === 'del' ? p.text.replace(/\n/g, ' ') : p.text;
    text.split('\n').forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part) lines[lines.length - 1]!.push({ text: part, kind: p.kind });
    });
  }
  return lines;
}

const lines = (s: string) => s.replace(/\n$/, '').split('\n');
// A last line without its newline is the same line: only the text is compared.
const eol = (s: string) => (s.endsWith('\n') ? s : `${s}\n`);
const whole = (text: string, kind: Piece['kind']): Piece[] => [{ text, kind }];

/**
 * A changed stretch's words as paragraph pairs. A newline both versions keep ends a pair; one
 * only the older (newer) version has ends its paragraph alone, so a paragraph inserted before
 * an edited one stands beside nothing instead of beside the edited paragraph.
 */
function pairedLines(words: Piece[]): Row[] {
  const rows: Row[] = [];
  let left: Piece[] = [];
  let right: Piece[] = [];
  for (const w of words) {
    w.text.split('\n').forEach((part, i) => {
      if (i > 0) {
        if (w.kind !== 'add') rows.push({ left, right: w.kind === 'same' ? right : null, kind: 'change' });
        else rows.push({ left: null, right, kind: 'change' });
        if (w.kind !== 'add') left = [];
        if (w.kind !== 'del') right = [];
      }
      if (!part) return;
      if (w.kind !== 'add') left.push({ text: part, kind: w.kind });
      if (w.kind !== 'del') right.push({ text: part, kind: w.kind });
    });
  }
  if (left.length || right.length)
    rows.push({ left: left.length ? left : null, right: right.length ? right : null, kind: 'change' });
  return rows;
}

/** One paragraph of the running-text view: its words, marked; `changed` when any is. */
export interface InlineLine {
  pieces: Piece[];
  changed: boolean;
}

export interface Comparison {
  /** Side by side: the older version's paragraph beside the newer one's. */
  rows: Row[];
  /** Running text: the newer version with the removed words struck where they stood. */
  inline: InlineLine[];
}

/** `oldText` and `newText` compared paragraph by paragraph, and word by word inside the paragraphs that changed. */
export function compareProse(oldText: string, newText: string, lang = 'en'): Comparison {
  const rows: Row[] = [];
  const inline: InlineLine[] = [];
  const parts = diffLines(eol(oldText), eol(newText));
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (!p.added && !p.removed) {
      for (const l of lines(p.value)) {
        rows.push({ left: whole(l, 'same'), right: whole(l, 'same'), kind: 'same' });
        inline.push({ pieces: whole(l, 'same'), changed: false });
      }
    } else if (p.removed && parts[i + 1]?.added) {
      const removed = lines(p.value);
      const added = lines(parts[i + 1]!.value);
      const words = diffByWords(removed.join('\n'), added.join('\n'), lang);
      const left = removed.map((l) => whole(l, 'del'));
      const right = added.map((l) => whole(l, 'add'));
      if (words) rows.push(...pairedLines(words));
      else
        for (let j = 0; j < Math.max(left.length, right.length); j++)
          rows.push({ left: left[j] ?? null, right: right[j] ?? null, kind: 'change' });
      const running = words ? linesOf(words, false) : [...left, ...right];
      inline.push(...running.map((pieces) => ({ pieces, changed: true })));
      i++;
    } else {
      const kind = p.removed ? 'del' : 'add';
      for (const l of lines(p.value)) {
        rows.push({
          left: kind === 'del' ? whole(l, kind) : null,
          right: kind === 'add' ? whole(l, kind) : null,
          kind,
        });
        inline.push({ pieces: whole(l, kind), changed: true });
      }
    }
  }
  return { rows, inline };
}

/** A run of a comparison's items: shown, or unchanged paragraphs folded away. */
export interface Stretch<T> {
  folded: boolean;
  items: T[];
}

/** Unchanged paragraphs more than `context` items away from a change are folded away. */
export function stretches<T>(items: T[], changed: (item: T) => boolean, context = 2): Stretch<T>[] {
  const near = items.map(() => false);
  items.forEach((item, i) => {
    if (!changed(item)) return;
    for (let k = Math.max(0, i - context); k <= Math.min(items.length - 1, i + context); k++) near[k] = true;
  });
  const out: Stretch<T>[] = [];
  items.forEach((item, i) => {
    const folded = !near[i];
    const last = out[out.length - 1];
    if (last && last.folded === folded) last.items.push(item);
    else out.push({ folded, items: [item] });
  });
  // A fold of one paragraph saves nothing: show it.
  return out.map((s) => (s.folded && s.items.length < 2 ? { folded: false, items: s.items } : s));
}
