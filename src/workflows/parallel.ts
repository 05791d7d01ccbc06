/**
 * parallel_execute in the workflow: the batch's sub-tasks run as parallel activities and
 * their results come back together, in task order, as the one tool result. Deterministic:
 * the fan-out width comes from an activity result, and Promise.all over activities
 * schedules them in index order on every replay.
 */
import type { ToolInput, ToolOutcome } from '../core/turn/turn-types';
import type { TurnActivities } from './activities-proxy';

export async function runParallelBatch(acts: TurnActivities, input: ToolInput, label: string): Promise<ToolOutcome> {
  const { count } = await acts.store.prepareParallel.executeWithOptions({ summary: `${label} · check batch` }, [input]);
  if (count > 0)
    await Promise.all(
      Array.from({ length: count }, (_, index) =>
        acts.store.runParallelTask.executeWithOptions({ summary: `${label} · task ${index + 1}/${count}` }, [
          { ...input, index },
        ]),
      ),
    );
  // Gathers what the sub-tasks stored (or reports the refusal) and publishes the one card.
  return acts.store.finishParallel.executeWithOptions({ summary: `${label} · results` }, [input]);
}
