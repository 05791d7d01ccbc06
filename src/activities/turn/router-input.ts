/**
 * The router's user message: the author's message
 * plus, when there is a previous assistant message, its last 600 characters with a
 * status-card summary and the previous routing as one line of JSON.
 *
 * Its reads (the session's last reply, a scan on FerretDB v1, and that reply's turn) sit
 * before the router's model call, on the path to the first token. `prepareTurn` starts them
 * (early-reads.ts), with the session's messages it read anyway (session-messages.ts); the
 * router takes them once if it runs in the same worker, otherwise (another worker, a retry)
 * it reads anew. They depend only on what was stored before the turn started, so early or
 * late they read the same.
 */
import type { Models, TurnDoc } from '../../db/models';
import { lastQuestion } from '../../core/model/file-stream';
import { tail } from '../../core/text';
import { isOfferQuestion } from '../../core/words/proposals';
import { latestReply, type SessionMessages } from './session-messages';
import type { EarlyReads } from '../early-reads';

export type RouterTurn = Pick<TurnDoc, 'sessionId' | 'projectId' | 'ownerId' | 'jobId' | 'message'> & { _id: unknown };

/** `recent`: the session's messages as prepareTurn read them (session-messages.ts), if it did. */
export async function routerUserMessage(
  models: Models,
  turn: RouterTurn,
  recent?: Promise<SessionMessages>,
): Promise<string> {
  const turnId = String(turn._id);
  const known = recent ? latestReply(await recent, (m) => m.turnId !== turnId) : null;
  const prevAssistant =
    known !== null
      ? known
      : await models.Message.findOne({ sessionId: turn.sessionId, role: 'assistant', turnId: { $ne: turnId } })
          .sort({ seq: -1 })
          .lean();
  if (!prevAssistant) return turn.message;
  const prevTurn = await models.Turn.findById(prevAssistant.turnId).lean();
  // Says which kind of question the author is answering (ROUTER_PROMPT: follow-up vs offered next step).
  const question = lastQuestion(prevAssistant.content);
  const asked = question ? `; closing question: ${isOfferQuestion(question) ? 'offers a next step' : 'follow-up'}` : '';
  const card = prevTurn
    ? `[status] ${prevTurn.status}${prevTurn.stopReason ? ` (${prevTurn.stopReason})` : ''}; files touched: ${prevTurn.filesTouched.length}${asked}`
    : '';
  return [
    '[previous assistant ending]',
    tail(prevAssistant.content, 600),
    card,
    '[previous routing]',
    JSON.stringify(prevTurn?.routing ?? null),
    '[user message]',
    turn.message,
  ]
    .filter(Boolean)
    .join('\n');
}

/** What the router is called with: its turn, and its user message. */
export interface RouterInput {
  turn: RouterTurn;
  message: string;
}

/**
 * Starts the router's reads for this turn (not awaited; a failure leaves the router to read
 * itself), kept in `early`, this worker's router reads (worker-caches.ts).
 */
export function prefetchRouterInput(
  models: Models,
  early: EarlyReads<RouterInput>,
  turn: RouterTurn,
  recent: Promise<SessionMessages>,
): void {
  early.start(
    String(turn._id),
    routerUserMessage(models, turn, recent).then((message) => ({ turn, message })),
  );
}

/** The turn and the router's message: started earlier in this worker (taken once from `early`), or read now. */
export function routerInput(
  models: Models,
  early: EarlyReads<RouterInput>,
  turnId: string,
  readTurn: () => Promise<RouterTurn | null>,
): Promise<RouterInput | null> {
  return early.take(turnId, async () => {
    const turn = await readTurn();
    return turn ? { turn, message: await routerUserMessage(models, turn) } : null;
  });
}
