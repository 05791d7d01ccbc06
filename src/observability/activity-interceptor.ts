/**
 * The worker's own activity interceptor: latency and failures of every activity attempt,
 * the scope (ids, agent) that logs and model metrics read, and the reviewer's verdicts.
 * Registered once in `createWorker`, so activity code carries no instrumentation.
 */
import { CancelledFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { Models } from '../db/models';
import { parseVerdict } from '../core/verdict';
import type { LlmStepInput, LlmStepResult } from '../core/turn/turn-types';
import { activityScope, type ActivityScope } from './activity-scope';
import { metrics } from './metrics';
import { stepId } from '../core/turn/record-ids';

function isCancellation(err: unknown): boolean {
  return (
    err instanceof CancelledFailure ||
    (err instanceof Error && (err.name === 'AbortError' || err.name === 'APIUserAbortError'))
  );
}

export function activityInterceptors(deps: { models: Models }): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        const info = ctx.info;
        const arg = (input.args[0] ?? {}) as { agent?: unknown; turnId?: unknown };
        const scope: ActivityScope = {
          workflowId: info.workflowExecution?.workflowId ?? '',
          runId: info.workflowExecution?.runId ?? '',
          activityId: info.activityId,
          activityType: info.activityType,
          attempt: info.attempt,
          agent: typeof arg.agent === 'string' ? arg.agent : info.activityType === 'routeTurn' ? 'router' : undefined,
          turnId: typeof arg.turnId === 'string' ? arg.turnId : undefined,
        };
        const end = metrics.activityDuration.startTimer({ activity: info.activityType });
        try {
          const result = await activityScope.run(scope, () => next(input));
          end({ outcome: 'ok' });
          if (info.activityType === 'llmStep')
            countVerdict(deps.models, input.args[0] as LlmStepInput, result as LlmStepResult);
          return result;
        } catch (err) {
          const cancelled = isCancellation(err);
          end({ outcome: cancelled ? 'cancelled' : 'error' });
          if (!cancelled)
            metrics.activityErrors.inc({
              activity: info.activityType,
              error: err instanceof Error ? err.name : 'unknown',
            });
          throw err;
        }
      },
    },
  });
}

/**
 * A reviewer step that ends without tool calls is the reviewer's closing word: its verdict
 * line is read from the saved step (the result carries only a tail). Off the activity's
 * path: a failed read costs a count, never a turn.
 */
function countVerdict(models: Models, input: LlmStepInput, result: LlmStepResult): void {
  if (input.agent !== 'quality_reviewer' || result.toolCalls.length > 0) return;
  models.AgentStep.findById(stepId(input.turnId, input.step))
    .select({ text: 1 })
    .lean()
    .then((step) => step && metrics.reviewVerdicts.inc({ verdict: parseVerdict(step.text ?? '') }))
    .catch(() => undefined);
}
