/**
 * Whether a workflow is still running, for callers that must tell a dead lock holder from a
 * live one (the API's session lock and job claim, the job's chapter turns).
 */
import { type Client, type WorkflowExecutionStatusName, WorkflowNotFoundError } from '@temporalio/client';

const CLOSED: readonly WorkflowExecutionStatusName[] = [
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'TERMINATED',
  'TIMED_OUT',
  'CONTINUED_AS_NEW',
];

/**
 * True while the workflow exists and has not closed. A Temporal that cannot answer counts as
 * running: wrongly keeping a lock costs a 409, wrongly clearing one would run two turns at once.
 */
export async function workflowRunning(temporal: Pick<Client, 'workflow'>, workflowId: string): Promise<boolean> {
  try {
    const d = await temporal.workflow.getHandle(workflowId).describe();
    return !CLOSED.includes(d.status.name);
  } catch (err) {
    return !(err instanceof WorkflowNotFoundError);
  }
}
