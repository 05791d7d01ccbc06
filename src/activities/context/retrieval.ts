/**
 * Full-text retrieval over a project's files: each
 * file is cut into paragraph-aligned chunks and ranked with BM25 (MiniSearch) against the
 * author's message and the router's scope. Chinese has no spaces, so CJK runs are indexed
 * as overlapping character bigrams (the classic CJK analyzer), other text as words. A chunk that mentions a character or setting named in the query
 * ranks higher. Pure apart from the library.
 */
import MiniSearch from 'minisearch';
import type { LRUCache } from 'lru-cache';

/** Target chunk length in characters: a passage, not a chapter. */
export const CHUNK_CHARS = 600;

export interface Chunk {
  id: string;
  fileId: string;
  /** Index of the chunk in its file. */
  seq: number;
  /** Character range in the file's text. */
  start: number;
  end: number;
  text: string;
}

export interface RetrievableFile {
  id: string;
  title: string;
  content: string;
  /** The file's version: an index entry is reused while it matches. */
  version: number;
}

/** Runs of CJK ideographs, and words of any other script (letters and digits). */
const TERM_RUN = /([\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+)|[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/**
 * Terms of a text: CJK bigrams (a lone CJK character stays a unigram) and lower-cased
 * words. One regex pass: this runs over the whole project once per request.
 */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TERM_RUN)) {
    const run = m[1];
    if (!run) {
      out.push(m[0].toLowerCase());
      continue;
    }
    // Ideographs in these ranges are single UTF-16 units, so indexing by code unit is safe.
    if (run.length === 1) out.push(run);
    for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
  }
  return out;
}

/** Cuts a text into chunks of about CHUNK_CHARS, breaking at paragraph or line ends when it can. */
export function chunkText(fileId: string, text: string): Chunk[] {
  const chunks: Chunk[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + CHUNK_CHARS);
    if (end < text.length) {
      const window = text.slice(start, Math.min(text.length, start + CHUNK_CHARS * 1.5));
      const para = window.lastIndexOf('\n\n', CHUNK_CHARS * 1.5);
      const line = window.lastIndexOf('\n', CHUNK_CHARS * 1.5);
      const at = para > CHUNK_CHARS / 2 ? para : line > CHUNK_CHARS / 2 ? line : -1;
      end = at > 0 ? start + at : end;
    }
    const piece = text.slice(start, end);
    if (piece.trim())
      chunks.push({ id: `${fileId}:${chunks.length}`, fileId, seq: chunks.length, start, end, text: piece.trim() });
    start = end;
    while (start < text.length && text[start] === '\n') start++;
  }
  return chunks;
}

export interface RetrievalQuery {
  text: string;
  /** Names of characters and settings the query mentions: chunks naming them rank higher. */
  names: string[];
}

export interface ScoredChunk extends Chunk {
  score: number;
}

/** Bonus factor for a chunk that mentions a character or setting named in the query. */
export const NAME_BONUS = 1.5;

/** A BM25 index over a project's chunks, with the version of each file it holds. */
export interface ChunkIndex {
  index: MiniSearch<Chunk>;
  chunks: Map<string, Chunk>;
  files: Map<string, { version: number; chunks: Chunk[] }>;
}

const newIndex = (): ChunkIndex => ({
  index: new MiniSearch<Chunk>({ fields: ['text'], idField: 'id', tokenize: terms, processTerm: (t) => t }),
  chunks: new Map(),
  files: new Map(),
});

/**
 * Where an index is kept between turns: in this worker's indexes (worker-caches.ts), under
 * `key` (the project id), brought up to date by file version. Memory only, never load-bearing:
 * a fresh worker (or an evicted project) just indexes again.
 */
export interface KeptIndex {
  indexes: LRUCache<string, ChunkIndex>;
  key: string;
}

/** Brings the index to exactly these files at these versions (synchronous: no interleaving). */
function syncIndex(ix: ChunkIndex, files: RetrievableFile[]): void {
  const live = new Map(files.map((f) => [f.id, f]));
  for (const [id, held] of ix.files) {
    if (live.get(id)?.version === held.version) continue;
    ix.index.removeAll(held.chunks);
    for (const c of held.chunks) ix.chunks.delete(c.id);
    ix.files.delete(id);
  }
  for (const f of files) {
    if (ix.files.has(f.id)) continue;
    const chunks = chunkText(f.id, f.content);
    ix.index.addAll(chunks);
    for (const c of chunks) ix.chunks.set(c.id, c);
    ix.files.set(f.id, { version: f.version, chunks });
  }
}

function indexFor(kept: KeptIndex | null, files: RetrievableFile[]): ChunkIndex {
  const ix = (kept ? kept.indexes.get(kept.key) : undefined) ?? newIndex();
  syncIndex(ix, files);
  // Kept once in step with the files: the worker's cache sizes an index by what it holds.
  if (kept) kept.indexes.set(kept.key, ix);
  return ix;
}

/**
 * About what an index takes in memory, in bytes: its chunks' text with MiniSearch's terms and
 * postings measured at 3.2 bytes a character of English prose and 5.0 of Chinese (V8 heap,
 * 2 M characters in 10 projects); the higher figure, so the bound holds for both.
 */
export function indexFootprint(ix: ChunkIndex): number {
  let chars = 0;
  for (const c of ix.chunks.values()) chars += c.text.length;
  return 1 + 5 * chars;
}

/** The files retrieval indexes: every one with text that is not a folder. */
export function retrievableFiles<F extends { type: string; content?: string | null }>(files: F[]): F[] {
  return files.filter((f) => f.type !== 'folder' && !!f.content);
}

/**
 * Brings the project's index up to these files without searching it. Indexing depends on the
 * files alone, not on the query, so the turn's early reads do it while the router answers
 * (prefetch.ts): the first step's search then finds it built. Cold, a 50-chapter book took
 * ~35 ms to index, on the way to the first token.
 */
export function syncRetrievalIndex(kept: KeptIndex, files: RetrievableFile[]): void {
  indexFor(kept, files);
}

/**
 * Ranks every chunk of the files against the query, best first (chunks sharing no term are
 * left out). With `kept` (the worker's indexes and the project id) the index is reused across turns.
 */
export function rankChunks(files: RetrievableFile[], q: RetrievalQuery, kept: KeptIndex | null = null): ScoredChunk[] {
  const ix = indexFor(kept, files);
  if (!ix.chunks.size || !q.text.trim()) return [];
  const results = ix.index.search(q.text, {
    boostDocument: (id: string) => (q.names.some((n) => ix.chunks.get(id)!.text.includes(n)) ? NAME_BONUS : 1),
  });
  return results.map((r) => ({ ...ix.chunks.get(r.id as string)!, score: r.score }));
}

/**
 * The snippets to offer: the best chunks not already visible in the context (`covered`),
 * at most `perFile` from one file so one long chapter does not take every slot.
 */
export function pickSnippets(
  ranked: ScoredChunk[],
  covered: (c: Chunk) => boolean,
  limit: number,
  perFile: number,
): ScoredChunk[] {
  const perFileCount = new Map<string, number>();
  const out: ScoredChunk[] = [];
  for (const c of ranked) {
    if (out.length >= limit) break;
    if (covered(c)) continue;
    const n = perFileCount.get(c.fileId) ?? 0;
    if (n >= perFile) continue;
    perFileCount.set(c.fileId, n + 1);
    out.push(c);
  }
  return out;
}
