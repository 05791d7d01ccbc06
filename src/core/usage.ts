/**
 * Token counts of model calls: one shape, made from a provider's answer and added up the same
 * way everywhere (a step, a turn, a job, the usage API). Pure module.
 */

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export const zeroUsage = (): Usage => ({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });

export const addUsage = (a: Usage, b: Usage): Usage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  totalTokens: a.totalTokens + b.totalTokens,
});

/**
 * Usage with what it cost, as the usage API reports it. A shape of its own: `Usage` travels
 * in turn and job workflow state and outcomes, which stay as they are.
 */
export interface CostedUsage extends Usage {
  /** Prompt tokens the provider served from its prefix cache (part of promptTokens). */
  cachedPromptTokens: number;
  /** USD by the price table (MODEL_PRICES) of every priced call. */
  costUsd: number;
}

export const zeroCostedUsage = (): CostedUsage => ({ ...zeroUsage(), cachedPromptTokens: 0, costUsd: 0 });

/** The sum; USD in nano-dollars, as each usage record is, so a sum stays free of floating noise. */
export const addCostedUsage = (a: CostedUsage, b: CostedUsage): CostedUsage => ({
  ...addUsage(a, b),
  cachedPromptTokens: a.cachedPromptTokens + b.cachedPromptTokens,
  costUsd: Math.round((a.costUsd + b.costUsd) * 1e9) / 1e9,
});

/** What a provider says beyond the counts: prompt tokens served from its prefix cache, reasoning tokens. */
export interface UsageDetails {
  cachedPromptTokens: number;
  reasoningTokens: number;
}

/** A provider's usage object, as OpenAI and DeepSeek send it (the fields each may add). */
export interface ProviderUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  /** OpenAI. */
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** DeepSeek. */
  prompt_cache_hit_tokens?: number | null;
}

/** Cached and reasoning tokens from either provider's fields (0 when not given). */
export function usageDetailsFromProvider(u: ProviderUsage): UsageDetails {
  return {
    cachedPromptTokens: u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? 0,
    reasoningTokens: u.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

/** An OpenAI-compatible `usage` object as ours (a missing total is the sum of the parts). */
export function usageFromProvider(u: ProviderUsage): Usage {
  const promptTokens = u.prompt_tokens ?? 0;
  const completionTokens = u.completion_tokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: u.total_tokens ?? promptTokens + completionTokens };
}
