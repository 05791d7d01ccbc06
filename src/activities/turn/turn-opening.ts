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

export function createTurnOpeningActivities(deps: ActivityDeps) {
  const { models } = deps;
  return {
    /** Publishes `turn_started` in the workflow's first slot, and on the session's feed (with the job it writes for, if any). */
    /**
     * `jobId` comes from the workflow's input (null: not a job's turn); a workflow started
     * before it was passed leaves it out, and the Turn is read for it.
     */
    async announceTurn(input: {
      turnId: string;
      sessionId: string;
      slot: number;
      jobId?: string | null;
    }): Promise<void> {
      await deps.faults?.pause?.('turn.announce', { turnId: input.turnId });
      // The turn's stream and the session's feed are independent writes: together.
      const jobId =
        input.jobId !== undefined
          ? Promise.resolve(input.jobId)
          : models.Turn.findById(input.turnId)
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
    },

    /**
     * Answers without a model and records it as the turn's reply: a noise message with one
     * friendly question (in the session's language: the noise itself has none), a declined
     * offer with an acknowledgement, a run-control command with what it did (`direct`).
     */
    async answerNoise(input: {
      turnId: string;
      slot: number;
      kind?: 'noise' | 'declined' | 'direct';
      text?: string;
      offer?: JobOffer;
    }): Promise<string> {
      const turn = await models.Turn.findById(input.turnId).lean();
      if (!turn) throw new Error(`turn ${input.turnId} not found`);
      const kind = input.kind ?? 'noise';
      const earlier = await models.Message.find({
        sessionId: turn.sessionId,
        role: 'user',
        turnId: { $ne: input.turnId },
      })
        .sort({ seq: -1 })
        .limit(10)
        .lean();
      // The session's language: its substantive messages, then this one ("no thanks" keeps a Chinese session Chinese).
      const ui = turn.uiLanguage === 'zh' || turn.uiLanguage === 'en' ? turn.uiLanguage : null;
      const language = sessionLanguage(
        [...earlier.reverse().map((m) => m.content), ...(kind === 'noise' ? [] : [turn.message])],
        ui,
      );
      const text =
        kind === 'direct' ? (input.text ?? '') : (kind === 'declined' ? DECLINED_REPLY : NOISE_REPLY)[language];
      await publisherFor(deps, 'turn', input.turnId, input.slot).publish([
        draft('content', { delta: text }, { turnId: input.turnId, agent: 'router' }),
      ]);
      const key = `${input.turnId}:${kind}`;
      if (!(await models.Message.exists({ key }))) {
        const seq = (await reserveMessageSeqs(models, turn.sessionId, 1)) ?? 0;
        await insertOnce(models.Message, {
          sessionId: turn.sessionId,
          projectId: turn.projectId,
          turnId: input.turnId,
          role: 'assistant',
          agent: 'router',
          content: text,
          seq,
          key,
        });
      }
      // A job command asked about: the next turn's plain yes runs it (the turn's own record; a retry sets the same).
      if (input.offer) await models.Turn.updateOne({ _id: input.turnId }, { $set: { offer: input.offer } });
      return text;
    },
  };
}
