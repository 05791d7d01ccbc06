/**
 * core/book/: pure rules about the manuscript: which files hold the body text (file-types.ts),
 * the order of files and the renumbering of chapters (chapter-order.ts), what an outline says
 * about each chapter (outline.ts), search in titles and text (search.ts), and closing the task
 * board from the files a turn wrote (task-board-rules.ts).
 */
/**
 * The manuscript's order and its renumbering. One order for everything that lists files: the
 * manuscript tree, the board, the files API's pages and the search results — by type
 * (outline, characters, settings, chapters, script, folders), chapters by the number their
 * title names (the numeral parser's `unitOfTitle`, the same reading the export and the jobs
 * use), unnumbered chapters where their `order` puts them, the rest by `order` and age.
 *
 * Reordering chapters by hand renumbers their titles, because the title is what names a
 * chapter to everyone else: "Chapter 3: The Bell" moved to second place becomes "Chapter 2:
 * The Bell" and the old chapter 2 becomes chapter 3. Only the numeral inside the title's unit
 * reference changes, written as the author wrote it (第三章 → 第二章, "Chapter Ten" →
 * "Chapter Nine", "Chapter 03" → "Chapter 02"); a move keeps the set of numbers the book
 * uses (gaps and a chapter 0 stay), so no title takes a number another file still holds.
 * Pure module.
 */
import { isBodyFileType } from './file-types';
import {
  englishNumberWord,
  findUnitRefs,
  halfWidthDigits,
  parseChineseNumeral,
  parseEnglishNumber,
  unitOfTitle,
} from '../words/numerals';

/**
 * A chapter's new title as the author typed it, keeping the number its old title named when
 * the new one names none: "Chapter 2" renamed "Salt and Ash" is "Chapter 2: Salt and Ash",
 * "第2章 旧港" renamed "雨夜" is "第2章 雨夜". The title is what places a chapter in the book (the
 * board, the outline's match, the export order), so a rename never takes a chapter out of its
 * place; a new title with a number of its own is taken as it is.
 */
export function keepChapterNumber(oldTitle: string, newTitle: string): string {
  const ref = findUnitRefs(oldTitle)[0];
  if (!ref || titleNumber(newTitle) !== null) return newTitle;
  const prefix = oldTitle.slice(ref.start, ref.end).trim();
  return /[\p{Script=Han}]$/u.test(prefix) ? `${prefix} ${newTitle}` : `${prefix}: ${newTitle}`;
}

/** The tree's groups, in order. */
export const TREE_TYPE_ORDER = ['outline', 'character', 'setting', 'draft', 'script', 'folder'] as const;

/** The unit number a title names first ("Chapter Ten" → 10, "第三章" → 3), or null. */
export function titleNumber(title: string): number | null {
  return unitOfTitle(title)?.n ?? null;
}

/** What the order needs to know of a file. */
export interface Orderable {
  id: string;
  type: string;
  title: string;
  order: number;
  /** Missing or unreadable: as old as can be. */
  createdAt?: Date | string;
}

const typeRank = (type: string): number => {
  const i = (TREE_TYPE_ORDER as readonly string[]).indexOf(type);
  return i < 0 ? TREE_TYPE_ORDER.length : i;
};
const time = (d: Date | string | undefined): number => {
  const ms = d === undefined ? NaN : typeof d === 'string' ? Date.parse(d) : d.getTime();
  return Number.isNaN(ms) ? 0 : ms;
};

/** Last keys of the order: the `order` field, age, and the id, so every listing agrees. */
const tieBreak = (a: Orderable, b: Orderable): number =>
  a.order - b.order || time(a.createdAt) - time(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Chapters in reading order: numbered ones by their number; a chapter whose title names no
 * number ("Prologue", "Interlude") stays after the numbered chapter that precedes it by
 * `order` (before them all when none does) — so a prologue made first, or moved first on
 * the board, stays first, and an epilogue stays last. Each title is parsed once.
 */
function chapterSequence<T extends Orderable>(list: T[]): T[] {
  const keyed = list.map((f) => ({ f, n: titleNumber(f.title) }));
  const numbered = keyed.filter((k) => k.n !== null).sort((a, b) => a.n! - b.n! || tieBreak(a.f, b.f));
  const loose = keyed.filter((k) => k.n === null).sort((a, b) => tieBreak(a.f, b.f));
  if (!loose.length || !numbered.length) return [...numbered, ...loose].map((k) => k.f);
  const place = new Map(numbered.map((k, i) => [k.f, i]));
  const byOrder = [...numbered].sort((a, b) => tieBreak(a.f, b.f));
  // after[i + 1]: the loose chapters that follow numbered chapter i (after[0]: before them all).
  const after: T[][] = Array.from({ length: numbered.length + 1 }, () => []);
  for (const { f } of loose) {
    let anchor = -1;
    for (const k of byOrder) {
      if (tieBreak(k.f, f) >= 0) break;
      anchor = Math.max(anchor, place.get(k.f)!);
    }
    after[anchor + 1]!.push(f);
  }
  return [...after[0]!, ...numbered.flatMap((k, i) => [k.f, ...after[i + 1]!])];
}

/** Files in the manuscript's order (a sorted copy): by type, chapters in reading order, the rest by order and age. */
export function inTreeOrder<T extends Orderable>(files: readonly T[]): T[] {
  const byType = new Map<number, T[]>();
  for (const f of files) {
    const rank = typeRank(f.type);
    if (!byType.has(rank)) byType.set(rank, []);
    byType.get(rank)!.push(f);
  }
  return [...byType.keys()]
    .sort((a, b) => a - b)
    .flatMap((rank) => {
      const list = byType.get(rank)!;
      return isBodyFileType(list[0]!.type) ? chapterSequence(list) : list.sort(tieBreak);
    });
}

const ZH_DIGIT = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/** 2 → 二, 10 → 十, 12 → 十二, 105 → 一百零五, 1010 → 一千零一十 (up to 9999; larger stay Arabic). */
export function chineseNumeral(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > 9999) return String(n);
  if (n < 10) return ZH_DIGIT[n]!;
  const units: [number, string][] = [
    [1000, '千'],
    [100, '百'],
    [10, '十'],
  ];
  let out = '';
  let rest = n;
  let gap = false;
  for (const [value, unit] of units) {
    const d = Math.floor(rest / value);
    rest %= value;
    if (d) {
      if (gap) out += '零';
      // 十二, not 一十二: a leading ten has no digit before it.
      out += (d === 1 && value === 10 && !out ? '' : ZH_DIGIT[d]!) + unit;
      gap = false;
    } else if (out) gap = true;
  }
  if (rest) out += (gap ? '零' : '') + ZH_DIGIT[rest]!;
  return out;
}

/** The same letter case as `sample`: "Ten" → "Nine", "TEN" → "NINE", "ten" → "nine". */
function likeCase(word: string, sample: string): string {
  if (sample === sample.toUpperCase()) return word.toUpperCase();
  if (sample[0] === sample[0]!.toUpperCase()) return word[0]!.toUpperCase() + word.slice(1);
  return word;
}

const NUMERAL = /[0-9]+|[０-９]+|[零〇一二两三四五六七八九十百千万廿卅]+|[A-Za-z]+(?:-[A-Za-z]+)?/g;

/** `n` written the way `token` writes its number (digits, full-width digits, Chinese numerals, English words). */
function writeLike(token: string, n: number): string {
  if (/^[0-9]+$/.test(token))
    return String(n).padStart(token.length > 1 && token.startsWith('0') ? token.length : 0, '0');
  if (/^[０-９]+$/.test(token))
    return String(n).replace(/[0-9]/g, (d) => String.fromCharCode(d.charCodeAt(0) + 0xfee0));
  if (parseChineseNumeral(token) !== null) return chineseNumeral(n);
  const word = englishNumberWord(n);
  return word ? likeCase(word, token) : String(n);
}

/**
 * The title with the number of its unit reference replaced by `n`, written in the same
 * style; null when the title names no single unit (no number, or a range such as
 * "Chapters 2–3", which a renumbering leaves alone).
 */
export function renumberTitle(title: string, n: number): string | null {
  const ref = findUnitRefs(title)[0];
  if (!ref || ref.from !== ref.to) return null;
  const span = title.slice(ref.start, ref.end);
  for (const m of span.matchAll(NUMERAL)) {
    const token = m[0];
    const value = /^[0-9０-９]+$/.test(token)
      ? Number(halfWidthDigits(token))
      : (parseChineseNumeral(token) ?? parseEnglishNumber(token));
    if (value !== ref.from) continue;
    const at = ref.start + m.index;
    return title.slice(0, at) + writeLike(token, n) + title.slice(at + token.length);
  }
  return null;
}

/** One chapter of the sequence a reorder works on, in the manuscript's order. */
export interface SequenceItem {
  id: string;
  title: string;
}

/** What a reorder changes: each chapter's new `order` and the titles that get a new number. */
export interface ReorderPlan {
  /** Chapter ids in their new order (`order` = index). */
  ids: string[];
  /** id → new title, only for titles that change. */
  renames: Map<string, string>;
}

/** The numbered chapters (single unit in the title) get `numbers` in sequence order; others keep their titles. */
function assignNumbers(ids: string[], byId: Map<string, SequenceItem>, numbers: number[]): ReorderPlan {
  const renames = new Map<string, string>();
  let k = 0;
  for (const id of ids) {
    const item = byId.get(id)!;
    const ref = findUnitRefs(item.title)[0];
    if (!ref || ref.from !== ref.to) continue;
    const n = numbers[k++]!;
    if (n === ref.from) continue;
    const title = renumberTitle(item.title, n);
    if (title !== null && title !== item.title) renames.set(id, title);
  }
  return { ids, renames };
}

/** The numbers the numbered chapters hold, ascending (duplicates kept). */
function numbersOf(seq: SequenceItem[]): number[] {
  const out: number[] = [];
  for (const s of seq) {
    const ref = findUnitRefs(s.title)[0];
    if (ref && ref.from === ref.to) out.push(ref.from);
  }
  return out.sort((a, b) => a - b);
}

/**
 * Moves chapter `id` to index `to` of the sequence (clamped) and renumbers: the numbered
 * chapters, in their new order, take the numbers the book already uses, in ascending order.
 */
export function planMove(seq: SequenceItem[], id: string, to: number): ReorderPlan {
  const byId = new Map(seq.map((s) => [s.id, s]));
  if (!byId.has(id)) throw new Error(`no chapter ${id} in the sequence`);
  const ids = seq.map((s) => s.id).filter((x) => x !== id);
  ids.splice(Math.max(0, Math.min(to, ids.length)), 0, id);
  return assignNumbers(ids, byId, numbersOf(seq));
}

/** Numbers the chapters 1, 2, 3 … in their current order (from 0 when the book has a chapter 0). */
export function planRenumber(seq: SequenceItem[]): ReorderPlan {
  const byId = new Map(seq.map((s) => [s.id, s]));
  const held = numbersOf(seq);
  const start = held.length && held[0] === 0 ? 0 : 1;
  return assignNumbers(
    seq.map((s) => s.id),
    byId,
    held.map((_, i) => start + i),
  );
}
