/**
 * Every activity the worker registers, built from injected dependencies
 * (samples-typescript `activities-dependency-injection`). Workflows import the
 * `Activities` type only.
 */
import type { ActivityDeps } from './deps';
import { createLlmActivities } from './llm';
import { createPublishActivities } from './publish';
import { createRouterActivities } from './router';
import { createToolActivities } from './tools';
import { createTurnLifecycleActivities } from './turn-lifecycle';

export function createActivities(deps: ActivityDeps) {
  return {
    ...createTurnLifecycleActivities(deps),
    ...createRouterActivities(deps),
    ...createLlmActivities(deps),
    ...createToolActivities(deps),
    ...createPublishActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
export type { ActivityDeps };
