/**
 * How a turn workflow is started, for the API and for a job's chapters alike: its id (from
 * our own ids), its input, the search attributes Temporal UI filters
 * on, its summary. Callers add only what is theirs (eager start, memo; a child's policies).
 * Pure module.
 */
import { turnWorkflowId } from '../domain';
import { SA } from './messages';
import type { TurnInput } from './turn-types';

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
  };
}
