/**
 * core/words/: the rules that read the author's words, deterministic so a workflow replays
 * them: a message read into sentences, clauses and words (reading.ts, utterance.ts), with
 * numbers in any numeral (numerals.ts) and traditional characters read as simplified
 * (traditional.ts); the grammar of orders and its second check (orders.ts with order-tokens.ts,
 * order-targets.ts, job-orders.ts, order-words.ts, order-checks.ts) behind author-file protection
 * (author-scope.ts) and run control from chat (job-commands.ts); pre-routing (routing.ts) with
 * vague edits, answers and offered steps (vague-edits.ts, answers.ts, proposals.ts); and the
 * session's language (language.ts). This file is where a message is first read.
 */
/**
 * A message as the rules read it: its sentences, the clauses inside them and the words of each
 * clause. Chinese runs are cut into words by a dictionary segmenter (so 删减, 删改 and 删繁就简 are
 * the words they are, not 删 followed by something); other scripts by letters and digits; a
 * reference to a unit ("第三章", "chapters 4 to 9", "ch3") is one word that knows its numbers.
 *
 * Built once per turn where the segmenter can run (the turn's preparation activity) and
 * recorded there, so the workflow's rules read the same words on every replay. Pure module: the
 * segmenter is passed in; core/segmenter-free callers (tests of pure rules) may pass
 * {@link characterSegmenter}, which reads every Han character as a word of its own.
 */
import { findUnitRefs, halfWidthDigits, type UnitKind } from './numerals';
import { straightQuotes } from '../text';
import { splitSentences } from './utterance';
import { simplified } from './traditional';

/** What a word is: letters, a number, a unit reference, punctuation or an emoji. */
export type WordKind = 'word' | 'number' | 'unit' | 'punct' | 'emoji';

export interface Word {
  text: string;
  kind: WordKind;
  /** Offsets in the message (end exclusive). */
  start: number;
  end: number;
  /** The unit(s) a `unit` word names. */
  unit?: { kind: UnitKind; from: number; to: number; list?: number[] };
}

export interface ReadClause {
  text: string;
  start: number;
  /** The separator before the clause ('' for the first of its sentence). */
  sep: string;
  words: Word[];
}

export interface ReadSentence {
  text: string;
  start: number;
  /** The punctuation that ended it ('' at the end of the message). */
  end: string;
  clauses: ReadClause[];
}

/** A message read once: the text the rules saw (straight quotes, half-width digits) and its parts. */
export interface MessageReading {
  text: string;
  sentences: ReadSentence[];
}

/**
 * The text the rules read: straight quotes, half-width digits and simplified characters, each a
 * character for a character, so offsets match the message's.
 */
export const readableText = (message: string): string => simplified(straightQuotes(halfWidthDigits(message)));

/** Cuts a run of Han characters (at `offset` in the message) into words. */
export type Segmenter = (hanRun: string, offset: number) => string[];

/** Every Han character a word of its own: for pure tests only; the product segments with a dictionary. */
export const characterSegmenter: Segmenter = (run) => Array.from(run);

/** Han runs further into a message than this are not segmented ahead of the workflow: no rule that runs there reads so far. */
export const RECORDED_CHARS = 2000;

/**
 * Where the segmenter ends each Han word of the message: what the turn's preparation records
 * (a few numbers, not the words), so the workflow rebuilds the same reading with
 * {@link recordedSegmenter} on every replay.
 */
export function wordEnds(message: string, segment: Segmenter): number[] {
  const text = readableText(message);
  const ends: number[] = [];
  for (const m of text.matchAll(/\p{Script=Han}+/gu)) {
    if (m.index >= RECORDED_CHARS) break;
    let at = m.index;
    for (const piece of segment(m[0], m.index)) ends.push((at += piece.length));
  }
  return ends;
}

/** The segmenter that cuts where a recorded segmentation did ({@link wordEnds}); one word per character past it. */
export function recordedSegmenter(ends: readonly number[]): Segmenter {
  const set = new Set(ends);
  return (run, offset) => {
    if (offset >= RECORDED_CHARS) return Array.from(run);
    const out: string[] = [];
    let from = 0;
    for (let i = 1; i <= run.length; i++)
      if (set.has(offset + i) || i === run.length) {
        out.push(run.slice(from, i));
        from = i;
      }
    return out;
  };
}

const HAN = /\p{Script=Han}+/u;
/** One token of the text outside unit references (Han runs are cut by the segmenter afterwards). */
const TOKEN =
  /(\p{Script=Han}+)|([\p{L}\p{M}]+(?:['-][\p{L}\p{M}]+)*)|(\d+(?:[.,]\d+)*)|(\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic})*)|([\p{P}\p{S}])/gu;

function wordsOf(text: string, offset: number, segment: Segmenter): Word[] {
  const out: Word[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const start = offset + m.index;
    if (m[1]) {
      let at = start;
      for (const piece of segment(m[1], start)) {
        if (!piece) continue;
        out.push({ text: piece, kind: 'word', start: at, end: at + piece.length });
        at += piece.length;
      }
    } else {
      const kind: WordKind = m[2] ? 'word' : m[3] ? 'number' : m[4] ? 'emoji' : 'punct';
      out.push({ text: m[0], kind, start, end: start + m[0].length });
    }
  }
  return out;
}

/** The words of a clause: unit references first (one word each), the text between them tokenised. */
function clauseWords(text: string, offset: number, segment: Segmenter): Word[] {
  const refs = findUnitRefs(text);
  const out: Word[] = [];
  let at = 0;
  // A list ("chapters 2 and 5") comes as one reference per number over the same span: one word.
  for (let i = 0; i < refs.length;) {
    const r = refs[i]!;
    const same = refs.filter((x) => x.start === r.start && x.end === r.end);
    i += same.length;
    if (r.start < at) continue;
    out.push(...wordsOf(text.slice(at, r.start), offset + at, segment));
    const list =
      same.length > 1
        ? same.flatMap((x) => Array.from({ length: x.to - x.from + 1 }, (_, k) => x.from + k))
        : undefined;
    const from = Math.min(...same.map((x) => x.from));
    const to = Math.max(...same.map((x) => x.to));
    out.push({
      text: text.slice(r.start, r.end),
      kind: 'unit',
      start: offset + r.start,
      end: offset + r.end,
      unit: { kind: r.kind, from, to, ...(list ? { list } : {}) },
    });
    at = r.end;
  }
  out.push(...wordsOf(text.slice(at), offset + at, segment));
  return out;
}

/** Reads a message: sentences, clauses and words, with the segmenter cutting its Chinese. */
export function readMessage(message: string, segment: Segmenter): MessageReading {
  const text = readableText(message);
  const sentences = splitSentences(text).map((s) => ({
    text: s.text,
    start: s.start,
    end: s.end,
    clauses: s.clauses.map((c) => ({
      text: c.text,
      start: c.start,
      sep: c.sep,
      words: clauseWords(c.text, c.start, segment),
    })),
  }));
  return { text, sentences };
}

/** Every word of the message, in order. */
export const allWords = (reading: MessageReading): Word[] =>
  reading.sentences.flatMap((s) => s.clauses.flatMap((c) => c.words));

/** Whether the message has Han characters (then its words came from the segmenter). */
export const hasHan = (reading: MessageReading): boolean => HAN.test(reading.text);

/**
 * The reading with a space between two Chinese words read as a clause break, as a comma would be:
 * informal Chinese separates clauses with a space ("第五章删了 读者不喜欢", "任务先暂停 我要改大纲"),
 * while the words of one clause seldom are. A space inside a title the project has ("第3章 黑市"),
 * or beside a unit or a lone word, stays inside its clause. Pure: the same reading and titles give the same clauses.
 */
export function withSpacedClauses(reading: MessageReading, titles: readonly string[] = []): MessageReading {
  const text = reading.text.toLowerCase();
  const inTitle = (at: number): boolean =>
    titles.some((t) => {
      const want = t.toLowerCase().trim();
      if (!/\s/u.test(want)) return false;
      for (let i = text.indexOf(want); i >= 0; i = text.indexOf(want, i + 1))
        if (i < at && at < i + want.length) return true;
      return false;
    });
  const sentences = reading.sentences.map((s) => ({
    ...s,
    clauses: s.clauses.flatMap((c) => {
      const out: ReadClause[] = [];
      let from = 0;
      for (let k = 1; k < c.words.length; k++) {
        const a = c.words[k - 1]!;
        const b = c.words[k]!;
        const gap = reading.text.slice(a.end, b.start);
        if (!gap || /\S/u.test(gap) || !/\p{Script=Han}$/u.test(a.text) || !/^\p{Script=Han}/u.test(b.text)) continue;
        // A unit or a lone word beside the space is more likely a name's or a list's part ("第六章 黑风谷 删掉", "删除 第三章").
        if (inTitle(a.end) || a.kind === 'unit' || b.kind === 'unit' || k - from < 2 || c.words.length - k < 2)
          continue;
        out.push(clauseOf(reading.text, c.words.slice(from, k), from === 0 ? c.sep : ' '));
        from = k;
      }
      if (!out.length) return [c];
      out.push(clauseOf(reading.text, c.words.slice(from), ' '));
      return out;
    }),
  }));
  return { ...reading, sentences };
}

function clauseOf(text: string, words: Word[], sep: string): ReadClause {
  const start = words[0]!.start;
  return { text: text.slice(start, words[words.length - 1]!.end), start, sep, words };
}
