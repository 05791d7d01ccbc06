/**
 * What an outline says about each chapter. An outline entry is a line that starts with a
 * chapter number ("Chapter 3: Low Tide — Mara finds the ledger.", "第3章：退潮——玛拉找到账本。",
 * "## Ch. 3", "- **Chapter 3**", "1. Chapter 3: …"); the job reads which chapters are planned
 * from it, and the board shows each entry's title and a one-line synopsis. Pure module.
 */
import { findUnitRefs } from '../words/numerals';

/** A line that opens with a chapter reference, after list or heading marks. */
const ENTRY_LINE =
  /^\s*(?:[#*>\-–•]+\s*|\d+[.)]\s*)?(?:\*\*)?(?:chapter\s*\d{1,4}\b|ch\.\s*\d{1,4}\b|第\s*[\d零〇一二两三四五六七八九十百千]{1,8}\s*章)/i;

/** The chapter a title or outline line names first ("Chapter 7: …", "第7章", "第七章"), or null. */
export function chapterOf(text: string): number | null {
  const ref = findUnitRefs(text).find((r) => r.kind === 'chapter');
  return ref ? ref.from : null;
}

/** Chapter → its outline line (trimmed, at most 400 characters), the first found across the outlines in the order given. */
export function outlineLines(outlines: readonly string[]): Map<number, string> {
  const entries = new Map<number, string>();
  for (const text of outlines)
    for (const line of text.split('\n')) {
      if (!ENTRY_LINE.test(line)) continue;
      const n = chapterOf(line);
      if (n !== null && !entries.has(n)) entries.set(n, line.trim().slice(0, 400));
    }
  return entries;
}

/** One chapter as the outline plans it. */
export interface OutlineEntry {
  n: number;
  /** The chapter's name after its number ("Low Tide"), or ''. */
  title: string;
  /** What happens in it, on one line, or ''. */
  synopsis: string;
  /** How the outline labels the chapter ("Chapter 3", "第3章"): a new file for it is titled with this and the name. */
  label: string;
}

/** Emphasis marks and separators around a name: "**Low Tide**:" → "Low Tide". */
const tidy = (s: string): string =>
  s
    .replace(/[*_`]+/g, '')
    .replace(/^[\s:：.。、,，\-–—)）]+/, '')
    .replace(/[\s:：\-–—]+$/, '')
    .trim();

/** "Low Tide — Mara finds …" → name and synopsis (a dash splits them, else a colon); a long line with neither is all synopsis. */
function splitRest(raw: string): { title: string; synopsis: string } {
  const rest = tidy(raw.replace(/^[\s*_]+/, ''));
  const split = /\s+[—–-]{1,2}\s+|——|—/.exec(rest) ?? /[:：]\s*/.exec(rest);
  if (split)
    return { title: tidy(rest.slice(0, split.index)), synopsis: tidy(rest.slice(split.index + split[0].length)) };
  return rest.length <= 40 ? { title: rest, synopsis: '' } : { title: '', synopsis: rest };
}

/**
 * Each planned chapter's name and synopsis, first outline first. An entry whose line has no
 * synopsis takes the next line of prose under it ("## Chapter 3: Low Tide" then a paragraph).
 */
export function outlineEntries(outlines: readonly string[]): Map<number, OutlineEntry> {
  const out = new Map<number, OutlineEntry>();
  for (const text of outlines) {
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (!ENTRY_LINE.test(line)) return;
      const ref = findUnitRefs(line).find((r) => r.kind === 'chapter');
      if (!ref || out.has(ref.from)) return;
      const entry: OutlineEntry = {
        n: ref.from,
        label: line.slice(ref.start, ref.end).trim(),
        ...splitRest(line.slice(ref.end)),
      };
      if (!entry.synopsis) {
        const next = lines.slice(i + 1).find((l) => l.trim());
        if (next && !ENTRY_LINE.test(next) && !/^\s*#/.test(next))
          entry.synopsis = tidy(next.replace(/^\s*(?:[-*>•]+|\d+[.)])\s*/, ''));
      }
      entry.synopsis = entry.synopsis.slice(0, 300);
      out.set(ref.from, entry);
    });
  }
  return out;
}
