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
import type { MessageDoc, Models } from '../db/models';

/** Messages of the context's chat history (seed 001: the latest 200). */
export const HISTORY_MESSAGES = 200;

export interface SessionMessages {
  /** Newest first; this turn's own message included. */
  docs: MessageDoc[];
  /** The read holds the whole session (it was not cut at its limit). */
  complete: boolean;
}

/**
 * How far below the session's latest sequence number the first read looks: the messages it
 * needs plus room for a few numbers that were reserved and never used (a retried write).
 */
export const SEQ_WINDOW = HISTORY_MESSAGES + 1 + 20;

/** The latest messages: enough for the history after this turn's own message is set aside. */
export async function readSessionMessages(models: Models, sessionId: string): Promise<SessionMessages> {
  const limit = HISTORY_MESSAGES + 1;
  // Only a shortcut: a session id that is not an ObjectId (tests, older data) or a failed read falls back to reading the session whole.
  const session = await models.Session.findById(sessionId).select({ messageSeq: 1 }).lean().catch(() => null);
  const latest = session?.messageSeq ?? 0;
  // A long session is read by its latest sequence numbers first: on our local server only those
  // messages are then decoded (it answers a seq range in SQLite), not the session's whole
  // history (accumulated bench: ~70 ms on the way to the first token). When the window holds
  // all `limit` messages wanted they are the latest; otherwise (unused numbers), read as before.
  if (latest > SEQ_WINDOW) {
    const docs = await latestMessages(models, { sessionId, seq: { $gt: latest - SEQ_WINDOW } }, limit);
    if (docs.length === limit) return { docs, complete: false };
  }
  const docs = await latestMessages(models, { sessionId }, limit);
  return { docs, complete: docs.length < limit };
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
  const found = read.docs.find((m) => m.turnId !== turnId);
  return found ? found.turnId : read.complete ? undefined : null;
}
