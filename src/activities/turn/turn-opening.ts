/**
 * The opening of a turn, ahead of any model call: the first stream event, so a
 * client never watches silence while the router thinks, and the friendly question a noise
 * message ("???", "…") gets instead of agent work. Both are idempotent by turn.
 */
import type { JobOffer } from '../../core/words/routing';
import { draft } from '../../core/events';
import { insertOnce } from '../../db/models';
import { reserveMessageSeqs } from '../../db/turn-records';
import { sessionLanguage } from '../../core/words/language';
import type { ActivityDeps } from '../deps';
import { publisherFor } from '../stream/publish';
import { feedItems, toSessionFeed } from '../stream/session-feed';

/** Deliberately not an offer of a next step: the author's answer goes to the router. */
export const NOISE_REPLY = {
  zh: '我没看懂这条消息。你想做什么呢？比如写下一章、修改某一章、规划大纲，或者聊聊你的想法。',
  en: "I couldn't tell what you'd like from that message. What should I do: write the next chapter, revise one, plan the outline, or talk an idea through?",
} as const;

/** A declined offer: acknowledged without a model call; nothing is written. */
export const DECLINED_REPLY = {
  zh: '好的，先不动。需要的时候随时告诉我。',
  en: "OK, I'll leave it as it is. Tell me whenever you want to change something.",
} as const;

type AnnounceInput = { turnId: string; sessionId: string; slot: number; jobId?: string | null };
type AnswerNoiseInput = {
  turnId: string;
  slot: number;
  kind?: 'noise' | 'declined' | 'direct';
  text?: string;
  offer?: JobOffer;
};
type ReplyKind = NonNullable<AnswerNoiseInput['kind']>;

export function createTurnOpeningActivities(deps: ActivityDeps) {
  return {
    /**
     * Publishes `turn_started` in the workflow's first slot, and on the session's feed (with the
     * job it writes for, if any). `jobId` comes from the workflow's input (null: not a job's
     * turn); a workflow started before it was passed leaves it out, and the Turn is read for it.
     */
    async announceTurn(input: AnnounceInput): Promise<void> {
      return announceTurn(deps, input);
    },

    /**
     * Answers without a model and records it as the turn's reply: a noise message with one
     * friendly question (in the session's language: the noise itself has none), a declined
     * offer with an acknowledgement, a run-control command with what it did (`direct`).
     */
    async answerNoise(input: AnswerNoiseInput): Promise<string> {
      return answerNoise(deps, input);
    },
  };
}

async function announceTurn(deps: ActivityDeps, input: AnnounceInput): Promise<void> {
  await deps.faults?.pause?.('turn.announce', { turnId: input.turnId });
  // The turn's stream and the session's feed are independent writes: together.
  const jobId =
    input.jobId !== undefined
      ? Promise.resolve(input.jobId)
      : deps.models.Turn.findById(input.turnId)
          .select({ jobId: 1 })
          .lean()
          .exec()
          .then((t) => t?.jobId);
  await Promise.all([
    publisherFor(deps, 'turn', input.turnId, input.slot).publish([
      draft('turn_started', { sessionId: input.sessionId }, { turnId: input.turnId }),
    ]),
    jobId.then((id) =>
      toSessionFeed(deps, input.sessionId, [
        feedItems.turnStarted({ turnId: input.turnId, sessionId: input.sessionId, jobId: id }),
      ]),
    ),
  ]);
}

type OpeningTurn = { sessionId: string; projectId: string; message: string; uiLanguage?: string | null };

/** The session's language: its substantive messages, then this one ("no thanks" keeps a Chinese session Chinese). */
async function replyLanguage(
  models: ActivityDeps['models'],
  turn: OpeningTurn,
  turnId: string,
  kind: ReplyKind,
): Promise<'zh' | 'en'> {
  const earlier = await models.Message.find({
    sessionId: turn.sessionId,
    role: 'user',
    turnId: { $ne: turnId },
  })
    .sort({ seq: -1 })
    .limit(10)
    .lean();
  const ui = turn.uiLanguage === 'zh' || turn.uiLanguage === 'en' ? turn.uiLanguage : null;
  return sessionLanguage([...earlier.reverse().map((m) => m.content), ...(kind === 'noise' ? [] : [turn.message])], ui);
}

/** The reply as the turn's message in its session, once (keyed by turn and kind). */
async function recordReply(
  models: ActivityDeps['models'],
  turn: OpeningTurn,
  turnId: string,
  kind: ReplyKind,
  text: string,
): Promise<void> {
  const key = `${turnId}:${kind}`;
  if (!(await models.Message.exists({ key }))) {
    const seq = (await reserveMessageSeqs(models, turn.sessionId, 1)) ?? 0;
    await insertOnce(models.Message, {
      sessionId: turn.sessionId,
      projectId: turn.projectId,
      turnId,
      role: 'assistant',
      agent: 'router',
      content: text,
      seq,
      key,
    });
  }
}

async function answerNoise(deps: ActivityDeps, input: AnswerNoiseInput): Promise<string> {
  const { models } = deps;
  const turn = await models.Turn.findById(input.turnId).lean();
  if (!turn) throw new Error(`turn ${input.turnId} not found`);
  const kind = input.kind ?? 'noise';
  const language = await replyLanguage(models, turn, input.turnId, kind);
  const text = kind === 'direct' ? (input.text ?? '') : (kind === 'declined' ? DECLINED_REPLY : NOISE_REPLY)[language];
  await publisherFor(deps, 'turn', input.turnId, input.slot).publish([
    draft('content', { delta: text }, { turnId: input.turnId, agent: 'router' }),
  ]);
  await recordReply(models, turn, input.turnId, kind, text);
  // A job command asked about: the next turn's plain yes runs it (the turn's own record; a retry sets the same).
  if (input.offer) await models.Turn.updateOne({ _id: input.turnId }, { $set: { offer: input.offer } });
  return text;
}
