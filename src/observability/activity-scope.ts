/**
 * What the running activity is, for code that cannot be handed it: the model client's
 * fetch (metrics by agent) and the logger's mixin (workflow and activity ids on every
 * line). Set by the activity interceptor around each activity attempt.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface ActivityScope {
  workflowId: string;
  runId: string;
  activityId: string;
  activityType: string;
  attempt: number;
  /** The agent an LLM step runs for; `router` for the routing call. */
  agent?: string;
  turnId?: string;
}

export const activityScope = new AsyncLocalStorage<ActivityScope>();
