/**
 * The reviewer's fact check: what a draft states about the project's own text, checked against
 * it. Two kinds of statement, in English and Chinese:
 * - a quotation (“…”, "…", 「…」, at least 8 characters) the draft presents as earlier words —
 *   a chapter named beside it, or a remembering verb ("she remembered", 想起, 说过) — is looked
 *   for word for word in the earlier text;
 * - an age or a birth year stated about a character ("Mara, 35", "二十八岁的林夏", "born in
 *   1991") is compared with what the cards say.
 * Only clear contradictions are reported: a remembered line that appears nowhere earlier may be
 * an off-page memory, so it counts only when half of it does appear (a misquote); an age said
 * of a past moment ("when Mara was 12", "林夏十岁那年") is not a claim about now; a card that
 * states two ages for one name states none. Pure module: the reads and the clock are the
 * caller's.
 */
import { parseNumber } from '../words/numerals';

/** A text the check reads: a file's title and content. */
export interface FactText {
  title: string;
  content: string;
}

export interface FactCheckInput {
  /** What is under review: the text this turn wrote, by file. */
  drafts: FactText[];
  /** Earlier text a quotation can come from: the project's other body files, and this turn's files as they were before it. */
  earlier: FactText[];
  /** Cards (characters, settings): what they say about a character is the reference. */
  cards: (FactText & { type: string })[];
  /** Asked before each statement is checked: true stops the check there (its time ran out). */
  stop?: () => boolean;
}

export type FactFinding =
  | {
      kind: 'quote';
      file: string;
      quote: string;
      /** The earlier passage that shares half of the quotation, and where it is; absent when a chapter was named and nothing matched. */
      closest?: { text: string; file: string };
    }
  | {
      kind: 'number';
      file: string;
      subject: string;
      fact: NumberFact;
      stated: { value: number; text: string };
      card: { title: string; value: number; text: string };
    };

export type NumberFact = 'age' | 'born';

export interface FactCheckResult {
  findings: FactFinding[];
  /** Quotations presented as earlier words, and how many were found word for word. */
  quotes: { checked: number; found: number };
  /** Ages and birth years stated about a character with a card. */
  numbersChecked: number;
  /** The check stopped before it had looked at everything (`stop`). */
  cutShort: boolean;
}

/** Quotations shorter than this are too common to be a quote of anything. */
const MIN_QUOTE_CHARS = 8;
const QUOTE = /“([^”\n]+)”|「([^」\n]+)」|『([^』\n]+)』|"([^"\n]+)"/g;
const EN_NUM = String.raw`(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen`;
const NUM = String.raw`\d{1,4}|[零〇一二两三四五六七八九十百廿卅]+|${EN_NUM}`;
const YEAR = String.raw`\d{4}|[零〇一二三四五六七八九]{4}`;
/** A chapter named beside a quotation: the draft says where the words are. */
const CHAPTER_CUE = new RegExp(
  String.raw`第\s*[\d零〇一二两三四五六七八九十百]+\s*[章回集幕]|\b(?:chapter|episode)\s+(?:\d+|${EN_NUM})\b|\b(?:first|second|third|last|previous|earlier) chapter\b`,
  'i',
);
/** Remembering or reporting verbs: the quotation repeats earlier words. */
const MEMORY_CUE =
  /\b(?:remember(?:s|ed|ing)?|recall(?:s|ed|ing)?|had (?:said|written|told|asked|whispered|promised)|once (?:said|wrote|told)|echo(?:es|ed|ing)?)\b|想起|记起|记得|回想|回忆|说过|写过|问过|那句话/i;

/** Whitespace collapsed and edge punctuation dropped: a quote ends where its sentence does, the original may go on. */
const normalize = (s: string): string =>
  s
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[\s,.;:!?，。；：！？、…—-]+|[\s,.;:!?，。；：！？、…—-]+$/g, '');

/** What a verbatim comparison compares: letters and digits, so a changed comma or a capital is not a misquote. */
const key = (s: string): string => s.toLowerCase().replace(/[\p{P}\p{S}\s]+/gu, '');

/** Where a name stands alone: not inside a longer word (Latin) — CJK has no spaces to go by. */
const nameSrc = (name: string): string => {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return /^[A-Za-z]/.test(name) ? `(?<![A-Za-z])${escaped}(?![A-Za-z])` : escaped;
};

/** The names a character card goes by: its title without a bracketed note, and a Latin first name. */
function cardNames(title: string): string[] {
  const full = title.replace(/[（(【[].*$/u, '').trim();
  const names = [full];
  const first = /^([A-Z][a-z]{2,})\s+[A-Z]/.exec(full)?.[1];
  if (first) names.push(first);
  return names.filter((n) => (/^[A-Za-z]/.test(n) ? n.length >= 3 : [...n].length >= 2));
}

interface Statement {
  name: string;
  fact: NumberFact;
  value: number;
  text: string;
}

/** Statement patterns for a set of names, compiled once per check. */
interface Statements {
  names: string[];
  patterns: { fact: NumberFact; re: RegExp }[];
}

/**
 * Patterns of an age or birth year said of one of `names` now; each captures the name as
 * `name` and the number as `v` (an English number word before "years old" as `w`).
 */
function statementPatterns(names: string[]): Statements {
  const alternation = [...names]
    .sort((a, b) => b.length - a.length)
    .map(nameSrc)
    .join('|');
  const n = `(?<name>${alternation})`;
  const v = `(?<v>${NUM})`;
  const y = `(?<v>${YEAR})`;
  // Not a past moment: "when Mara was 12", "林夏十岁那年", and not a round figure ("三十多岁", "about 35").
  const notPast = String.raw`(?!\s*(?:多|余|来|出头|左右|上下|那|时|的时候|以前|之前|起|之后|后|前|生日))`;
  const patterns: Statements['patterns'] = [
    { fact: 'age', re: new RegExp(`(?<![近约快将零〇一二两三四五六七八九十百廿卅\\d])${v}岁${notPast}的${n}`, 'gu') },
    // "林夏三岁的女儿": the age is the daughter's.
    { fact: 'age', re: new RegExp(`${n}(?:[，,]\\s*|今年|已经|已|才|刚|刚满|已满|满)?${v}岁${notPast}(?!的)`, 'gu') },
    { fact: 'age', re: new RegExp(`${n},\\s*(?:aged?\\s+)?${v}(?=\\s*(?:[,;)]|\\.(?!\\d)|years? old|$))`, 'gmu') },
    { fact: 'age', re: new RegExp(`${n}\\s*\\(${v}\\)`, 'gu') },
    {
      fact: 'age',
      re: new RegExp(
        `(?<!\\b(?:[Ww]hen|[Ss]ince|[Uu]ntil|[Bb]efore|[Aa]fter|[Bb]y the time|[Aa]s if|[Ii]f)\\s+)${n}\\s+(?:is|was|had turned|turned|is now|was now)\\s+(?:(?<v>\\d{1,3})(?=\\s*(?:years? old\\b|[,;.!?)]|$))|(?<w>${EN_NUM})(?=\\s+years? old\\b))`,
        'gmu',
      ),
    },
    { fact: 'age', re: new RegExp(`\\b${v}-year-old\\s+${n}`, 'gu') },
    { fact: 'born', re: new RegExp(`${n}(?:[，,]\\s*)?(?:生于|出生于|是)${y}年(?:出生|生)?`, 'gu') },
    {
      fact: 'born',
      re: new RegExp(`${n}(?:[，,]\\s*|\\s+was\\s+|\\s*\\(\\s*)?(?:born(?:\\s+in)?|b\\.)\\s+${y}\\b`, 'gu'),
    },
  ];
  return { names, patterns: names.length ? patterns : [] };
}

/** Ages and birth years stated about the names of `statements` in `text`. */
function statementsIn(text: string, { names, patterns }: Statements): Statement[] {
  const out: Statement[] = [];
  for (const { fact, re } of patterns)
    for (const m of text.matchAll(re)) {
      const value = parseNumber((m.groups!.v ?? m.groups!.w)!);
      const plausible = fact === 'age' ? value !== null && value <= 150 : value !== null && value >= 1000;
      const name = names.find((x) => x.toLowerCase() === m.groups!.name!.toLowerCase());
      if (plausible && name) out.push({ name, fact, value: value!, text: m[0].trim() });
    }
  return out;
}

/** A card's own age or birth year given as a field or alone ("Age: 34", "二十七岁", "born 1990"). */
function ownFacts(content: string): { fact: NumberFact; value: number; text: string }[] {
  const found: { fact: NumberFact; value: number; text: string }[] = [];
  const age = new RegExp(`(?:\\bage|年龄|年纪)\\s*[:：]?\\s*(${NUM})|(${NUM})\\s*(?:岁(?![多余来])|years? old)`, 'giu');
  for (const m of content.matchAll(age)) {
    const value = parseNumber((m[1] ?? m[2])!);
    if (value !== null && value <= 150) found.push({ fact: 'age', value, text: m[0].trim() });
  }
  const born = new RegExp(
    `(?:born(?:\\s+in)?|b\\.|生于|出生于)\\s*(${YEAR})(?:\\s*年)?|(${YEAR})\\s*年\\s*(?:出生|生人)`,
    'giu',
  );
  for (const m of content.matchAll(born)) {
    const value = parseNumber((m[1] ?? m[2])!);
    if (value !== null && value >= 1000) found.push({ fact: 'born', value, text: m[0].trim() });
  }
  return found;
}

type CardFact = { title: string; value: number; text: string };

/** What the cards say: each name's character (its card's title), and each character's facts. */
interface CardFacts {
  /** Names that belong to one character card only. */
  people: Map<string, string>;
  /** The statement patterns of those names. */
  statements: Statements;
  /** By character: an age or birth year, null when the cards give it two different values. */
  facts: Map<string, Map<NumberFact, CardFact | null>>;
}

/**
 * What the cards say about each character: statements that name it in any card, else its own
 * card's single age or birth year given alone ("Age: 34", "二十七岁", "born 1990").
 */
function cardFacts(cards: FactCheckInput['cards']): CardFacts {
  const characters = cards.filter((c) => c.type === 'character');
  const owners = new Map<string, string | null>();
  for (const c of characters)
    for (const name of cardNames(c.title))
      owners.set(name, owners.has(name) && owners.get(name) !== c.title ? null : c.title);
  const people = new Map([...owners].filter((e): e is [string, string] => e[1] !== null));
  const statements = statementPatterns([...people.keys()]);
  const facts = new Map<string, Map<NumberFact, CardFact | null>>();
  const note = (person: string, fact: NumberFact, f: CardFact | null) => {
    const byFact = facts.get(person) ?? new Map<NumberFact, CardFact | null>();
    facts.set(person, byFact);
    const had = byFact.get(fact);
    byFact.set(fact, had === undefined ? f : had && f && had.value === f.value ? had : null);
  };
  for (const c of cards)
    for (const s of statementsIn(c.content, statements))
      note(people.get(s.name)!, s.fact, { title: c.title, value: s.value, text: s.text });
  for (const c of characters) {
    const own = ownFacts(c.content);
    for (const fact of ['age', 'born'] as const) {
      const values = own.filter((o) => o.fact === fact);
      if (facts.get(c.title)?.has(fact) || !values.length) continue;
      const single = new Set(values.map((o) => o.value)).size === 1;
      note(c.title, fact, single ? { title: c.title, value: values[0]!.value, text: values[0]!.text } : null);
    }
  }
  return { people, statements, facts };
}

interface Quotation {
  text: string;
  /** Offset of the quotation in its file: the file's own text before it is earlier text too. */
  at: number;
  byChapter: boolean;
}

/** Quotations the draft presents as earlier words: a cue in the clause before it or just after it. */
function quotationsIn(content: string): Quotation[] {
  const out: Quotation[] = [];
  for (const m of content.matchAll(QUOTE)) {
    const text = normalize(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
    if ([...text].length < MIN_QUOTE_CHARS) continue;
    const start = m.index!;
    const before = content.slice(Math.max(0, start - 80), start);
    const clause = before.slice(
      Math.max(...['。', '！', '？', '\n', '. ', '! ', '? '].map((p) => before.lastIndexOf(p))) + 1,
    );
    const after = content.slice(start + m[0].length, start + m[0].length + 30).split(/[。！？\n]|[.!?](?:\s|$)/)[0]!;
    const near = `${clause} ${after}`;
    const byChapter = CHAPTER_CUE.test(near);
    if (byChapter || MEMORY_CUE.test(near)) out.push({ text, at: start, byChapter });
  }
  return out;
}

/** Whether the drafts give any quotation as earlier words: only then is the earlier text needed. */
export function quotesEarlierText(drafts: FactText[]): boolean {
  return drafts.some((d) => quotationsIn(d.content).length > 0);
}

/** Ends of a sentence or a quotation: where an earlier passage shown to the reviewer starts and stops. */
const BOUNDARY = /[“”「」『』"。！？!?\n]|\.(?=\s|$)/g;

/** The sentence or quotation of `text` that holds `from`…`to`. */
function passage(text: string, from: number, to: number): string {
  const back = Math.max(0, from - 200);
  let start = back;
  for (const m of text.slice(back, from).matchAll(BOUNDARY)) start = back + m.index! + 1;
  const end = text.slice(to, to + 200).search(BOUNDARY);
  return normalize(text.slice(start, end < 0 ? to + 200 : to + end));
}

/** Earlier text, prepared for each comparison only when a quotation first needs it: most drafts quote nothing. */
class Source {
  #text: string | undefined;
  #key: string | undefined;
  constructor(
    readonly file: string,
    private readonly content: string,
  ) {}
  get text(): string {
    return (this.#text ??= normalize(this.content));
  }
  get key(): string {
    return (this.#key ??= key(this.content));
  }
}

/** What a comparison gives when the check's time ran out during it. */
const STOPPED = Symbol('stopped');

/**
 * The earlier passage that holds the first or the last half of the quotation word for word (a
 * misquote of it), if any. Halves shorter than a few words could match anywhere: not looked for.
 */
function closestEarlier(
  quote: string,
  sources: Source[],
  stop?: () => boolean,
): { text: string; file: string } | null | typeof STOPPED {
  const half = Math.ceil(quote.length / 2);
  if (half < (/[\u3400-\u9fff]/u.test(quote) ? 6 : 12)) return null;
  for (const piece of [quote.slice(0, half), quote.slice(quote.length - half)])
    for (const s of sources) {
      if (stop?.()) return STOPPED;
      const at = s.text.indexOf(piece);
      if (at >= 0) return { text: passage(s.text, at, at + half), file: s.file };
    }
  return null;
}

/** Whether every part of the quotation (split where words were left out: "…") is in one source. */
function foundVerbatim(quote: string, sources: Source[], stop?: () => boolean): boolean | typeof STOPPED {
  const parts = quote.split(/…+|\.{3,}/).map(key);
  for (const s of sources) {
    if (stop?.()) return STOPPED;
    if (parts.every((part) => s.key.includes(part))) return true;
  }
  return false;
}

/** Looks for the draft's quotations of earlier words in the earlier text; a miss is a finding when it is clear. */
function checkQuotes(d: FactText, earlier: Source[], result: FactCheckResult, stop?: () => boolean): boolean {
  for (const q of quotationsIn(d.content)) {
    // The draft's own text before the quotation is earlier text too.
    const sources = [new Source(d.title, d.content.slice(0, q.at)), ...earlier];
    const found = foundVerbatim(q.text, sources, stop);
    const closest = found === false ? closestEarlier(q.text, sources, stop) : null;
    if (found === STOPPED || closest === STOPPED) return false;
    result.quotes.checked++;
    if (found) result.quotes.found++;
    else if (closest) result.findings.push({ kind: 'quote', file: d.title, quote: q.text, closest });
    else if (q.byChapter && earlier.length) result.findings.push({ kind: 'quote', file: d.title, quote: q.text });
  }
  return true;
}

/** Compares the ages and birth years the draft states with the cards'; a difference is a finding. */
function checkNumbers(d: FactText, cards: CardFacts, result: FactCheckResult, stop?: () => boolean): boolean {
  const seen = new Set<string>();
  for (const s of statementsIn(d.content, cards.statements)) {
    if (stop?.()) return false;
    const card = cards.facts.get(cards.people.get(s.name)!)?.get(s.fact);
    if (!card) continue;
    result.numbersChecked++;
    const said = `${s.name}\u0000${s.fact}\u0000${s.value}`;
    if (card.value === s.value || seen.has(said)) continue;
    seen.add(said);
    const stated = { value: s.value, text: s.text };
    result.findings.push({ kind: 'number', file: d.title, subject: s.name, fact: s.fact, stated, card });
  }
  return true;
}

/** Checks what the drafts state against the earlier text and the cards. */
export function checkFacts(input: FactCheckInput): FactCheckResult {
  const result: FactCheckResult = {
    findings: [],
    quotes: { checked: 0, found: 0 },
    numbersChecked: 0,
    cutShort: false,
  };
  const earlier = input.earlier.map((e) => new Source(e.title, e.content));
  const cards = cardFacts(input.cards);
  // The numbers first: a few regular expressions over the draft, where the quotations may
  // have to read the whole book.
  for (const d of input.drafts) if (!checkNumbers(d, cards, result, input.stop)) return { ...result, cutShort: true };
  for (const d of input.drafts) if (!checkQuotes(d, earlier, result, input.stop)) return { ...result, cutShort: true };
  return result;
}
