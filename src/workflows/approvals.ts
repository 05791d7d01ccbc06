/**
 * Asking the author before deleting or wholly rewriting a file they wrote:
 * the call that needs it answered `approval_required` and left no trace; the turn publishes
 * `approval_requested`, shows `awaiting_approval` (TurnStatus, the state query), and waits
 * durably — a worker may die meanwhile — for the `decideApproval` update, an interrupt (a
 * no) or APPROVAL_WAIT_SECONDS (a no). Then it runs the call again with the decision, whose
 * result is the one the agent, the transcript and the stream get. One approval at a time.
 */
import { condition, upsertSearchAttributes } from '@temporalio/workflow';
import type { ApprovalRequest, ApprovalVerdict, ToolInput, ToolOutcome } from '../core/turn/turn-types';
import type { TurnActivities } from './activities-proxy';
import { SA } from '../core/turn/messages';
import type { TurnRunState } from './turn-state';

const DEFAULT_WAIT_SECONDS = 900;

/** Deterministic and readable: the same call asks with the same id on replay. */
export const approvalIdOf = (step: number, toolCallId: string): string =>
  `s${step}-${toolCallId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40) || 'call'}`;

export async function askAuthor(
  st: TurnRunState,
  acts: TurnActivities,
  toolInput: Omit<ToolInput, 'slot' | 'approval'>,
  request: ApprovalRequest,
  label: string,
): Promise<ToolOutcome> {
  const approvalId = approvalIdOf(toolInput.step, toolInput.toolCallId);
  const waitSeconds = st.input.settings.approvalWaitSeconds ?? DEFAULT_WAIT_SECONDS;
  const approval = { ...request, approvalId, toolCallId: toolInput.toolCallId, step: toolInput.step };
  st.apply({ type: 'approvalAsked', approval });
  await acts.store.requestApproval({
    turnId: st.input.turnId,
    approval,
    waitSeconds,
    slot: st.nextSlot(),
  });
  upsertSearchAttributes([{ key: SA.TurnStatus, value: 'awaiting_approval' }]);
  const answered = await condition(() => st.approvalAnswer !== null || st.interruptRequested, waitSeconds * 1000);
  const decision: ApprovalVerdict = st.interruptRequested ? 'deny' : answered ? st.approvalAnswer! : 'timeout';
  st.apply({ type: 'approvalSettled' });
  upsertSearchAttributes([{ key: SA.TurnStatus, value: 'running' }]);
  // The call again, with the decision: approved it goes ahead, otherwise the agent hears why not.
  const outcome = await acts.short.executeTool.executeWithOptions({ summary: `${label} · ${decision}` }, [
    { ...toolInput, slot: st.nextSlot(), approval: { approvalId, decision } },
  ]);
  await acts.store.approvalDecided({ turnId: st.input.turnId, approvalId, decision, slot: st.nextSlot() });
  return outcome;
}
