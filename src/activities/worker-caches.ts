/**
 * The caches of one worker's activities, created with them (createActivities) and dropped with
 * them: no activity module keeps state of its own, and two workers in one process share
 * nothing. Every cache here is only a shortcut, in memory and bounded: a miss (a fresh worker,
 * an evicted entry, a step that runs on another worker) reads or computes anew, with the same
 * result.
 */
import { StreamLedgerBatch } from './stream/stream-ledger-batch';
import { StreamLoad } from './stream/batching-publisher';
import { HeartbeatLoad } from './heartbeat';
import { LRUCache } from 'lru-cache';
import type { TurnContextDoc } from '../db/models';
import type { TurnSources } from './context/prefetch';
import { type ChunkIndex, indexFootprint } from './context/retrieval';
import type { Measured } from './context/tokens';
import { EarlyReads } from './early-reads';
import type { RouterInput } from './turn/router-input';

export interface WorkerCaches {
  /** Stream counts not yet on record, written for all of the worker's streams at once. */
  streamLedger: StreamLedgerBatch;
  /** The token streams the worker has open, which widen every stream's batch window (batching-publisher.ts). */
  streamLoad: StreamLoad;
  /** The worker's heartbeating activities, which widen every activity's beat (heartbeat.ts). */
  heartbeatLoad: HeartbeatLoad;
  /** The router's reads that prepareTurn started, by turn id, taken once (router-input.ts). */
  routerInputs: EarlyReads<RouterInput>;
  /** The context's reads that prepareTurn started, by turn id, taken once (context/prefetch.ts). */
  turnSources: EarlyReads<TurnSources>;
  /** Retrieval indexes by project id, brought up to date by file version (context/retrieval.ts). */
  retrievalIndexes: LRUCache<string, ChunkIndex>;
  /** Token counts of texts that never change once written, by caller-chosen key (context/tokens.ts `countStable`). */
  stableTokenCounts: Map<string, number>;
  /** Measurements of long texts, keyed by the text itself (context/tokens.ts `measureShared`). */
  measuredTexts: LRUCache<string, Measured>;
  /** Turn contexts this worker built and stored, or read back (context/turn-context.ts `ensureTurnContext`). */
  turnContexts: LRUCache<string, TurnContextDoc>;
}

/** What a worker's retrieval indexes may hold in all (estimated by indexFootprint). */
const RETRIEVAL_INDEX_BYTES = 96 * 1024 * 1024;

/** A worker's caches, empty: createActivities makes one set for all the activities it builds. */
export function createWorkerCaches(): WorkerCaches {
  return {
    streamLedger: new StreamLedgerBatch(),
    streamLoad: new StreamLoad(),
    heartbeatLoad: new HeartbeatLoad(),
    // Short-lived: the router follows prepareTurn within a workflow task.
    routerInputs: new EarlyReads<RouterInput>({ max: 64, ttlMs: 30_000 }),
    // Whole projects' text, short-lived (a turn's first step follows its router within seconds,
    // then takes it). One entry per turn opening at once: with 8, 42 of 50 turns started together
    // lost theirs before their first step and read their files, skills and messages again, on the
    // path to the first token (bench:turn --concurrency 50). The TTL bounds what it holds.
    turnSources: new EarlyReads<TurnSources>({ max: 64, ttlMs: 30_000 }),
    // Kept per project so a turn re-indexes only the files written since the last one. Never
    // load-bearing: an evicted project just indexes again. Bounded by what the indexes hold,
    // not by a count of projects: with 16, a worker serving 20 jobs or 50 turns in as many
    // projects evicted one project's index to index another, every step.
    retrievalIndexes: new LRUCache<string, ChunkIndex>({
      max: 1024,
      maxSize: RETRIEVAL_INDEX_BYTES,
      sizeCalculation: indexFootprint,
    }),
    // Remembered so a run's growing tool loop is not re-tokenised at every step. A plain Map:
    // countStable bounds it (STABLE_COUNTS_MAX entries, the oldest dropped first).
    stableTokenCounts: new Map<string, number>(),
    // Keyed by the text itself, so a hit is exact: a book's files come back unchanged turn after
    // turn, and tokenising 50 chapters again took 20-60 ms of each turn's first step
    // (bench:turn, accumulated). Bounded by size (about 2 bytes per character and 8 per token).
    measuredTexts: new LRUCache<string, Measured>({
      maxSize: 64 * 1024 * 1024,
      sizeCalculation: (m, text) => 2 * text.length + 8 * m.count + 1,
    }),
    // A stored context never changes (one per turn, inserted once, never updated), so a cached
    // copy cannot be stale; a step on another worker reads it from MongoDB. A long book's
    // context is a few hundred KB, read at every step (accumulated bench: ~27 ms a step, and
    // FerretDB load under concurrent turns), hence the cache; bounded by total characters.
    turnContexts: new LRUCache<string, TurnContextDoc>({
      max: 64,
      maxSize: 32 * 1024 * 1024,
      sizeCalculation: (c) =>
        1 +
        (c.context?.length ?? 0) +
        (c.userContent?.length ?? 0) +
        (c.history ?? []).reduce((n, m) => n + (m.content?.length ?? 0), 0),
    }),
  };
}
