/**
 * One numeral parser for every rule that reads numbers out of an author's words: chapter
 * and episode references ("第十章", "第10章", "Chapter 10", "Chapter Ten"), ranges
 * ("第2-5集", "chapters 2–5", "第二至五章", "前三章"), titles, and length requirements
 * ("两千字", "三千字左右", "3k words", "about 2,000 words", "1.5万字"). Arabic, full-width
 * and Chinese numerals (一二三…十百千万, 两, 〇/零, 廿, 卅) are equal everywhere.
 * Pure module: imported by workflows, activities and the offline model alike.
 */

const ZH_DIGITS: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const FORMAL_DIGITS: Record<string, string> = {
  壹: '一',
  贰: '二',
  叁: '三',
  肆: '四',
  伍: '五',
  陆: '六',
  柒: '七',
  捌: '八',
  玖: '九',
  拾: '十',
  佰: '百',
  仟: '千',
};
const ZH_SMALL_UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };

/** Full-width digits (０-９) to ASCII; every other character is kept, so indexes stay valid. */
export function halfWidthDigits(text: string): string {
  return text.replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
}

/**
 * A Chinese numeral: 三 → 3, 十二 → 12, 二十三 → 23, 一百零五 → 105, 两千 → 2000,
 * 一万五千 → 15000, 廿三 → 23; digit strings such as 二〇二六 → 2026. Null when not a numeral.
 */
export function parseChineseNumeral(text: string): number | null {
  // The formal digits of cheques and contracts (叁, 拾) are the same numbers.
  const s = [...text]
    .map((ch) => FORMAL_DIGITS[ch] ?? ch)
    .join('')
    .replace(/廿/g, '二十')
    .replace(/卅/g, '三十');
  if (!s || /[^零〇一二两三四五六七八九十百千万]/.test(s)) return null;
  // Digits only, two or more ("二〇二六"): read positionally like Arabic digits.
  if (s.length > 1 && !/[十百千万]/.test(s)) return Number([...s].map((c) => ZH_DIGITS[c]).join(''));
  let total = 0;
  let section = 0;
  let digit = 0;
  for (const ch of s) {
    if (ch in ZH_DIGITS) digit = ZH_DIGITS[ch]!;
    else if (ch === '万') {
      total += (section + digit || 1) * 10000;
      section = 0;
      digit = 0;
    } else {
      section += (digit || 1) * ZH_SMALL_UNITS[ch]!;
      digit = 0;
    }
  }
  return total + section + digit;
}

const EN_ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const EN_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** An English number word up to 99: "ten" → 10, "twenty-one" → 21. Null otherwise. */
export function parseEnglishNumber(text: string): number | null {
  const [tens, ones, extra] = text
    .toLowerCase()
    .trim()
    .split(/[\s-]+/);
  if (extra !== undefined) return null;
  const small = EN_ONES.indexOf(tens!);
  if (small >= 0) return ones === undefined ? small : null;
  const t = EN_TENS.indexOf(tens!);
  if (t < 2) return null;
  if (ones === undefined) return t * 10;
  const o = EN_ONES.indexOf(ones);
  return o >= 1 && o <= 9 ? t * 10 + o : null;
}

/** 9 → "nine", 21 → "twenty-one": the words `parseEnglishNumber` reads back; null above 99. */
export function englishNumberWord(n: number): string | null {
  if (!Number.isInteger(n) || n < 0 || n > 99) return null;
  if (n < 20) return EN_ONES[n]!;
  return EN_TENS[Math.floor(n / 10)]! + (n % 10 ? `-${EN_ONES[n % 10]}` : '');
}

/**
 * Any one number token: "12", "１２", "2,000", "1.5", "3k", "3K", "1.5万", "3千", "两千",
 * "二十三", "twenty-one". Null when the token is not a number.
 */
export function parseNumber(token: string): number | null {
  const t = halfWidthDigits(token.trim()).replace(/[,，](?=\d{3}(?!\d))/g, '');
  const arabic = /^(\d+(?:\.\d+)?)\s*([kK千万wW])?$/.exec(t);
  if (arabic) {
    const scale = arabic[2] ? { k: 1000, K: 1000, 千: 1000, 万: 10000, w: 10000, W: 10000 }[arabic[2]]! : 1;
    return Math.round(Number(arabic[1]) * scale);
  }
  return parseChineseNumeral(t) ?? parseEnglishNumber(t);
}

/** Source text of one number token, for building larger patterns. */
const ARABIC_SRC = String.raw`[0-9０-９]+(?:[,，][0-9]{3})*(?:\.[0-9]+)?`;
const ZH_SRC = '[零〇一二两三四五六七八九十百千万廿卅壹贰叁肆伍陆柒捌玖拾佰仟]+';
const EN_SRC = String.raw`(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)`;
const NUM_SRC = `(?:${ARABIC_SRC}|${ZH_SRC})`;

/** What a unit counts: chapters (章, 回, chapter), episodes (集, episode) or acts (幕, act). */
export type UnitKind = 'chapter' | 'episode' | 'act';

const ZH_UNIT: Record<string, UnitKind> = { 章: 'chapter', 回: 'chapter', 集: 'episode', 幕: 'act' };

function enKind(word: string): UnitKind {
  const w = word.toLowerCase();
  if (w.startsWith('ep')) return 'episode';
  if (w.startsWith('act')) return 'act';
  return 'chapter';
}

/** One reference to a unit or a range of units, with where it sits in the text. */
export interface UnitRef {
  kind: UnitKind;
  from: number;
  to: number;
  /** Offsets of the matched text in the input (end exclusive). */
  start: number;
  end: number;
}

/** Ranges wider than this are not expanded into units (a typo or a total, not a plan). */
export const MAX_RANGE_SPAN = 1000;

const RANGE_SEP = String.raw`\s*(?:-|–|—|~|～|到|至|to|through|thru)\s*`;
const ZH_RANGE = new RegExp(
  String.raw`第\s*(${NUM_SRC})\s*(?:[章集回幕])?${RANGE_SEP}第?\s*(${NUM_SRC})\s*([章集回幕])`,
  'gu',
);
const ZH_SINGLE = new RegExp(String.raw`第\s*(${NUM_SRC})\s*([章集回幕])`, 'gu');
/** "第3、4章", "第十、十一章", "第四和五章": one unit word after a list of numbers. */
const ZH_LIST = new RegExp(String.raw`第\s*${NUM_SRC}(?:\s*[、,，和与及]\s*第?\s*${NUM_SRC})+\s*([章集回幕])`, 'gu');
const ZH_LIST_NUM = new RegExp(NUM_SRC, 'gu');
const ZH_FIRST_N = new RegExp(String.raw`前\s*(${NUM_SRC})\s*([章集回幕])`, 'gu');
/** "一到三章", "3-5章": a range without 第, its unit word after the second number. */
const ZH_BARE_RANGE = new RegExp(
  String.raw`(?<![第\d零〇一二两三四五六七八九十百千万])(${NUM_SRC})${RANGE_SEP}(${NUM_SRC})\s*([章集回幕])`,
  'gu',
);
const EN_ORDINALS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
  'thirteenth',
  'fourteenth',
  'fifteenth',
  'sixteenth',
  'seventeenth',
  'eighteenth',
  'nineteenth',
  'twentieth',
];
/** "the third chapter", "3rd chapter", "the 12th episode": an ordinal before the unit word. */
const EN_ORDINAL_REF = new RegExp(
  String.raw`\b(${EN_ORDINALS.join('|')}|\d+(?:st|nd|rd|th))\s+(chapter|episode|act)\b`,
  'giu',
);
const ordinal = (w: string): number | null => {
  const i = EN_ORDINALS.indexOf(w.toLowerCase());
  if (i >= 0) return i + 1;
  const m = /^(\d+)(?:st|nd|rd|th)$/i.exec(w);
  return m ? Number(m[1]) : null;
};
const EN_NUM = `(?:${ARABIC_SRC}|${EN_SRC})`;
/** A number followed by a length unit is a length, not another unit ("chapter 3 to 5000 words"). */
const NOT_LENGTH = String.raw`(?!\s*(?:[kK]\b|words?\b|characters?\b|chars?\b|字|%))`;
const EN_TAIL_SRC = String.raw`\s*(,\s*and|,|and|&|-|–|—|~|to|through|thru)\s*(${ARABIC_SRC}|${EN_SRC})\b${NOT_LENGTH}`;
/** Unit words, with the typos authors make ("chpater 5", "chaper 2"). */
const EN_UNIT_SRC = String.raw`chapters?|chapt(?:er)?s?|chaps?|chpaters?|chatpers?|chaters?|chapetrs?|cahpters?|chaptres?|chaper?s?|chs?\.?|episodes?|eps?\.?|acts?`;
const EN_REF = new RegExp(String.raw`\b(${EN_UNIT_SRC})\s*(${EN_NUM})\b${NOT_LENGTH}((?:${EN_TAIL_SRC})*)`, 'giu');
const EN_TAIL = new RegExp(EN_TAIL_SRC, 'giu');
/** "Chapter III", "Act IV": a Roman numeral in capitals after the unit word ("chapter i think" is no number). */
const EN_ROMAN_REF = /\b(chapter|episode|act|ch\.?)\s+([IVXL]+)\b/giu;
/** "c7": a bare c glued to a number is a chapter the way authors abbreviate it in a hurry. */
// Chinese may touch it on either side ("c12给我删了", "删c12"): only Latin letters and digits make it part of another word.
const C_REF = /(?<![\p{Script=Latin}\p{N}])c(\d{1,3})(?![\p{Script=Latin}\p{N}])/gu;

/** A Roman numeral in capitals (I to L), or null. */
function parseRoman(text: string): number | null {
  if (!/^(?:XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/.test(text) || !text) return null;
  const value: Record<string, number> = { I: 1, V: 5, X: 10, L: 50 };
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const v = value[text[i]!]!;
    n += v < (value[text[i + 1] ?? ''] ?? 0) ? -v : v;
  }
  return n;
}

function pushRange(
  out: UnitRef[],
  kind: UnitKind,
  from: number | null,
  to: number | null,
  start: number,
  end: number,
): void {
  if (from === null || to === null || from < 1 || to < 1) return;
  out.push({ kind, from: Math.min(from, to), to: Math.max(from, to), start, end });
}

/**
 * Every chapter / episode / act reference in a text, in order of appearance. A list
 * ("chapters 2 and 5") gives one reference per number; a range ("第2-5集") one reference.
 */
export function findUnitRefs(text: string): UnitRef[] {
  const out: UnitRef[] = [];
  const taken: [number, number][] = [];
  const free = (s: number, e: number): boolean => taken.every(([a, b]) => e <= a || s >= b);
  const claim = (s: number, e: number): void => void taken.push([s, e]);
  for (const m of text.matchAll(ZH_RANGE)) {
    pushRange(out, ZH_UNIT[m[3]!]!, parseNumber(m[1]!), parseNumber(m[2]!), m.index, m.index + m[0].length);
    claim(m.index, m.index + m[0].length);
  }
  for (const m of text.matchAll(ZH_LIST)) {
    if (!free(m.index, m.index + m[0].length)) continue;
    const end = m.index + m[0].length;
    for (const n of m[0].slice(0, -1).matchAll(ZH_LIST_NUM)) {
      const v = parseNumber(n[0]);
      pushRange(out, ZH_UNIT[m[1]!]!, v, v, m.index, end);
    }
    claim(m.index, end);
  }
  for (const m of text.matchAll(ZH_SINGLE)) {
    if (!free(m.index, m.index + m[0].length)) continue;
    const n = parseNumber(m[1]!);
    pushRange(out, ZH_UNIT[m[2]!]!, n, n, m.index, m.index + m[0].length);
  }
  for (const m of text.matchAll(ZH_FIRST_N))
    pushRange(out, ZH_UNIT[m[2]!]!, 1, parseNumber(m[1]!), m.index, m.index + m[0].length);
  for (const m of text.matchAll(ZH_BARE_RANGE)) {
    if (!free(m.index, m.index + m[0].length)) continue;
    pushRange(out, ZH_UNIT[m[3]!]!, parseNumber(m[1]!), parseNumber(m[2]!), m.index, m.index + m[0].length);
    claim(m.index, m.index + m[0].length);
  }
  for (const m of text.matchAll(EN_ORDINAL_REF)) {
    const n = ordinal(m[1]!);
    pushRange(out, enKind(m[2]!), n, n, m.index, m.index + m[0].length);
  }
  for (const m of text.matchAll(EN_REF)) {
    const kind = enKind(m[1]!);
    const end = m.index + m[0].length;
    let prev = parseNumber(m[2]!);
    const singles: (number | null)[] = [prev];
    for (const t of (m[3] ?? '').matchAll(EN_TAIL)) {
      const n = parseNumber(t[2]!);
      if (/^(,\s*and|,|and|&)$/i.test(t[1]!)) singles.push(n);
      else {
        // "2-5": the last single becomes a range.
        singles.pop();
        pushRange(out, kind, prev, n, m.index, end);
      }
      prev = n;
    }
    for (const n of singles) pushRange(out, kind, n, n, m.index, end);
  }
  for (const m of text.matchAll(EN_ROMAN_REF)) {
    const n = parseRoman(m[2]!);
    if (free(m.index, m.index + m[0].length)) pushRange(out, enKind(m[1]!), n, n, m.index, m.index + m[0].length);
  }
  for (const m of text.matchAll(C_REF)) {
    const n = parseNumber(m[1]!);
    pushRange(out, 'chapter', n, n, m.index, m.index + m[0].length);
  }
  return out.sort((a, b) => a.start - b.start || a.from - b.from);
}

/** Expands references into unit numbers (distinct, ascending); huge ranges count their ends only. */
function expand(refs: UnitRef[]): number[] {
  const units = new Set<number>();
  for (const r of refs) {
    if (r.to - r.from > MAX_RANGE_SPAN) {
      units.add(r.from);
      units.add(r.to);
    } else for (let n = r.from; n <= r.to; n++) units.add(n);
  }
  return [...units].sort((a, b) => a - b);
}

/** Distinct unit numbers a text mentions, ranges expanded ("第2-4章" → 2, 3, 4). */
export function unitNumbers(text: string): number[] {
  return expand(findUnitRefs(text));
}

/** The unit a title names first ("第一章 风暴" → chapter 1; "Prologue" → null). */
export function unitOfTitle(title: string): { kind: UnitKind; n: number } | null {
  const first = findUnitRefs(title)[0];
  return first ? { kind: first.kind, n: first.from } : null;
}

/**
 * The first range (or single unit) a text names, for task boards: "第2-5集" → episodes 2..5,
 * "chapter 3" → chapters 3..3. Null when the text names none.
 */
export function parseUnitRange(text: string): { kind: UnitKind; from: number; to: number } | null {
  const first = findUnitRefs(text)[0];
  return first ? { kind: first.kind, from: first.from, to: first.to } : null;
}

/** How a unit reads back to the author: "第2章" / "chapter 2" / "第2-5集" / "episodes 2–5". */
export function formatUnitRange(r: { kind: UnitKind; from: number; to: number }, language: 'zh' | 'en'): string {
  const span = r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`;
  if (language === 'zh') return `第${span}${{ chapter: '章', episode: '集', act: '幕' }[r.kind]}`;
  const word = { chapter: 'chapter', episode: 'episode', act: 'act' }[r.kind];
  return r.from === r.to ? `${word} ${span}` : `${word}s ${r.from}–${r.to}`;
}

/** A length the author asked for: a value (or a range) in characters (字) or words. */
export interface LengthMention {
  min: number;
  max: number;
  unit: 'zi' | 'words';
  start: number;
  end: number;
}

/** Lengths under this are not requirements ("一字不改", "十字路口" are not lengths). */
const MIN_LENGTH = 50;
const LEN_NUM = String.raw`(?:${ARABIC_SRC}\s*[kK千万wW]?|${ZH_SRC})`;
const LENGTH_RE = new RegExp(
  String.raw`(${LEN_NUM})(?:\s*(?:-|–|~|～|到|至|to)\s*(${LEN_NUM}))?\s*(?:个)?\s*(?:(字)|(words?\b)|(characters\b))`,
  'giu',
);
/** "两三千字": two adjacent digits before a unit read as a range (2000–3000). */
const ZH_APPROX = /^([一二两三四五六七八九])([一二两三四五六七八九])([十百千万])$/;

/** Every length requirement in a text ("两千字", "3k words", "2000-3000字", "两三千字"). */
export function findLengthMentions(text: string): LengthMention[] {
  const out: LengthMention[] = [];
  for (const m of text.matchAll(LENGTH_RE)) {
    const unit = m[3] ? 'zi' : m[4] ? 'words' : 'zi';
    const approx = ZH_APPROX.exec(m[1]!);
    let min: number | null;
    let max: number | null;
    if (approx && !m[2]) {
      min = parseNumber(approx[1]! + approx[3]!);
      max = parseNumber(approx[2]! + approx[3]!);
    } else {
      min = parseNumber(m[1]!);
      max = m[2] ? parseNumber(m[2]) : min;
    }
    if (min === null || max === null || Math.max(min, max) < MIN_LENGTH) continue;
    out.push({ min: Math.min(min, max), max: Math.max(min, max), unit, start: m.index, end: m.index + m[0].length });
  }
  return out;
}
