import type { UsageData } from '../core/events';
import type { Models } from '../db/models';

interface TurnOwner {
  sessionId: string;
  projectId: string;
  ownerId: string;
  jobId?: string | null;
}

/**
 * One usage record per model call, however often the activity ran: the record's _id is
 * the call's key (`turnId:step`, `turnId:router`), inserted only once (seed 002, invariant 3).
 */
export async function recordUsage(models: Models, key: string, turnId: string, turn: TurnOwner, agent: string, step: number, usage: UsageData): Promise<void> {
  await models.UsageRecord.updateOne(
    { _id: key },
    {
      $setOnInsert: {
        turnId,
        sessionId: turn.sessionId,
        projectId: turn.projectId,
        ownerId: turn.ownerId,
        jobId: turn.jobId ?? null,
        agent,
        step,
        model: usage.model,
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
        totalTokens: usage.totalTokens,
        source: usage.source,
      },
    },
    { upsert: true },
  );
}
