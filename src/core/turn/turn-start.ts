/**
 * How a turn workflow is started, for the API and for a job's chapters alike: its id (from
 * our own ids), its input, the search attributes Temporal UI filters
 * on, its summary. Callers add only what is theirs (eager start, memo; a child's policies).
 * Pure module.
 */
import type { Duration } from '@temporalio/common';
import { turnWorkflowId } from '../domain';
import { SA } from './messages';
import type { TurnInput } from './turn-types';

/** How long a workflow task of a turn may run on a silent worker before another worker takes it. */
export const TURN_WORKFLOW_TASK_TIMEOUT: Duration = '4s';

export function turnStartOptions(input: TurnInput, summary: string) {
  return {
    workflowId: turnWorkflowId(input.turnId),
    args: [input] as [TurnInput],
    typedSearchAttributes: [
      { key: SA.ProjectId, value: input.projectId },
      { key: SA.SessionId, value: input.sessionId },
      { key: SA.TurnStatus, value: 'running' },
    ],
    staticSummary: summary,
    // A worker that dies while it holds a workflow task (the router's call, the saves and the
    // next step's opening run as local activities inside it) is noticed only when the task
    // times out: 4 s instead of Temporal's 10 keeps a turn's silence after a crash near 5 s.
    // Longer local activities keep the task alive by heartbeat, so this bounds no step.
    workflowTaskTimeout: TURN_WORKFLOW_TASK_TIMEOUT,
  };
}
