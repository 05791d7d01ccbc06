/**
 * The author's side of an approval (SPEC §8, issue 29): a decision sent to the waiting turn
 * as a Temporal Update, which the workflow validates (a decided or expired approval is a
 * 409), and the session's next message read as that decision when it is a plain yes or no.
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { TurnDoc } from '../db/models';
import { isRefusal } from '../core/answers';
import { decideApprovalUpdate } from '../core/messages';
import { isConfirmation, isUnclearAnswer } from '../core/proposals';
import type { AppDeps } from './context';
import { ConflictError } from './errors';

export type Decision = 'approve' | 'deny';

/** Sends the decision to the turn; 409 when nothing with that id is pending there any more. */
export async function decideApproval(deps: Pick<AppDeps, 'temporal'>, turn: Pick<TurnDoc, 'workflowId' | 'status'>, approvalId: string, decision: Decision) {
  try {
    return await deps.temporal.workflow.getHandle(turn.workflowId).executeUpdate(decideApprovalUpdate, { args: [{ approvalId, decision }] });
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError || err instanceof WorkflowNotFoundError)
      throw new ConflictError(`approval ${approvalId} is not pending: it was decided or it expired`, { approvalId, status: turn.status }, 'approval_not_pending');
    throw err;
  }
}

/**
 * How the session's next message answers a pending approval: yes, no, or not at all (a new
 * request: a no, then the request). Only a plain yes approves: "ok?", "嗯……" or "maybe" is a no.
 */
export function decisionInMessage(message: string): Decision | 'new_request' {
  if (isConfirmation(message)) return 'approve';
  if (isRefusal(message) || isUnclearAnswer(message)) return 'deny';
  return 'new_request';
}
