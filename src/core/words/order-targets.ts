/**
 * What an order names (core/words/orders.ts): a unit in any numeral, a range of two units, a title or
 * one of its other names, a numbered file by its subtitle and kind, the file pointed at, and inside
 * an exception a bare number or an ordinal. Words that name no file are left for the grammar to
 * account for, and fail it. Pure module.
 */
import { unitOfTitle, type UnitKind } from './numerals';
import * as W from './order-words';
import type { Cursor, Tok } from './order-tokens';

/** What an order names: units, a file by its title, a bare number (only inside an exception), or the file pointed at. */
export type Target =
  | { kind: 'unit'; unit: { kind: UnitKind; from: number; to: number; list?: number[] } }
  | { kind: 'title'; title: string }
  | { kind: 'number'; n: number }
  | { kind: 'pointer' }
  /** "the rest", "其他": the files not named, in an exception or a keep. */
  | { kind: 'rest' }
  /** "the second", "the last" (only inside an exception): the n-th of the order's one range or list; -1 is the last. */
  | { kind: 'ordinal'; n: number };

/** One target at the cursor: a unit (with the subtitle of a titled chapter after it), a title, a pointer, or (in an exception) a bare number. */
function eatTarget(c: Cursor, titles: readonly string[], bareNumbers: boolean): Target | null {
  const mark = c.i;
  const target = eatTargetAt(c, titles, bareNumbers);
  // Words that name no file are left for the grammar to account for (and fail on): never skipped.
  if (!target) c.i = mark;
  return target;
}

function eatTargetAt(c: Cursor, titles: readonly string[], bareNumbers: boolean): Target | null {
  if (c.eat(W.POINTER_EN) ?? c.eat(W.POINTER_ZH)) return { kind: 'pointer' };
  if (c.eat(W.REST)) return { kind: 'rest' };
  // Up to two determiners ("the whole", "我的那个"): "the old Notes file".
  if (!c.eat(W.DET_EN)) c.eat(W.DET_ZH);
  c.eat(W.DET_EN);
  const t = c.peek();
  if (!t) return null;
  if (t.title) {
    c.i++;
    const after = c.i;
    c.skipMarks();
    if (!c.eat(W.NOUN_AFTER_REF)) c.i = after;
    return { kind: 'title', title: t.title };
  }
  if (t.word?.kind === 'unit') {
    c.i++;
    const unit = t.word.unit!;
    // Only a single unit takes a subtitle: "chapters 3-4 The Lighthouse" does not name chapter 3's.
    const named = unit.from === unit.to && !unit.list ? eatUnitTitle(c, unit, titles) : undefined;
    if (named === null) return null;
    c.eat(W.NOUN_AFTER_REF);
    return named ?? { kind: 'unit', unit };
  }
  const before = eatWordsOfUnit(c, titles);
  if (before !== undefined) return before;
  const bySubtitle = eatSubtitleRef(c, titles);
  if (bySubtitle) return bySubtitle;
  const ordinal = bareNumbers ? eatOrdinal(c) : null;
  if (ordinal) return ordinal;
  if (bareNumbers && t.word?.kind === 'number' && /^\d+$/.test(t.text)) {
    c.i++;
    return { kind: 'number', n: Number(t.text) };
  }
  if (c.eat(W.POINTER_EN) ?? c.eat(W.POINTER_ZH)) return { kind: 'pointer' };
  return null;
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

/** An ordinal in an exception ("bar the second", "except the last one"): which of the order's units it leaves out. */
function eatOrdinal(c: Cursor): Target | null {
  const mark = c.i;
  const word = c.eat([...ORDINALS, 'last']);
  if (!word) return null;
  // A noun after it is read only when it is a unit's ("the second chapter"), never a part ("the second half").
  if (W.PART_WORDS.includes(c.peek()?.key ?? '')) {
    c.i = mark;
    return null;
  }
  c.eat(['one', 'chapter', 'episode', 'act']);
  return { kind: 'ordinal', n: word === 'last' ? -1 : ORDINALS.indexOf(word) + 1 };
}

/** The subtitle of a numbered title ("Chapter 3: The Lighthouse" → "The Lighthouse"), or ''. */
function subtitleOf(title: string): string {
  const m = /^(?:第\s*\S{1,6}?\s*[章集回幕]|(?:chapter|episode|act)\s+\S+)\s*[:：.\-–]?\s*(.+)$/iu.exec(title.trim());
  return m?.[1]?.trim() ?? '';
}

/** Whether a subtitle holds a word for a part of a file ("The End", "结尾"): then it may mean that part. */
function namesPart(sub: string): boolean {
  const lower = sub.toLowerCase();
  const words: string[] = lower.match(/[\p{L}\p{M}]+/gu) ?? [];
  return W.PART_WORDS.some((p) => (/\p{Script=Han}/u.test(p) ? lower.includes(p) : words.includes(p)));
}

/** The nouns of a unit's kind that make its subtitle a name of the file ("the lighthouse chapter", "夜航那一集"). */
const KIND_NOUNS: Record<UnitKind, { en: string[]; zh: string[] }> = {
  chapter: { en: ['chapter', 'one'], zh: ['那章', '那一章', '这章', '这一章'] },
  episode: { en: ['episode', 'ep', 'one'], zh: ['那集', '那一集', '这集', '这一集'] },
  act: { en: ['act', 'one'], zh: ['那幕', '那一幕', '这幕', '这一幕'] },
};

/**
 * A numbered file named by its subtitle with the noun of its kind: "the lighthouse chapter", "the
 * lighthouse one", "the episode called Night Ferry", "灯塔那章", "夜航那一集". The subtitle must be the
 * whole of one file's and the noun its kind's; a subtitle alone ("delete the lighthouse") may be a
 * place in the story, so it names nothing.
 */
function eatSubtitleRef(c: Cursor, titles: readonly string[]): Target | null {
  const mark = c.i;
  const named = titles
    .map((title) => ({ title, sub: subtitleOf(title).replace(/^the\s+/iu, ''), unit: unitOfTitle(title) }))
    .filter((x): x is { title: string; sub: string; unit: NonNullable<typeof x.unit> } => !!x.sub && !!x.unit)
    .sort((a, b) => b.sub.length - a.sub.length);
  for (const x of named) {
    const nouns = KIND_NOUNS[x.unit.kind];
    // "the episode called Night Ferry"
    if (c.eat(nouns.en.filter((n) => n !== 'one')) && c.eat(['called', 'named', 'titled']) && c.eat([x.sub]))
      return { kind: 'title', title: x.title };
    c.i = mark;
    // "the lighthouse chapter", "夜航那一集"
    if (c.eat([x.sub]) && (c.eat(nouns.en) ?? c.eat(nouns.zh))) return { kind: 'title', title: x.title };
    c.i = mark;
  }
  return null;
}

/** Words that name no file on their own: they never tell two files of one number apart. */
const GLUE = new Set(['the', 'a', 'an', 'of', 'and', '的', '-', '–']);

/** The titles that open with this unit's number and go on with words ("第6章 黑风谷", not "Notes on chapter 6"). */
function titlesOfUnit(unit: { kind: UnitKind; from: number }, titles: readonly string[]): string[] {
  return titles.filter((x) => {
    const u = subtitleOf(x) ? unitOfTitle(x) : null;
    return u?.kind === unit.kind && u.n === unit.from;
  });
}

/**
 * The title words after a unit ("第6章 黑风谷", "Chapter 3: The Lighthouse", "ch4 draft copy",
 * "第三章的草稿副本"): the one file of that number whose title holds them all, as a title, so that
 * a number two files share names only the file its words pick. Undefined when no title words
 * follow (the cursor is left after the unit); null when they name no file of that number or
 * several of them ("第3章 黑风谷" when 黑风谷 is chapter 6's): such words are no reference to act on.
 */
function eatUnitTitle(
  c: Cursor,
  unit: { kind: UnitKind; from: number },
  titles: readonly string[],
): Target | null | undefined {
  const mark = c.i;
  c.eat([':', '：', '的']);
  // A whole subtitle first: it names its own file, whatever the number said.
  for (const title of [...titles].sort((a, b) => b.length - a.length)) {
    const sub = subtitleOf(title);
    if (!sub || !c.eat([sub])) continue;
    const u = unitOfTitle(title);
    if (namesPart(sub)) return null;
    return u?.kind === unit.kind && u.n === unit.from ? { kind: 'title', title } : null;
  }
  const words = eatTitleWords(c, titlesOfUnit(unit, titles));
  if (!words) {
    c.i = mark;
    return undefined;
  }
  return pickTitle(titlesOfUnit(unit, titles), words);
}

/** The words of a title past its number, for telling files of one number apart. */
function restWords(title: string): { latin: Set<string>; han: string } {
  const rest = subtitleOf(title).toLowerCase();
  return {
    latin: new Set(
      rest.match(/[\p{L}\p{M}]+(?:['-][\p{L}\p{M}]+)*/gu)?.filter((w) => !/\p{Script=Han}/u.test(w)) ?? [],
    ),
    han: (rest.match(/\p{Script=Han}+/gu) ?? []).join('|'),
  };
}

/** Words that go on with the order after its object ("from scratch", "and", "except"): never read as title words. */
const ORDER_WORD_AFTER = new Set(
  [W.CLOSE_EN, W.WRITE_ANEW_EN, W.EXCEPT_EN, W.JOIN, W.MANNER_AFTER_EN, W.KEEP_EN].flatMap((l) =>
    l.map((p) => p.split(' ')[0]!.toLowerCase()),
  ),
);

/** Consecutive word tokens that are words of at least one of these titles, or null when none are. */
function eatTitleWords(c: Cursor, candidates: readonly string[]): string[] | null {
  if (!candidates.length) return null;
  const rests = candidates.map(restWords);
  const out: string[] = [];
  while (!c.done) {
    const t = c.peek()!;
    if (t.word?.kind !== 'word' || t.title || ORDER_WORD_AFTER.has(t.key)) break;
    // A part of a file ("the end of chapter 3") is never the file, whatever its title says.
    if (W.PART_WORDS.includes(t.key)) return null;
    const han = /^\p{Script=Han}+$/u.test(t.key);
    const joined = han ? out.filter((w) => /\p{Script=Han}/u.test(w)).join('') + t.key : t.key;
    if (!rests.some((r) => (han ? r.han.includes(joined) : r.latin.has(t.key)))) break;
    out.push(t.key);
    c.i++;
  }
  return out.some((w) => !GLUE.has(w)) ? out : null;
}

/** The one title holding every word (the glue aside), or null when none or several do. */
function pickTitle(candidates: readonly string[], words: readonly string[]): Target | null {
  const han = words.filter((w) => /\p{Script=Han}/u.test(w)).join('');
  const latin = words.filter((w) => !GLUE.has(w) && !/\p{Script=Han}/u.test(w));
  const hits = candidates.filter((x) => {
    const r = restWords(x);
    return r.han.includes(han) && latin.every((w) => r.latin.has(w));
  });
  return hits.length === 1 ? { kind: 'title', title: hits[0]! } : null;
}

/**
 * Title words before "of" and a unit ("the draft copy of chapter 4"): the one file of that number
 * they pick. Undefined (cursor unmoved) when the words are not followed by "of" and a single unit.
 */
function eatWordsOfUnit(c: Cursor, titles: readonly string[]): Target | null | undefined {
  const mark = c.i;
  let j = c.i;
  while (j < c.toks.length && j - c.i < 6 && c.toks[j]!.word?.kind === 'word' && c.toks[j]!.key !== 'of') j++;
  const unit = c.toks[j + 1]?.word?.unit;
  if (j === c.i || c.toks[j]?.key !== 'of' || !unit || unit.from !== unit.to || unit.list) return undefined;
  const candidates = titlesOfUnit(unit, titles);
  const words = eatTitleWords(c, candidates);
  if (!words || c.i !== j) {
    c.i = mark;
    return undefined;
  }
  c.i = j + 2;
  c.eat(W.NOUN_AFTER_REF);
  return pickTitle(candidates, words);
}

/** A list of targets joined by "and", "、", "和" … (at least one). */
export function eatTargets(c: Cursor, titles: readonly string[], bareNumbers = false): Target[] | null {
  const first = eatRange(c) ?? eatTarget(c, titles, bareNumbers);
  if (!first) return null;
  const out = [first];
  for (;;) {
    const mark = c.i;
    // "第三章第四章": two units side by side are a list too.
    const joined = !!c.eat(W.JOIN) || c.peek()?.word?.kind === 'unit';
    if (!joined) break;
    c.skipMarks();
    const next = eatTarget(c, titles, bareNumbers);
    if (!next) {
      c.i = mark;
      break;
    }
    out.push(next);
  }
  return out;
}

/** The unit a token names: a unit word, or a title that is only a unit ("Chapter 2"). */
function unitAt(t: Tok | undefined): { kind: UnitKind; from: number; to: number; list?: number[] } | undefined {
  if (t?.word?.unit) return t.word.unit;
  const u = t?.title && !subtitleOf(t.title) ? unitOfTitle(t.title) : null;
  return u ? { kind: u.kind, from: u.n, to: u.n } : undefined;
}

/**
 * A range written as two units ("chapter 2 to chapter 5", "everything from chapter 2 through chapter
 * 5", "between chapter 2 and chapter 5"): one unit target from the first to the second, both of
 * one kind and in order. Null (cursor unmoved) otherwise.
 */
function eatRange(c: Cursor): Target | null {
  const mark = c.i;
  const between = !!c.eat(['everything between', 'all the chapters between', 'between']);
  if (!between) c.eat(['everything from', 'all of it from', 'all from', 'from']);
  const a = unitAt(c.peek());
  if (a && a.from === a.to && !a.list) {
    c.i++;
    const b = c.eat(between ? ['and'] : W.RANGE_TO) ? unitAt(c.peek()) : undefined;
    if (b && b.kind === a.kind && b.from === b.to && !b.list && b.from > a.from) {
      c.i++;
      c.eat(W.NOUN_AFTER_REF);
      return { kind: 'unit', unit: { kind: a.kind, from: a.from, to: b.from } };
    }
  }
  c.i = mark;
  return null;
}

/** An exception after the object: "except 6", "but not chapter 6", "除了第6章". */
export function eatException(c: Cursor, titles: readonly string[]): Target[] | null {
  const mark = c.i;
  c.skipMarks();
  if (c.eat(W.EXCEPT_EN) ?? c.eat(W.EXCEPT_ZH)) {
    const t = eatTargets(c, titles, true);
    if (t) {
      c.eat(W.EXCEPT_TAIL_ZH);
      return t;
    }
  }
  c.i = mark;
  return null;
}
