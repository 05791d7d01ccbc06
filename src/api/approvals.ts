/**
 * The author's side of an approval: a decision sent to the waiting turn
 * as a Temporal Update, which the workflow validates (a decided or expired approval is a
 * 409), and the session's next message read as that decision when it is a plain yes or no.
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { TurnDoc } from '../db/models';
import { decideApprovalUpdate } from '../core/turn/messages';
import type { AppDeps } from './context';
import { ConflictError } from './errors';
import type { Decision } from '../core/words/answers';

export type { Decision };

/** Sends the decision to the turn; 409 when nothing with that id is pending there any more. */
export async function decideApproval(
  deps: Pick<AppDeps, 'temporal'>,
  turn: Pick<TurnDoc, 'workflowId' | 'status'>,
  approvalId: string,
  decision: Decision,
) {
  try {
    return await deps.temporal.workflow
      .getHandle(turn.workflowId)
      .executeUpdate(decideApprovalUpdate, { args: [{ approvalId, decision }] });
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError || err instanceof WorkflowNotFoundError)
      throw new ConflictError(
        `approval ${approvalId} is not pending: it was decided or it expired`,
        { approvalId, status: turn.status },
        'approval_not_pending',
      );
    throw err;
  }
}

export { decisionInMessage } from '../core/words/answers';
