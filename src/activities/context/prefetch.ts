/**
 * The reads a turn's context is built from (the project's files, the session's recent
 * messages, the skill catalogue), started early: `prepareTurn` begins them before the router
 * answers, and the first LLM step's context assembly takes them if it runs in the same worker.
 * They are the largest reads of a turn and grow with the book (on FerretDB v1 both are
 * collection scans), so overlapping them with the router call takes them off the path to the
 * first token. The chat history comes from the session's latest messages as prepareTurn
 * read them for it (session-messages.ts). Read at the start of the request, they are what
 * seed 001 means by "[full] as of request start". Another worker (or a retried step)
 * simply reads anew.
 */
import type { Models, TurnDoc } from '../../db/models';
import { skillCatalogFor } from '../../skills/catalog';
import { EarlyReads } from '../early-reads';
import { retrievableFiles, syncRetrievalIndex } from './retrieval';
import { historyBefore, HISTORY_MESSAGES, type SessionMessages } from '../session-messages';

type PrefetchTurn = Pick<TurnDoc, 'projectId' | 'sessionId' | 'ownerId' | 'skills'> & { _id: unknown };

async function readTurnSources(models: Models, turn: PrefetchTurn, recent?: Promise<SessionMessages>) {
  const turnId = String(turn._id);
  const history = async () =>
    (recent && historyBefore(await recent, turnId)) ??
    models.Message.find({ sessionId: turn.sessionId, turnId: { $ne: turnId } }).sort({ seq: -1 }).limit(HISTORY_MESSAGES).lean();
  const [rawFiles, messages, skillCatalog] = await Promise.all([
    models.File.find({ projectId: turn.projectId, deletedAt: null }).sort({ type: 1, order: 1 }).lean(),
    history(),
    // L1 of skills: the enabled skills' names and purposes, fixed for the turn like the rest.
    skillCatalogFor(models, turn),
  ]);
  return { rawFiles, messages, skillCatalog };
}

export type TurnSources = Awaited<ReturnType<typeof readTurnSources>>;

// Whole projects' text: few entries, and short-lived (a turn's first step follows its router).
const early = new EarlyReads<TurnSources>({ max: 8, ttlMs: 30_000 });

/**
 * Starts the reads for this turn (not awaited; a failure leaves the step to read itself),
 * and once they land brings the project's retrieval index up to them, as the first step's
 * search would (retrieval.ts).
 */
export function prefetchTurnSources(models: Models, turn: PrefetchTurn, recent: Promise<SessionMessages>): void {
  early.start(String(turn._id), readTurnSources(models, turn, recent).then(withIndexWarmed(turn.projectId)));
}

/** The index is a cache: a failure here only leaves the step to index for itself. */
const withIndexWarmed =
  (projectId: string) =>
  (sources: TurnSources): TurnSources => {
    try {
      syncRetrievalIndex(
        projectId,
        retrievableFiles(sources.rawFiles).map((f) => ({ id: String(f._id), title: f.title, content: f.content, version: f.versionCount })),
      );
    } catch {
      // Left to the step.
    }
    return sources;
  };

/** The turn's sources: started earlier in this worker (taken once), or read now. */
export function turnSources(models: Models, turn: PrefetchTurn): Promise<TurnSources> {
  return early.take(String(turn._id), () => readTurnSources(models, turn));
}
