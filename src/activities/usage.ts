import type { UsageData } from '../core/events';
import { costUsd, priceOf, type PriceTable } from '../core/prices';
import { type ProviderUsage, usageDetailsFromProvider, usageFromProvider } from '../core/usage';
import type { Models } from '../db/models';

/** A call's usage with its cost by the price table (null cost: the model has no price). */
export function priced(prices: PriceTable, u: Omit<UsageData, 'costUsd'>): UsageData {
  return { ...u, costUsd: costUsd(priceOf(prices, u.model), u) };
}

/** What a provider reported for one call: counts, cached and reasoning tokens, cost. */
export function providerUsage(prices: PriceTable, raw: ProviderUsage, model: string): UsageData {
  const details = usageDetailsFromProvider(raw);
  return priced(prices, { ...usageFromProvider(raw), ...details, source: 'provider', model });
}

interface TurnOwner {
  sessionId: string;
  projectId: string;
  ownerId: string;
  jobId?: string | null;
}

/**
 * One usage record per model call, however often the activity ran: the record's _id is
 * the call's key (`turnId:step`, `turnId:router`), inserted only once.
 */
export async function recordUsage(
  models: Models,
  key: string,
  turnId: string,
  turn: TurnOwner,
  agent: string,
  step: number,
  usage: UsageData,
): Promise<void> {
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
        cachedPromptTokens: usage.cachedPromptTokens ?? 0,
        reasoningTokens: usage.reasoningTokens ?? 0,
        costUsd: usage.costUsd ?? null,
        priced: usage.costUsd !== null && usage.costUsd !== undefined,
        source: usage.source,
      },
    },
    { upsert: true },
  );
}
