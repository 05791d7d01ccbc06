/**
 * Signals, queries and search attributes of the turn and job workflows. Node-free:
 * the API imports it to signal and query, the workflows to handle.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { ApprovalVerdict, TurnState } from './turn-types';

export const interruptSignal = defineSignal<[{ reason?: string }]>('interrupt');
export const steerSignal = defineSignal<[{ message: string }]>('steer');
export const stateQuery = defineQuery<TurnState>('state');

/** The author's answer to a pending approval (`POST /turns/:turnId/approvals/:approvalId`). */
export interface ApprovalAnswer {
  approvalId: string;
  decision: 'approve' | 'deny';
}
/** Rejected (by its validator) when no approval with that id is pending: it was decided, or it expired. */
export const decideApprovalUpdate = defineUpdate<{ approvalId: string; decision: ApprovalVerdict }, [ApprovalAnswer]>(
  'decideApproval',
);

/** Custom search attributes (registered by scripts/services.sh at dev-server start). */
export const SA = {
  ProjectId: defineSearchAttributeKey('ProjectId', SearchAttributeType.KEYWORD),
  SessionId: defineSearchAttributeKey('SessionId', SearchAttributeType.KEYWORD),
  WorkflowPlan: defineSearchAttributeKey('WorkflowPlan', SearchAttributeType.KEYWORD),
  CurrentAgent: defineSearchAttributeKey('CurrentAgent', SearchAttributeType.KEYWORD),
  TurnStatus: defineSearchAttributeKey('TurnStatus', SearchAttributeType.KEYWORD),
  JobStatus: defineSearchAttributeKey('JobStatus', SearchAttributeType.KEYWORD),
  Chapter: defineSearchAttributeKey('Chapter', SearchAttributeType.INT),
} as const;
