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

/** The latest messages: enough for the history after this turn's own message is set aside. */
export async function readSessionMessages(models: Models, sessionId: string): Promise<SessionMessages> {
  const limit = HISTORY_MESSAGES + 1;
  // All in the first batch: the driver's default (101) cost a getMore round trip.
  const docs = await models.Message.find({ sessionId }).sort({ seq: -1 }).limit(limit).batchSize(limit).lean();
  return { docs, complete: docs.length < limit };
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
