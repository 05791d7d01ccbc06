/**
 * The grammar of orders: a clause authorises a whole-file delete or rewrite, or a job command,
 * only when every word of it is accounted for — an optional lead (courtesy, "ok", "please",
 * 请/帮我/麻烦), the verb as a whole word, a complete object (a unit in any numeral, a title, a
 * list, a range with its exceptions, the open file by pointing), closing words, punctuation and
 * emoji. Any other word means the clause is not an order, and nothing is authorised by it: the
 * agent asks instead. This is an allow-list; the lists of things that make a sentence something
 * else (questions, hedges, jokes, take-backs: core/words/utterance, `VOIDS`) are a second check on
 * top, never the reason an order is read. Pure module.
 */
import { unitOfTitle, type UnitKind } from './numerals';
import type { ReadClause, Word } from './reading';
import * as W from './order-words';
import { OBJECT_ID_ANY_CASE } from '../ids';

export type FileAction = 'delete' | 'rewrite';
export type JobAction = 'pause' | 'resume' | 'cancel';

/** What an order names: units, a file by its title, a bare number (only inside an exception), or the file pointed at. */
export type Target =
  | { kind: 'unit'; unit: { kind: UnitKind; from: number; to: number; list?: number[] } }
  | { kind: 'title'; title: string }
  | { kind: 'number'; n: number }
  | { kind: 'pointer' }
  /** "the rest", "其他": the files not named, in an exception or a keep. */
  | { kind: 'rest' };

export interface FileOrder {
  action: FileAction;
  targets: Target[];
  /** What the order leaves out ("except 6", "第6章除外"). */
  except: Target[];
  /** The order has no object of its own ("删了吧"): it points at the topic or the open file. */
  implicit: boolean;
}

/** A token the grammar reads: a word of the reading, or a file title the words spell. */
interface Tok {
  text: string;
  /** Lower-case text, for matching. */
  key: string;
  word: Word | null;
  title?: string;
  start: number;
  end: number;
}

const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, '');

/** Every Chinese phrase of the grammar, for reading a segmenter's word that is several of them ("先不动" = 先 + 不动). */
const ZH_LEXICON = [
  ...new Set(
    Object.values(W)
      .filter((v): v is string[] => Array.isArray(v))
      .flat()
      .filter((p) => /^\p{Script=Han}+$/u.test(p)),
  ),
];

/**
 * A Han word the grammar does not know as a whole, cut into grammar phrases when it is made of
 * nothing else ("先不动" → 先 不动, "都删了" → 都 删 了); otherwise kept whole. 删减, 删改 and
 * 删繁就简 hold a character that is no phrase of the grammar, so they stay the words they are.
 */
function lexiconCut(key: string, lexicon: readonly string[] = ZH_LEXICON): string[] | null {
  if (lexicon.includes(key) || !/^\p{Script=Han}+$/u.test(key)) return null;
  const best: (string[] | null)[] = [[]];
  for (let i = 1; i <= key.length; i++) {
    best[i] = null;
    for (const p of lexicon) {
      const prev = i >= p.length ? best[i - p.length] : null;
      if (prev && key.slice(i - p.length, i) === p && (!best[i] || prev.length + 1 < best[i]!.length))
        best[i] = [...prev, p];
    }
  }
  return best[key.length] ?? null;
}

/**
 * The name goes on past a title: "Notes 2" after "Notes", "Anna Marsh" after "Anna", "林夏雪" after
 * "林夏" (a Han character glued to it that is not a particle): another name, not this title.
 */
function nameGoesOn(last: Tok, next: Tok | undefined): boolean {
  // Closing punctuation or nothing: the name ends there.
  if (!next?.word) return false;
  const gap = next.start - last.end;
  if (next.word.kind === 'number' && gap <= 1) return true;
  if (next.word.kind === 'word' && /^[A-Z][a-z]/.test(next.text) && gap === 1) return true;
  // The segmenter keeps a longer name whole ("林夏雪") or cuts a character off it ("林夏/雪"): a lone
  // Han character glued on that is no particle or verb continues the name; a word of its own does not.
  return (
    gap === 0 &&
    /^\p{Script=Han}$/u.test(next.text) &&
    /\p{Script=Han}$/u.test(last.text) &&
    !/^[的是也都就太很挺不没和与及跟了吧啊呢吗写改删这那已还再被真好给全]$/u.test(next.text)
  );
}

/**
 * The other names a title goes by, when it has a head and a tail and no number: its head alone
 * ("Prologue - Salt Wind" → "prologue", "序章 血月" → "序章") and, for a head with a name after it,
 * "<name>'s <head>" ("Character Sheet - Eli" → "eli's character sheet"). A name that another title
 * has, or that two titles share ("Character Sheet" for Mara's and Eli's), names neither.
 */
function titleAliases(titles: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (const title of titles) {
    if (unitOfTitle(title)) continue;
    const parts = /\p{Script=Han}/u.test(title)
      ? /^(\S+)\s+(\S+)$/u.exec(title.trim())
      : /^(.+?)\s*(?:\s[-–—]\s|[:：])\s*(.+)$/u.exec(title.trim());
    if (!parts) continue;
    pairs.push([parts[1]!, title]);
    if (/^[\p{L}\s]+$/u.test(parts[2]!)) pairs.push([`${parts[2]}'s ${parts[1]}`, title]);
  }
  const taken = new Set(titles.map(norm));
  return pairs.filter(
    ([name]) => !taken.has(norm(name)) && pairs.filter(([other]) => norm(other) === norm(name)).length === 1,
  );
}

/** The clause's tokens, with the words that spell a title (whole words only) merged into one. */
function tokensOf(clause: ReadClause, titles: readonly string[], lexicon?: readonly string[]): Tok[] {
  const toks: Tok[] = clause.words.flatMap((w) => {
    const parts = w.kind === 'word' ? lexiconCut(norm(w.text), lexicon) : null;
    if (!parts) return [{ text: w.text, key: norm(w.text), word: w, start: w.start, end: w.end }];
    let at = w.start;
    return parts.map((p) => {
      const tok = {
        text: p,
        key: p,
        word: { ...w, text: p, start: at, end: at + p.length },
        start: at,
        end: at + p.length,
      };
      at += p.length;
      return tok;
    });
  });
  if (!titles.length) return toks;
  // Longest names first: "Notes 2" before "Notes", "林夏雪" before "林夏".
  const named = [...titles.map((t) => [t, t] as const), ...titleAliases(titles)]
    .filter(([name]) => name.trim())
    .sort(([a], [b]) => b.length - a.length);
  const out: Tok[] = [];
  for (let i = 0; i < toks.length;) {
    let merged = false;
    for (const [name, title] of named) {
      const want = norm(name);
      let acc = '';
      for (let j = i; j < toks.length && acc.length < want.length; j++) {
        acc += toks[j]!.key;
        if (acc === want && !nameGoesOn(toks[j]!, toks[j + 1])) {
          out.push({ text: title, key: want, word: null, title, start: toks[i]!.start, end: toks[j]!.end });
          i = j + 1;
          merged = true;
          break;
        }
      }
      if (merged) break;
    }
    if (!merged) out.push(toks[i++]!);
  }
  return out;
}

/** Damerau-Levenshtein distance of at most one (a typo: one letter wrong, missing, extra, or two swapped). */
function oneTypo(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  if (a.length === b.length) {
    const diff = [...a].map((c, i) => (c === b[i] ? -1 : i)).filter((i) => i >= 0);
    if (diff.length === 1) return true;
    return diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!];
  }
  const [s, l] = a.length < b.length ? [a, b] : [b, a];
  for (let i = 0; i < l.length; i++) if (s === l.slice(0, i) + l.slice(i + 1)) return true;
  return false;
}

/** A cursor over a clause's tokens. */
class Cursor {
  i = 0;
  constructor(readonly toks: Tok[]) {}
  get done(): boolean {
    return this.i >= this.toks.length;
  }
  peek(): Tok | undefined {
    return this.toks[this.i];
  }
  /** Matches one of `phrases` at the cursor over whole tokens; moves past it. */
  eat(phrases: readonly string[]): string | null {
    let best: { phrase: string; next: number } | null = null;
    for (const phrase of phrases) {
      const want = norm(phrase);
      let acc = '';
      for (let j = this.i; j < this.toks.length && acc.length < want.length; j++) {
        if (this.toks[j]!.title) break;
        acc += this.toks[j]!.key;
        if (acc === want && (!best || j + 1 > best.next)) best = { phrase, next: j + 1 };
      }
    }
    if (!best) return null;
    this.i = best.next;
    return best.phrase;
  }
  /** A verb of `phrases`, or an English typo of one of `typoOf` (ratified only if the rest parses). */
  eatVerb(phrases: readonly string[], typoOf: readonly string[]): string | null {
    const exact = this.eat(phrases);
    if (exact) return exact;
    const t = this.peek();
    if (!t || !t.word || t.word.kind !== 'word' || t.key.length < 5 || !/^[a-z]+$/.test(t.key)) return null;
    // "deleted", "removes", "pausing" are the verb's own forms (a report, a description), not a typo of it.
    const hit = typoOf.find(
      (v) => phrases.includes(v) && oneTypo(t.key, v) && !(t.key.length > v.length && /(?:ed|d|s|ing)$/.test(t.key)),
    );
    if (!hit) return null;
    this.i++;
    return hit;
  }
  /** Skips punctuation (not a question mark) and emoji. */
  skipMarks(): void {
    while (!this.done) {
      const t = this.peek()!;
      if (t.word && ((t.word.kind === 'punct' && !/[?？]/.test(t.text)) || t.word.kind === 'emoji')) this.i++;
      else break;
    }
  }
  /** Skips any of these phrases and marks, as many as there are. */
  skip(...lists: (readonly string[])[]): void {
    for (;;) {
      this.skipMarks();
      if (!lists.some((l) => this.eat(l))) return;
    }
  }
}

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
  if (bareNumbers && t.word?.kind === 'number' && /^\d+$/.test(t.text)) {
    c.i++;
    return { kind: 'number', n: Number(t.text) };
  }
  if (c.eat(W.POINTER_EN) ?? c.eat(W.POINTER_ZH)) return { kind: 'pointer' };
  return null;
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
function eatTargets(c: Cursor, titles: readonly string[], bareNumbers = false): Target[] | null {
  const first = eatTarget(c, titles, bareNumbers);
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

/** An exception after the object: "except 6", "but not chapter 6", "除了第6章". */
function eatException(c: Cursor, titles: readonly string[]): Target[] | null {
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

/** The model after an English object ("to match chapter 3", "in the style of the Prologue"): consumed, never a target. */
function eatMannerEn(c: Cursor, titles: readonly string[]): boolean {
  const mark = c.i;
  if (c.eat(W.MANNER_AFTER_EN) && eatTargets(c, titles)) return true;
  c.i = mark;
  return false;
}

/** The model before a Chinese verb ("按第3章的风格", "以第三章为准"). */
function eatMannerZh(c: Cursor, titles: readonly string[]): boolean {
  const mark = c.i;
  if (c.eat(W.MANNER_BEFORE_ZH) && eatTargets(c, titles)) {
    c.eat(W.MANNER_TAIL_ZH);
    c.skipMarks();
    return true;
  }
  c.i = mark;
  return false;
}

const FILE_VERBS: { action: FileAction; en: readonly string[]; zh: readonly string[] }[] = [
  { action: 'rewrite', en: W.REWRITE_EN, zh: W.REWRITE_ZH },
  { action: 'delete', en: W.DELETE_EN, zh: W.DELETE_ZH },
];

function eatFileVerb(c: Cursor, lang: 'en' | 'zh'): { action: FileAction; verb: string } | null {
  for (const v of FILE_VERBS) {
    const verb = lang === 'en' ? c.eatVerb(v.en, W.TYPO_TARGETS) : c.eat(v.zh);
    if (verb) return { action: v.action, verb };
  }
  return null;
}

/** Closing words, particles and marks after an order. */
function skipClosing(c: Cursor, action: FileAction): void {
  if (action === 'rewrite')
    c.skip(W.CLOSE_EN, W.CLOSE_ZH, W.PARTICLE_ZH, W.WRITE_ANEW_EN, W.REWRITE_WHOLE_ZH, W.REWRITE_ZH);
  else c.skip(W.CLOSE_EN, W.CLOSE_ZH, W.PARTICLE_ZH);
}

/** Between orders joined in one clause ("scrap chapter 8 and rewrite chapter 9", "删掉笔记并重写大纲"). */
const ORDER_JOIN = ['and', 'and then', 'then', '&', ',', '，', '并', '再', '并且', '然后', '同时'];

/**
 * A verb with 了 and nothing softening it after ("删了第三章", "第三章删掉了", "重写了") tells what
 * happened as often as it asks: an order only with 把 or 给我 before it, or 吧 / 呗 / 就行 after it
 * ("把第三章删了", "都给我删了", "删了吧", "删了就行").
 */
function perfectiveReport(c: Cursor, verbEnd: number, imperative: boolean): boolean {
  let next = verbEnd;
  if (c.toks[next]?.key === '掉') next++;
  if (c.toks[next]?.key !== '了' || imperative) return false;
  const after = c.toks
    .slice(next + 1)
    .map((t) => t.key)
    .join('');
  return !W.ORDER_AFTER_PERFECTIVE.some((p) => after.includes(p));
}

/** Reads a clause as whole-file orders (one, or several joined), or [] when any word of it is not accounted for. */
export function fileOrdersOf(clause: ReadClause, titles: readonly string[] = []): FileOrder[] {
  const toks = tokensOf(clause, titles);
  for (const read of [englishFileOrder, chineseFileOrder]) {
    const c = new Cursor(toks);
    const orders: FileOrder[] = [];
    for (;;) {
      const order = read(c, titles);
      if (!order) break;
      orders.push(order);
      if (c.done) return orders;
      const mark = c.i;
      if (!c.eat(ORDER_JOIN)) break;
      c.skipMarks();
      // "… and keep the Prologue": what is kept is left out of every order of the clause.
      const keepAt = c.i;
      if (c.eat(W.KEEP_EN) ?? c.eat(W.KEEP_ZH)) {
        const kept = eatTargets(c, titles, true);
        c.skip(W.KEEP_TAIL_EN, W.KEEP_CLOSE, W.CLOSE_EN, W.PARTICLE_ZH);
        if (kept && c.done) return orders.map((o) => ({ ...o, except: [...o.except, ...kept] }));
        c.i = keepAt;
      }
      if (c.done) {
        c.i = mark;
        break;
      }
    }
  }
  return [];
}

/** The first order of a clause that is nothing but orders, or null. */
export function fileOrderOf(clause: ReadClause, titles: readonly string[] = []): FileOrder | null {
  return fileOrdersOf(clause, titles)[0] ?? null;
}

/** After the object: closing words, exceptions and a model to follow, in any order. */
function eatObjectTail(c: Cursor, titles: readonly string[], action: FileAction, except: Target[]): void {
  for (;;) {
    const at = c.i;
    skipClosing(c, action);
    const more = eatException(c, titles);
    if (more) except.push(...more);
    eatMannerEn(c, titles);
    if (c.i === at) return;
  }
}

/** LEAD* VERB TARGETS [EXCEPT] [MANNER] CLOSE* · LEAD* write TARGETS from-scratch CLOSE* · LEAD* start TARGETS over. */
function englishFileOrder(c: Cursor, titles: readonly string[]): FileOrder | null {
  const begin = c.i;
  // Authors mix languages: "帮我 delete chapter 4".
  c.skip(W.LEAD_EN, W.LEAD_ZH);
  const start = c.i;
  let verb = eatFileVerb(c, 'en');
  let anew = false;
  if (!verb && c.eat(['write'])) {
    verb = { action: 'rewrite', verb: 'write' };
    anew = true;
  }
  if (!verb && c.eat(['start over on', 'start over with', 'start over']))
    verb = { action: 'rewrite', verb: 'start over' };
  let startOver = false;
  if (!verb && c.eat(['start'])) {
    verb = { action: 'rewrite', verb: 'start' };
    startOver = true;
  }
  if (!verb || c.i === start) {
    c.i = begin;
    return null;
  }
  // No object at all ("please delete", "rewrite it" is a pointer): the order points at the open file.
  const targets = eatTargets(c, titles) ?? (verb.verb !== 'write' && verb.verb !== 'start' ? [] : null);
  if (!targets) {
    c.i = begin;
    return null;
  }
  const except: Target[] = [];
  if (startOver && !c.eat(['over', 'over again', 'from scratch'])) return null;
  const anewAt = c.i;
  eatObjectTail(c, titles, verb.action, except);
  // "write chapter 3" is writing it; only "… from scratch / again / anew" makes it a rewrite.
  if (anew && !c.toks.slice(anewAt, c.i).some((t) => /^(?:scratch|again|anew|up)$/.test(t.key))) return null;
  return c.done || ORDER_JOIN.includes(c.peek()!.key)
    ? { action: verb.action, targets, except, implicit: targets.length === 0 }
    : null;
}

/**
 * LEAD* [MANNER] (把|将) TARGETS ADV* VERB PARTICLE* CLOSE* · LEAD* TARGETS ADV* VERB … ·
 * LEAD* VERB [掉] TARGETS … · LEAD* VERB PARTICLE* (no object: it points back).
 */
function chineseFileOrder(c: Cursor, titles: readonly string[]): FileOrder | null {
  c.skip(W.LEAD_ZH, W.LEAD_EN);
  eatMannerZh(c, titles);
  c.skip(W.LEAD_ZH, W.ADVERB_ZH);
  const ba = !!c.eat(['把', '将']);
  c.skipMarks();
  const before = eatTargets(c, titles);
  if (ba && !before) return null;
  const except = (before && eatException(c, titles)) ?? [];
  const advAt = c.i;
  c.skip(W.ADVERB_ZH);
  const imperative =
    ba ||
    c.toks
      .slice(advAt, c.i)
      .map((t) => t.key)
      .join('')
      .includes('给我');
  if (!before) eatMannerZh(c, titles);
  // "把 Notes delete 掉", "第四章 delete", "人物设定 rewrite 一下", "ch2 rewrite from scratch": an English
  // verb after its object is the order's after 把, in a clause that mixes in Chinese, or after units
  // alone; after an English title alone ("Notes delete") it is its subject's.
  const mixed = c.toks.some((t) => /\p{Script=Han}/u.test(t.text)) || !!before?.every((t) => t.kind === 'unit');
  const verb = eatFileVerb(c, 'zh') ?? (ba || (before && mixed) ? eatFileVerb(c, 'en') : null);
  if (!verb) return null;
  if (perfectiveReport(c, c.i, imperative)) return null;
  let targets = before;
  if (!targets) {
    c.eat(['掉']);
    const mark = c.i;
    c.skipMarks();
    targets = eatTargets(c, titles);
    if (!targets) c.i = mark;
  }
  eatObjectTail(c, titles, verb.action, except);
  if (!(c.done || ORDER_JOIN.includes(c.peek()!.key))) return null;
  return { action: verb.action, targets: targets ?? [], except, implicit: !targets };
}

/**
 * A clause that only names exceptions to an order of its sentence or files to keep: "第6章除外",
 * "除了第6章", "别删第三章", "but leave 3 alone", "except chapter 6", "keep chapter 6", "leave it".
 * Null when it is anything else.
 */
export function exceptionClauseOf(clause: ReadClause, titles: readonly string[] = []): Target[] | null {
  if (W.NEGATED_KEEP.test(clause.text)) return null;
  const c = new Cursor(tokensOf(clause, titles));
  c.skip(W.LEAD_EN, W.LEAD_ZH);
  let got: Target[] | null = null;
  if (c.eat(W.EXCEPT_EN) ?? c.eat(W.EXCEPT_ZH)) {
    got = eatTargets(c, titles, true);
    if (got) c.eat(W.EXCEPT_TAIL_ZH);
  } else if (c.eat(W.KEEP_EN) ?? c.eat(W.KEEP_ZH)) {
    got = eatTargets(c, titles, true);
    if (got) c.eat(W.KEEP_TAIL_EN);
  } else {
    c.eat(['把', '将']);
    got = eatTargets(c, titles, true);
    c.skip(W.ADVERB_ZH);
    if (got && !(c.eat(W.EXCEPT_TAIL_ZH) ?? c.eat(W.KEEP_ZH))) got = null;
  }
  if (!got) return null;
  // A keep said twice over ("第6章留着别动") keeps the same files.
  c.skip(W.CLOSE_EN, W.CLOSE_ZH, W.PARTICLE_ZH, W.KEEP_CLOSE, W.KEEP_ZH);
  return c.done ? got : null;
}

/**
 * The files a clause opens with, as its subject ("第三章写得太烂了", "Chapter 4 - …", "Notes is a
 * mess"): whole files only, not a part of one ("第三章的结尾", "chapter 3's ending"). Null when the
 * clause does not open with references.
 */
export function openingTargets(clause: ReadClause, titles: readonly string[] = []): Target[] | null {
  const c = new Cursor(tokensOf(clause, titles));
  c.skip(W.LEAD_EN, W.LEAD_ZH);
  const targets = eatTargets(c, titles);
  if (!targets || targets.some((t) => t.kind === 'pointer')) return null;
  const next = c.peek();
  if (next && /^(?:的|里|中|之|'s|’s|of|from|in)$/iu.test(next.text)) return null;
  return targets;
}

export interface JobOrder {
  action: JobAction;
}

const JOB_VERBS: { action: JobAction; words: readonly string[] }[] = [
  { action: 'pause', words: [...W.PAUSE_EN, ...W.PAUSE_ZH] },
  { action: 'resume', words: [...W.RESUME_EN, ...W.RESUME_ZH] },
  { action: 'cancel', words: [...W.CANCEL_EN, ...W.CANCEL_ZH] },
];

function eatJobVerb(c: Cursor): JobAction | null {
  for (const v of JOB_VERBS) if (c.eatVerb(v.words, W.TYPO_TARGETS)) return v.action;
  return null;
}

/** The job, by name or by its id (24 hex). */
function eatJobNoun(c: Cursor): boolean {
  if (c.eat(W.JOB_NOUN_EN) ?? c.eat(W.JOB_NOUN_ZH)) {
    // A job id is 24 hex digits, which the tokeniser cuts into numbers and letters: read them back together.
    let hex = '';
    let j = c.i;
    while (
      j < c.toks.length &&
      /^[0-9a-f]+$/i.test(c.toks[j]!.text) &&
      (j === c.i || c.toks[j]!.start === c.toks[j - 1]!.end)
    )
      hex += c.toks[j++]!.text;
    if (OBJECT_ID_ANY_CASE.test(hex)) c.i = j;
    return true;
  }
  return false;
}

/**
 * Reads a clause as a job order: LEAD* VERB JOB CLOSE* · LEAD* (把) JOB ADV* VERB PARTICLE* ·
 * "put the job on hold". Null when any word is not accounted for.
 */
export function jobOrderOf(clause: ReadClause): JobOrder | null {
  const toks = tokensOf(clause, []);
  const verbFirst = (): JobAction | null => {
    const c = new Cursor(toks);
    c.skip(W.LEAD_EN, W.LEAD_ZH, W.JOB_LEAD_EN);
    if (c.eat(['put'])) {
      if (!eatJobNoun(c) || !c.eat(['on hold'])) return null;
      c.skip(W.JOB_CLOSE);
      return c.done ? 'pause' : null;
    }
    const action = eatJobVerb(c);
    if (!action) return null;
    c.skip(W.ADVERB_ZH, ['掉', '一下', '下']);
    if (!eatJobNoun(c)) return null;
    c.skip(W.JOB_CLOSE, W.JOB_RESTATED[action]);
    return c.done ? action : null;
  };
  const nounFirst = (): JobAction | null => {
    const c = new Cursor(toks);
    c.skip(W.LEAD_EN, W.LEAD_ZH, W.JOB_LEAD_EN);
    c.eat(['把', '将']);
    if (!eatJobNoun(c)) return null;
    c.skip(W.ADVERB_ZH);
    const action = eatJobVerb(c);
    if (!action) return null;
    c.skip(W.JOB_CLOSE, W.JOB_RESTATED[action]);
    return c.done ? action : null;
  };
  const action = verbFirst() ?? nounFirst();
  return action ? { action } : null;
}

/** A clause that is only a job verb ("取消掉", "pause it"): an order when the clause before it is about the job ("任务不要了，取消掉"). */
export function bareJobVerbOf(clause: ReadClause): JobAction | null {
  const c = new Cursor(tokensOf(clause, []));
  c.skip(W.LEAD_EN, W.LEAD_ZH);
  const action = eatJobVerb(c);
  if (!action) return null;
  c.skip(W.JOB_CLOSE, ['掉', 'it', 'that']);
  return c.done ? action : null;
}

/** Whether a clause names the job ("任务不要了", "the job is wrong"). */
export function namesJob(clause: ReadClause): boolean {
  const keys = tokensOf(clause, []).map((t) => t.key);
  return [...W.JOB_NOUN_EN, ...W.JOB_NOUN_ZH].some(
    (n) => keys.includes(norm(n)) || keys.join(' ').includes(n.toLowerCase()),
  );
}

/** Whether a clause mentions a job and a control verb at all (then, when it is not an order, the author is asked). */
export function mentionsJobControl(clause: ReadClause): JobAction | 'stop' | null {
  const keys = tokensOf(clause, []).map((t) => t.key);
  const joined = keys.join(' ');
  const hasNoun = [...W.JOB_NOUN_EN, ...W.JOB_NOUN_ZH].some(
    (n) => keys.includes(norm(n)) || joined.includes(n.toLowerCase()),
  );
  if (!hasNoun) return null;
  for (const v of JOB_VERBS)
    if (
      v.words.some(
        (w) => keys.includes(norm(w)) || keys.some((k) => k.length >= 5 && W.TYPO_TARGETS.includes(w) && oneTypo(k, w)),
      )
    )
      return v.action;
  if (keys.some((k) => ['stop', '停止', '停掉', '停', '结束', 'halt'].includes(k))) return 'stop';
  return null;
}

export type StepAction = keyof typeof W.STEP_VERBS;

/**
 * A plain order for a step an agent offered ("write it", "写吧", "go ahead and revise chapter 1",
 * "改第二章吧"): LEAD* VERB [TARGETS] CLOSE*, every word accounted for. Null otherwise.
 */
export function stepOrderOf(clause: ReadClause): { action: StepAction; targets: Target[] } | null {
  for (const action of Object.keys(W.STEP_VERBS) as StepAction[]) {
    const c = new Cursor(tokensOf(clause, []));
    c.skip(W.LEAD_EN, W.LEAD_ZH);
    if (!c.eat(W.STEP_VERBS[action])) continue;
    c.skip(W.PARTICLE_ZH, ['on', 'with', 'up']);
    const targets = eatTargets(c, []) ?? [];
    c.skip(W.CLOSE_EN, W.CLOSE_ZH, W.PARTICLE_ZH, ['next', 'then', 'now', 'please', 'go ahead']);
    if (c.done) return { action, targets };
  }
  return null;
}

/**
 * Whether every word of the clause is one of these phrases (punctuation and emoji aside), read
 * left to right taking the longest phrase at each place; and the words each list matched.
 */
export function accountFor(
  clause: ReadClause,
  lists: Record<string, readonly string[]>,
): Record<string, number> | null {
  const lexicon = Object.values(lists)
    .flat()
    .filter((p) => /^\p{Script=Han}+$/u.test(p));
  const c = new Cursor(tokensOf(clause, [], lexicon));
  const counts: Record<string, number> = Object.fromEntries(Object.keys(lists).map((k) => [k, 0]));
  for (;;) {
    c.skipMarks();
    if (c.done) return counts;
    let best: { key: string; next: number } | null = null;
    for (const [key, list] of Object.entries(lists)) {
      const at = c.i;
      if (c.eat(list) && (!best || c.i > best.next)) best = { key, next: c.i };
      c.i = at;
    }
    if (!best) return null;
    counts[best.key]!++;
    c.i = best.next;
  }
}
