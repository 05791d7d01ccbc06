/**
 * Search in a manuscript's titles and text, as an author types it: case-insensitive,
 * whitespace in the query matching any run of whitespace (a phrase found across a line
 * break), and substrings rather than whole words — Chinese has no spaces between words, so
 * "灯塔" must be found inside "灯塔还亮着吗". A query of several words that never occurs as a
 * phrase finds the files holding every one of its words. Offsets are UTF-16 indexes into
 * the text as stored, so a hit opens the file exactly there. Pure module.
 */

/** One place a query matched, with the text around it. */
export interface SearchHit {
  /** Offsets of the match in the text (end exclusive). */
  from: number;
  to: number;
  /** Text just before the match ('…' marks a cut), the match as written, text just after. */
  before: string;
  match: string;
  after: string;
}

/** Where a query matched in one text: the first hits and how many there are in all. */
export interface TextHits {
  hits: SearchHit[];
  count: number;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The query's words: whitespace-separated, at most 12, each at most 100 characters. */
export function queryTerms(query: string): string[] {
  return query
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 12)
    .map((t) => t.slice(0, 100));
}

/** The phrase pattern: the words in order with any whitespace between them. */
export function phrasePattern(terms: string[]): RegExp {
  return new RegExp(terms.map(escape).join('\\s+'), 'giu');
}

const termPattern = (term: string): RegExp => new RegExp(escape(term), 'giu');

const SNIPPET_BEFORE = 60;
const SNIPPET_AFTER = 90;

/** Moves an index off the second half of a surrogate pair, so a cut never splits a character. */
function safe(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff ? i - 1 : i;
}

/** The snippet around text[from, to): on one line, cut at a space where the text has them. */
function snippet(text: string, from: number, to: number): SearchHit {
  let start = safe(text, Math.max(0, from - SNIPPET_BEFORE));
  let end = safe(text, Math.min(text.length, to + SNIPPET_AFTER));
  const lineStart = text.lastIndexOf('\n', from - 1) + 1;
  const lineEnd = text.indexOf('\n', to);
  start = Math.max(start, lineStart);
  if (lineEnd >= 0) end = Math.min(end, lineEnd);
  // In spaced languages, a word is not cut in half at the snippet's ends.
  if (start > lineStart) {
    const space = text.indexOf(' ', start);
    if (space >= 0 && space < from && from - space < 25) start = space + 1;
  }
  if (end < (lineEnd < 0 ? text.length : lineEnd)) {
    const space = text.lastIndexOf(' ', end);
    if (space > to && end - space < 25) end = space;
  }
  return {
    from,
    to,
    before: (start > lineStart ? '…' : '') + text.slice(start, from),
    match: text.slice(from, to),
    after: text.slice(to, end) + (end < (lineEnd < 0 ? text.length : lineEnd) ? '…' : ''),
  };
}

/** Every match of `pattern` in `text`: the first `max` with snippets, and the count. */
export function findHits(text: string, pattern: RegExp, max: number): TextHits {
  const hits: SearchHit[] = [];
  let count = 0;
  const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (!m[0]) {
      re.lastIndex++;
      continue;
    }
    count++;
    if (hits.length < max) hits.push(snippet(text, m.index, m.index + m[0].length));
  }
  return { hits, count };
}

/** A file to search. */
export interface Searchable {
  id: string;
  title: string;
  content: string;
}

/** One file's result: whether its title matched, the hits in its text, and their count. */
export interface FileResult {
  id: string;
  title: string;
  titleMatch: boolean;
  hits: SearchHit[];
  count: number;
}

/**
 * Searches files (given in the manuscript's order) for a query: files whose title matches
 * first, then the rest, each keeping the manuscript's order. `perFile` bounds the hits with
 * snippets per file; every hit is counted.
 */
export function searchFiles(
  files: readonly Searchable[],
  query: string,
  perFile = 5,
): { results: FileResult[]; mode: 'phrase' | 'words' } {
  const terms = queryTerms(query);
  if (!terms.length) return { results: [], mode: 'phrase' };
  const phrase = phrasePattern(terms);
  const run = (match: (f: Searchable) => { titleMatch: boolean; found: TextHits } | null): FileResult[] => {
    const out: FileResult[] = [];
    for (const f of files) {
      const r = match(f);
      if (r && (r.titleMatch || r.found.count))
        out.push({ id: f.id, title: f.title, titleMatch: r.titleMatch, hits: r.found.hits, count: r.found.count });
    }
    return [...out.filter((r) => r.titleMatch), ...out.filter((r) => !r.titleMatch)];
  };
  const byPhrase = run((f) => ({
    titleMatch: new RegExp(phrase.source, 'iu').test(f.title),
    found: findHits(f.content, phrase, perFile),
  }));
  if (byPhrase.length || terms.length === 1) return { results: byPhrase, mode: 'phrase' };
  // No file holds the phrase: the files holding every word, with a hit for each word.
  const patterns = terms.map(termPattern);
  const byWords = run((f) => {
    const where = patterns.map((p) => ({
      inTitle: new RegExp(p.source, 'iu').test(f.title),
      found: findHits(f.content, p, perFile),
    }));
    if (!where.every((w) => w.inTitle || w.found.count)) return null;
    const hits = where
      .flatMap((w) => w.found.hits)
      .sort((a, b) => a.from - b.from)
      .slice(0, perFile);
    return {
      titleMatch: where.every((w) => w.inTitle),
      found: { hits, count: where.reduce((n, w) => n + w.found.count, 0) },
    };
  });
  return { results: byWords, mode: 'words' };
}
