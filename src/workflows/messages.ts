/**
 * Signals, queries and search attributes of the turn and job workflows. Node-free:
 * the API imports it to signal and query, the workflows to handle.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { TurnState } from '../shared/turn-types';

export const interruptSignal = defineSignal<[{ reason?: string }]>('interrupt');
export const steerSignal = defineSignal<[{ message: string }]>('steer');
export const stateQuery = defineQuery<TurnState>('state');

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
