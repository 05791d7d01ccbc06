/**
 * The records and events of an approval (workflows/approvals.ts runs the wait): the turn
 * shows `awaiting_approval` with the pending request (so `GET /turns/:id`, a reloaded
 * client and the session's next message see it), `approval_requested` and
 * `approval_decided` go out on the turn's stream. Idempotent by turn and slot.
 */
import { draft } from '../core/events';
import type { ApprovalVerdict, PendingApproval } from '../core/turn-types';
import type { ActivityDeps } from './deps';
import { publisherFor } from './publish';

export function createApprovalActivities(deps: ActivityDeps) {
  const { models } = deps;
  return {
    async requestApproval(input: { turnId: string; approval: PendingApproval; waitSeconds: number; slot: number }): Promise<void> {
      const a = input.approval;
      const expiresAt = new Date(deps.clock().getTime() + input.waitSeconds * 1000).toISOString();
      await models.Turn.updateOne({ _id: input.turnId }, { $set: { status: 'awaiting_approval', pendingApproval: { ...a, expiresAt } } });
      await publisherFor(deps, 'turn', input.turnId, input.slot).publish([
        draft(
          'approval_requested',
          { approvalId: a.approvalId, fileId: a.fileId, title: a.title, action: a.action, files: a.files, preview: a.preview, expiresAt },
          { turnId: input.turnId, step: a.step, toolCallId: a.toolCallId },
        ),
      ]);
    },

    async approvalDecided(input: { turnId: string; approvalId: string; decision: ApprovalVerdict; slot: number }): Promise<void> {
      await models.Turn.updateOne(
        { _id: input.turnId, status: 'awaiting_approval' },
        { $set: { status: 'running', pendingApproval: null } },
      );
      await publisherFor(deps, 'turn', input.turnId, input.slot).publish([
        draft('approval_decided', { approvalId: input.approvalId, decision: input.decision }, { turnId: input.turnId }),
      ]);
    },
  };
}
