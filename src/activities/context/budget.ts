/**
 * Fits prioritized context items into a token budget. Each item is
 * measured once; an item that does not fit whole is cut from the same measurement. Every
 * title line says what the model is looking at — the whole file, a cut with the way to read
 * the rest, or a retrieved snippet — so a fragment is never mistaken for the file.
 * A non-CRITICAL item cut below 500 characters and below half its length is dropped (it
 * stays in the file list). Pure module.
 */
import { Priority } from './priorities';
import { countTokens, type Measured, measureShared } from './tokens';
import type { WorkerCaches } from '../worker-caches';

export interface ContextItem {
  fileId: string;
  title: string;
  priority: Priority;
  kind: 'file' | 'snippet';
  /** The whole file, or the snippet's text. */
  text: string;
  /** Snippets: where the chunk sits in its file, and the file's length. */
  start?: number;
  end?: number;
  fileChars?: number;
}

export interface Placed {
  item: ContextItem;
  mode: 'full' | 'truncated' | 'snippet';
  /** Characters of the item's text that were shown. */
  shownChars: number;
  rendered: string;
}

export interface Packed {
  placed: Placed[];
  /** Items considered but left out (too little room for a useful part). */
  dropped: string[];
  tokens: number;
}

/** Fragments shorter than this (and under half the file) mislead more than they help. */
export const MIN_FRAGMENT_CHARS = 500;
/** Room below which no further item is tried. */
const MIN_ROOM_TOKENS = 50;
/** Separator between parts, with room for tokenizer merges at the joins. */
const JOIN_TOKENS = 3;

export const fullHeader = (title: string, id: string): string => `### ${title} (id=${id}) [full]`;

const truncatedHeader = (title: string, id: string, shown: number, total: number): string =>
  `### ${title} (id=${id}) [truncated: showing ${shown}/${total} characters; full text: query_files(id="${id}")]`;

const snippetHeader = (i: ContextItem): string =>
  `### ${i.title} (id=${i.fileId}) [retrieved snippet, characters ${i.start}–${i.end} of ${i.fileChars}; not the full text: read it with query_files(id="${i.fileId}")]`;

/**
 * Measurements shared between packing passes, so each text is tokenized once per assembly;
 * long texts (files) once per worker while they stay the same (tokens.ts `measureShared`,
 * with the worker's `measuredTexts`).
 */
export class MeasureCache {
  private readonly cache = new Map<string, Measured>();
  constructor(private readonly measuredTexts: WorkerCaches['measuredTexts']) {}
  measure(key: string, text: string): Measured {
    let m = this.cache.get(key);
    if (!m) this.cache.set(key, (m = measureShared(this.measuredTexts, text)));
    return m;
  }
}

/** Places items in order until the budget is spent; `startTokens` is what the block's header already used. */
export function pack(items: ContextItem[], budget: number, startTokens: number, cache: MeasureCache): Packed {
  const placed: Placed[] = [];
  const dropped: string[] = [];
  let used = startTokens;
  for (const item of items) {
    const left = budget - used;
    if (left <= MIN_ROOM_TOKENS) {
      dropped.push(item.fileId);
      continue;
    }
    const key = item.kind === 'file' ? `file:${item.fileId}` : `snippet:${item.fileId}:${item.start}`;
    const body = cache.measure(key, item.text);
    const header = item.kind === 'file' ? fullHeader(item.title, item.fileId) : snippetHeader(item);
    const headerTokens = countTokens(header) + JOIN_TOKENS;
    if (headerTokens + body.count <= left) {
      placed.push({
        item,
        mode: item.kind === 'file' ? 'full' : 'snippet',
        shownChars: item.text.length,
        rendered: `${header}\n${item.text}`,
      });
      used += headerTokens + body.count;
      continue;
    }
    // A snippet is already a small part: cutting it again helps nobody.
    if (item.kind === 'snippet') {
      dropped.push(item.fileId);
      continue;
    }
    // The cut header is a little longer (two numbers, the query_files hint): measure it with the largest numbers.
    const cutHeaderTokens =
      countTokens(truncatedHeader(item.title, item.fileId, item.text.length, item.text.length)) + JOIN_TOKENS;
    const cut = body.prefix(left - cutHeaderTokens);
    if (item.priority !== Priority.CRITICAL && cut.length < MIN_FRAGMENT_CHARS && cut.length < item.text.length / 2) {
      dropped.push(item.fileId);
      continue;
    }
    if (!cut) {
      dropped.push(item.fileId);
      continue;
    }
    placed.push({
      item,
      mode: 'truncated',
      shownChars: cut.length,
      rendered: `${truncatedHeader(item.title, item.fileId, cut.length, item.text.length)}\n${cut}`,
    });
    // The cut came from at most the room left, so the room is spent: no second count needed.
    used += left;
  }
  return { placed, dropped, tokens: used };
}

/**
 * Characters per token of budget past which a stored context part is cut as it is sent. Packing
 * keeps a context within its token budget, and prose runs 1–5 characters a token, so the cap
 * only fires on a context that overran its budget (stored under a larger one, or a packing fault).
 */
export const CONTEXT_FALLBACK_CHARS_PER_TOKEN = 8;

/** The line that ends a context cut by the fallback cap. */
export const contextCutNote = (shown: number, total: number): string =>
  `[context cut here: showing ${shown} of ${total} characters; read any file listed above in full with query_files(id)]`;

/**
 * A stored context part as a step sends it: trimmed at both ends and, when longer than
 * `maxChars`, cut at the last line break within the cap (mid-line only when the cap holds no
 * line break), followed by a line saying it was cut. Whitespace inside is never rewritten: the
 * line breaks carry the headers, the file list and the paragraphs the model reads by.
 */
export function capContextText(text: string, maxChars: number): { text: string; cut: boolean } {
  const trimmed = text.trim();
  if (trimmed.length <= maxChars) return { text: trimmed, cut: false };
  const lineEnd = trimmed.lastIndexOf('\n', maxChars);
  let end = lineEnd > 0 ? lineEnd : maxChars;
  // A mid-line cut must not split a surrogate pair.
  const last = trimmed.charCodeAt(end - 1);
  if (lineEnd <= 0 && last >= 0xd800 && last <= 0xdbff) end--;
  const kept = trimmed.slice(0, end);
  return { text: `${kept}\n${contextCutNote(kept.length, trimmed.length)}`, cut: true };
}
