/**
 * The tokens the grammar of orders reads (core/words/orders.ts): a clause's words, with the words that
 * spell a file title merged into one and Chinese words the segmenter kept whole cut into the grammar's
 * phrases; and the cursor the grammar moves over them. Pure module.
 */
import { unitOfTitle } from './numerals';
import type { ReadClause, Word } from './reading';
import * as W from './order-words';

/** A token the grammar reads: a word of the reading, or a file title the words spell. */
export interface Tok {
  text: string;
  /** Lower-case text, for matching. */
  key: string;
  word: Word | null;
  title?: string;
  start: number;
  end: number;
}

export const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, '');

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

/**
 * A Han token that opens with the rest of a name and goes on with a phrase of the grammar ("一删" after
 * "附录" when the name is "附录一"): the two halves, or null. Only a grammar phrase may follow, so a
 * longer name ("附录一家谱" against "附录一") is never cut.
 */
function splitAtName(tok: Tok, rest: string, lexicon?: readonly string[]): [Tok, Tok] | null {
  if (!tok.word || !rest || tok.key.length <= rest.length || !tok.key.startsWith(rest)) return null;
  if (!/^\p{Script=Han}+$/u.test(tok.key)) return null;
  const tail = tok.key.slice(rest.length);
  if (!(lexicon ?? ZH_LEXICON).includes(tail) && !lexiconCut(tail, lexicon)) return null;
  const cut = tok.start + rest.length;
  return [
    { ...tok, text: rest, key: rest, word: { ...tok.word, text: rest, end: cut }, end: cut },
    { ...tok, text: tail, key: tail, word: { ...tok.word, text: tail, start: cut }, start: cut },
  ];
}

/** The clause's tokens, with the words that spell a title (whole words only) merged into one. */
export function tokensOf(clause: ReadClause, titles: readonly string[], lexicon?: readonly string[]): Tok[] {
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
        const split = splitAtName(toks[j]!, want.slice(acc.length), lexicon);
        if (split && acc + split[0].key === want) {
          // The segmenter glued the title's last character to the word after it ("附录/一删/了"): cut there.
          out.push({ text: title, key: want, word: null, title, start: toks[i]!.start, end: split[0].end });
          toks.splice(j, 1, split[0], split[1]);
          i = j + 1;
          merged = true;
          break;
        }
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
export function oneTypo(a: string, b: string): boolean {
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
export class Cursor {
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
