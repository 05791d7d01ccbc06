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

/** An OpenAI-compatible `usage` object as ours (a missing total is the sum of the parts). */
export function usageFromProvider(u: { prompt_tokens?: number | null; completion_tokens?: number | null; total_tokens?: number | null }): Usage {
  const promptTokens = u.prompt_tokens ?? 0;
  const completionTokens = u.completion_tokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: u.total_tokens ?? promptTokens + completionTokens };
}
