/**
 * One read of a session's latest messages at the start of a turn, shared by everything that
 * looks back over them then: prepareTurn (the author's earlier requests, the previous
 * turn's reply), the router (the session's last reply) and the context (chat history).
 *
 * On FerretDB v1 (the local MongoDB-wire server) every `{sessionId}` or `{turnId}` filter
 * reads the whole messages collection, so four such reads at the start of a turn were four
 * scans of every session's messages (accumulated bench: ~75 ms each, all on the way to the
 * first token). Each answer below is exact: when what it needs may lie beyond the messages
 * read (the read was cut at its limit), it says so (null) and the caller asks MongoDB itself.
 */
import type { MessageDoc, Models } from '../../db/models';
import { quiet } from '../../core/quiet';

/** Messages of the context's chat history (the latest 200). */
export const HISTORY_MESSAGES = 200;

export interface SessionMessages {
  /** Newest first; this turn's own message included. */
  docs: MessageDoc[];
  /** The read holds the whole session (it was not cut at its limit). */
  complete: boolean;
  /** The session's latest sequence number as the read found it (0: not known). */
  latestSeq: number;
}

/**
 * Messages a turn's opening reads look back over: the previous turn's reply and facts
 * (prepareTurn) and the session's last reply (the router) are among the latest few. The
 * author's earlier requests and the chat history are read for themselves when the session
 * is longer (prepareTurn, context/prefetch.ts).
 */
export const OPENING_MESSAGES = 24;

/** Room above a read's limit for sequence numbers reserved and never used (a retried write). */
const SEQ_SLACK = 20;

/** How far below the session's latest sequence number the history read looks first. */
export const SEQ_WINDOW = HISTORY_MESSAGES + 1 + SEQ_SLACK;

/**
 * The latest `limit` messages; by default enough for the history after this turn's own
 * message is set aside. A long session's read decodes about `limit` messages, so the turn's
 * opening reads ask for few (accumulated bench: 201 messages cost 35–50 ms of prepareTurn,
 * on the way to the first token).
 */
export async function readSessionMessages(
  models: Models,
  sessionId: string,
  limit = HISTORY_MESSAGES + 1,
  latestSeq = latestSeqOf(models, sessionId),
): Promise<SessionMessages> {
  const latest = await latestSeq;
  const docs = await latestFirst(latest, limit + SEQ_SLACK, limit, (filter) =>
    latestMessages(models, { sessionId, ...filter }, limit),
  );
  return { docs, complete: docs.length < limit, latestSeq: latest };
}

/**
 * The session's latest sequence number, or 0. Only a shortcut: a session id that is not an
 * ObjectId (tests, older data) or a failed read gives 0, and the reads then ask for the session whole.
 */
function latestSeqOf(models: Models, sessionId: string): Promise<number> {
  return models.Session.findById(sessionId)
    .select({ messageSeq: 1 })
    .lean()
    .then(
      (s) => s?.messageSeq ?? 0,
      () => 0,
    );
}

/** The author's earlier requests a turn looks back over (their length requirements, prepareTurn). */
export const AUTHOR_REQUESTS = 20;

export interface OpeningReads {
  /** The session's latest OPENING_MESSAGES messages. */
  recent: Promise<SessionMessages>;
  /** The author's latest AUTHOR_REQUESTS requests, newest first, this turn's own among them. */
  requests: Promise<MessageDoc[]>;
}

/**
 * A turn's opening reads of its session. Both need only the session's latest sequence number,
 * so in a session longer than the opening read (whose few messages then cannot hold 20
 * requests) the requests are read beside it, not after it (accumulated bench: ~15 ms of
 * prepareTurn, on the way to the first token). A shorter session's are in the opening read.
 *
 * `openingSeq`, the number the turn's own message got, stands in for the session's counter
 * (one round trip less on the way to the first token). Both reads ask for sequence numbers
 * from a point upward, never below a bound, so a number lower than the session's latest
 * widens what they look at and cannot hide a newer message.
 */
export function openingReads(models: Models, sessionId: string, openingSeq?: number): OpeningReads {
  const latest = openingSeq ? Promise.resolve(openingSeq) : quiet(latestSeqOf(models, sessionId));
  const recent = quiet(readSessionMessages(models, sessionId, OPENING_MESSAGES, latest));
  const requests = quiet(
    latest.then(async (seq) =>
      seq > OPENING_MESSAGES
        ? authorRequestsByLatest(models, sessionId, seq, AUTHOR_REQUESTS)
        : latestAuthorRequests(models, sessionId, await recent, AUTHOR_REQUESTS),
    ),
  );
  return { recent, requests };
}

/** Sequence numbers the author's latest requests are looked for in first, per request: a turn is a request and a few replies. */
const SEQS_PER_REQUEST = 5;

/**
 * The author's latest `n` requests, newest first: from the messages read when they hold
 * them, else by the session's latest sequence numbers, else over the whole session.
 */
export async function latestAuthorRequests(
  models: Models,
  sessionId: string,
  read: SessionMessages,
  n: number,
): Promise<MessageDoc[]> {
  return latestAuthorMessages(read, n) ?? authorRequestsByLatest(models, sessionId, read.latestSeq, n);
}

/** The author's latest `n` requests, read by the session's latest sequence numbers first. */
function authorRequestsByLatest(models: Models, sessionId: string, latest: number, n: number): Promise<MessageDoc[]> {
  return latestFirst(latest, n * SEQS_PER_REQUEST + SEQ_SLACK, n, (filter) =>
    models.Message.find({ sessionId, role: 'user', ...filter })
      .sort({ seq: -1 })
      .limit(n)
      .lean(),
  );
}

/**
 * The latest `limit` of a session's messages that `query` selects (newest first), read by the
 * latest `window` sequence numbers first: on our local server only those messages are then
 * decoded (it answers a seq range in SQLite), not the session's whole history (accumulated
 * bench: ~70 ms on the way to the first token). When the window holds all `limit` they are
 * the latest (everything outside it is older); otherwise (unused numbers, sparse matches) the
 * whole session is asked.
 */
async function latestFirst(
  latest: number,
  window: number,
  limit: number,
  query: (filter: Record<string, unknown>) => Promise<MessageDoc[]>,
): Promise<MessageDoc[]> {
  if (latest > window) {
    const docs = await query({ seq: { $gt: latest - window } });
    if (docs.length === limit) return docs;
  }
  return query({});
}

function latestMessages(models: Models, filter: Record<string, unknown>, limit: number): Promise<MessageDoc[]> {
  // All in the first batch: the driver's default (101) cost a getMore round trip.
  return models.Message.find(filter).sort({ seq: -1 }).limit(limit).batchSize(limit).lean();
}

/** The chat history before this turn, newest first, or null when the read cannot tell. */
export function historyBefore(read: SessionMessages, turnId: string): MessageDoc[] | null {
  const docs = read.docs.filter((m) => m.turnId !== turnId);
  return docs.length >= HISTORY_MESSAGES || read.complete ? docs.slice(0, HISTORY_MESSAGES) : null;
}

/** The latest `n` messages of the author, newest first, or null when the read cannot tell. */
export function latestAuthorMessages(read: SessionMessages, n: number): MessageDoc[] | null {
  const docs = read.docs.filter((m) => m.role === 'user').slice(0, n);
  return docs.length === n || read.complete ? docs : null;
}

/**
 * The latest reply that `match` accepts: the doc, `undefined` when the session has none, or
 * null when the read cannot tell.
 */
export function latestReply(read: SessionMessages, match: (m: MessageDoc) => boolean): MessageDoc | undefined | null {
  const found = read.docs.find((m) => m.role === 'assistant' && match(m));
  return found ?? (read.complete ? undefined : null);
}

/**
 * The session's turn before this one: the turn of its latest message that is not this turn's
 * (every turn records the author's message when it opens). `undefined` when there is none,
 * null when the read cannot tell.
 */
export function previousTurnId(read: SessionMessages, turnId: string): string | undefined | null {
  // A job's closing message stands in its session under the job's id, not a turn's.
  const found = read.docs.find((m) => m.turnId !== turnId && !m.key?.startsWith('job:'));
  return found ? found.turnId : read.complete ? undefined : null;
}
