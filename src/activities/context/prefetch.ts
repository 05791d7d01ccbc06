/**
 * The reads a turn's context is built from (the project's files, the session's recent
 * messages, the skill catalogue), started early: `prepareTurn` begins them before the router
 * answers, and the first LLM step's context assembly takes them if it runs in the same worker.
 * They are the largest reads of a turn and grow with the book (on FerretDB v1 both are
 * collection scans), so overlapping them with the router call takes them off the path to the
 * first token. The chat history comes from the session's latest messages as prepareTurn
 * read them for it (session-messages.ts). Read at the start of the request, they make a
 * `[full]` item the whole text as of the start of the request. Another worker (or a retried
 * step) simply reads anew.
 */
import type { Models, TurnDoc } from '../../db/models';
import type { Importance } from '../../core/domain';
import { skillCatalogFor } from '../../skills/catalog';
import { notFound } from '../failures';
import type { ManifestFile } from './priorities';
import { retrievableFiles, syncRetrievalIndex } from './retrieval';
import { historyBefore, HISTORY_MESSAGES, type SessionMessages } from '../turn/session-messages';
import type { EarlyReads } from '../early-reads';
import type { ChunkIndex } from './retrieval';
import type { LRUCache } from 'lru-cache';

/** The turn as prepareTurn read it: what a context is built for never changes once the turn is created. */
type SourcesTurn = TurnDoc & { _id: unknown };

async function readTurnSources(models: Models, turn: SourcesTurn, recent?: Promise<SessionMessages>) {
  const turnId = String(turn._id);
  const history = async () =>
    (recent && historyBefore(await recent, turnId)) ??
    models.Message.find({ sessionId: turn.sessionId, turnId: { $ne: turnId } })
      .sort({ seq: -1 })
      .limit(HISTORY_MESSAGES)
      .lean();
  const [rawFiles, messages, skillCatalog] = await Promise.all([
    models.File.find({ projectId: turn.projectId, deletedAt: null }).sort({ type: 1, order: 1 }).lean(),
    history(),
    // L1 of skills: the enabled skills' names and purposes, fixed for the turn like the rest.
    skillCatalogFor(models, turn),
  ]);
  return { turn, rawFiles, messages, skillCatalog };
}

export type TurnSources = Awaited<ReturnType<typeof readTurnSources>>;

/** A project file as the context is built from it (and retrieval indexes it). */
export type LoadedFile = ManifestFile & { content: string; words: number; version: number; latestAuthor: string };

export function loadedFiles(rawFiles: TurnSources['rawFiles']): LoadedFile[] {
  return rawFiles.map((f) => ({
    id: String(f._id),
    title: f.title,
    type: f.type,
    parentId: f.parentId ?? null,
    order: f.order,
    importance: (f.importance ?? null) as Importance | null,
    content: f.content,
    words: f.words,
    version: f.versionCount,
    latestAuthor: f.latestAuthor,
  }));
}

/**
 * Starts the reads for this turn (not awaited; a failure leaves the step to read itself),
 * kept in the worker's turn sources, and once they land brings the project's retrieval index
 * in the worker's caches up to them, as the first step's search would (retrieval.ts).
 */
export function prefetchTurnSources(
  models: Models,
  caches: { turnSources: EarlyReads<TurnSources>; retrievalIndexes: LRUCache<string, ChunkIndex> },
  turn: SourcesTurn,
  recent: Promise<SessionMessages>,
): void {
  const reads = readTurnSources(models, turn, recent);
  caches.turnSources.start(
    String(turn._id),
    reads.then((sources) => {
      warmIndex(caches.retrievalIndexes, turn.projectId, sources.rawFiles);
      return sources;
    }),
  );
}

/** The index is a cache: a failure here only leaves the step to index for itself. */
function warmIndex(indexes: LRUCache<string, ChunkIndex>, projectId: string, rawFiles: TurnSources['rawFiles']): void {
  try {
    syncRetrievalIndex({ indexes, key: projectId }, retrievableFiles(loadedFiles(rawFiles)));
  } catch {
    // Left to the step.
  }
}

/**
 * Whether this worker holds the turn's early reads in `early`, its turn sources: it opened the
 * turn, and no step has built its context yet.
 */
export function holdsTurnSources(early: EarlyReads<TurnSources>, turnId: string): boolean {
  return early.holds(turnId);
}

/**
 * The turn and its sources: started earlier in this worker (taken once from `early`, its turn
 * sources; the turn as prepareTurn read it, so no read of it here), or read now.
 */
export function turnSources(models: Models, early: EarlyReads<TurnSources>, turnId: string): Promise<TurnSources> {
  return early.take(turnId, async () => {
    const turn = await models.Turn.findById(turnId).lean();
    if (!turn) throw notFound('Turn', turnId);
    return readTurnSources(models, turn);
  });
}
