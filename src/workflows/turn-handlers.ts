/**
 * The turn's messages from outside: the state query, steering, interrupt, and the
 * author's answer to a pending approval. Handlers only apply a change to the run state; the
 * turn's loop reads it at its next step, so a message never races an activity.
 */
import { setHandler } from '@temporalio/workflow';
import { decideApprovalUpdate, interruptSignal, stateQuery, steerSignal } from '../core/turn/messages';
import type { TurnRunState } from './turn-state';

/** `cancelModelCall` stops the LLM step in flight (the interrupt must not wait for it to end). */
export function installTurnHandlers(st: TurnRunState, cancelModelCall: () => void): void {
  setHandler(stateQuery, () => st.snapshot());
  setHandler(steerSignal, ({ message }) => {
    st.apply({ type: 'steered', message: message.slice(0, 4000) });
  });
  setHandler(interruptSignal, () => {
    st.apply({ type: 'interruptRequested' });
    cancelModelCall();
  });
  // The author's answer to the pending approval; any other id was decided or expired (409 at the API).
  setHandler(
    decideApprovalUpdate,
    ({ approvalId, decision }) => {
      st.apply({ type: 'approvalAnswered', decision });
      return { approvalId, decision };
    },
    {
      validator: ({ approvalId, decision }) => {
        if (decision !== 'approve' && decision !== 'deny')
          throw new Error(`decision must be approve or deny, not ${String(decision)}`);
        if (!st.pendingApproval || st.pendingApproval.approvalId !== approvalId || st.approvalAnswer !== null)
          throw new Error(`approval ${approvalId} is not pending: it was decided or it expired`);
      },
    },
  );
}
