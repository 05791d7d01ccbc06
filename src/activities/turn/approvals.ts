/**
 * The records and events of an approval (workflows/approvals.ts runs the wait): the turn
 * shows `awaiting_approval` with the pending request (so `GET /turns/:id`, a reloaded
 * client and the session's next message see it), `approval_requested` and
 * `approval_decided` go out on the turn's stream and the session's feed. Idempotent by turn
 * and slot (the feed: by turn and approval).
 */
import { draft } from '../../core/events';
import type { ApprovalVerdict, PendingApproval } from '../../core/turn/turn-types';
import type { ActivityDeps } from '../deps';
import { publisherFor } from '../stream/publish';
import { notFound } from '../failures';
import { feedItems, toSessionFeed } from '../stream/session-feed';
import { quiet } from '../../core/quiet';

export function createApprovalActivities(deps: ActivityDeps) {
  const { models } = deps;
  /** The session (and job) the turn belongs to, for its feed. */
  const turnOf = async (turnId: string) => {
    const t = await models.Turn.findById(turnId).select({ sessionId: 1, jobId: 1 }).lean();
    if (!t) throw notFound('Turn', turnId);
    return { turnId, sessionId: t.sessionId, jobId: t.jobId };
  };
  return {
    async requestApproval(input: {
      turnId: string;
      approval: PendingApproval;
      waitSeconds: number;
      slot: number;
    }): Promise<void> {
      const a = input.approval;
      const expiresAt = new Date(deps.clock().getTime() + input.waitSeconds * 1000).toISOString();
      const turn = quiet(turnOf(input.turnId));
      await models.Turn.updateOne(
        { _id: input.turnId },
        { $set: { status: 'awaiting_approval', pendingApproval: { ...a, expiresAt } } },
      );
      const event = draft(
        'approval_requested',
        {
          approvalId: a.approvalId,
          fileId: a.fileId,
          title: a.title,
          action: a.action,
          files: a.files,
          preview: a.preview,
          expiresAt,
          ...(a.change ? { change: a.change } : {}),
          ...(a.excerpt !== undefined ? { excerpt: a.excerpt } : {}),
        },
        { turnId: input.turnId, step: a.step, toolCallId: a.toolCallId },
      );
      await publisherFor(deps, 'turn', input.turnId, input.slot).publish([event]);
      await toSessionFeed(deps, (await turn).sessionId, [feedItems.approval(await turn, a.approvalId, event)]);
    },

    async approvalDecided(input: {
      turnId: string;
      approvalId: string;
      decision: ApprovalVerdict;
      slot: number;
    }): Promise<void> {
      await models.Turn.updateOne(
        { _id: input.turnId, status: 'awaiting_approval' },
        { $set: { status: 'running', pendingApproval: null } },
      );
      const event = draft(
        'approval_decided',
        { approvalId: input.approvalId, decision: input.decision },
        { turnId: input.turnId },
      );
      await publisherFor(deps, 'turn', input.turnId, input.slot).publish([event]);
      const turn = await turnOf(input.turnId);
      await toSessionFeed(deps, turn.sessionId, [feedItems.approval(turn, input.approvalId, event)]);
    },
  };
}
