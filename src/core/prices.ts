/**
 * What model calls cost in money. Prices are per million tokens (input, cached input,
 * output), by model name; `MODEL_PRICES` (JSON) overrides or adds to the defaults below. A
 * model with no price gets no cost (null), never a made-up zero. Pure module.
 */
import { z } from 'zod';

export const modelPriceSchema = z
  .object({
    /** USD per million prompt tokens the provider did not serve from its cache. */
    input: z.number().nonnegative(),
    /** USD per million prompt tokens served from the provider's prefix cache (absent: `input`). */
    cachedInput: z.number().nonnegative().optional(),
    /** USD per million completion tokens (reasoning included). */
    output: z.number().nonnegative(),
  })
  .strict();
export type ModelPrice = z.infer<typeof modelPriceSchema>;
export type PriceTable = Record<string, ModelPrice>;

/**
 * Published list prices (USD per million tokens) of common models when this table was
 * written; providers change them — set MODEL_PRICES to your contract's. The offline model is
 * free: its cost shows the arithmetic, not a bill.
 */
export const DEFAULT_MODEL_PRICES: PriceTable = {
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'deepseek-chat': { input: 0.28, cachedInput: 0.028, output: 0.42 },
  'deepseek-reasoner': { input: 0.28, cachedInput: 0.028, output: 0.42 },
  'scriptorium-offline': { input: 0, cachedInput: 0, output: 0 },
};

/** The price table: the defaults with MODEL_PRICES (a JSON object of model → price) over them. */
export function priceTable(json: string | undefined): PriceTable {
  if (!json?.trim()) return { ...DEFAULT_MODEL_PRICES };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error(
      'MODEL_PRICES must be JSON: {"<model>": {"input": 2.5, "cachedInput": 1.25, "output": 10}} in USD per million tokens',
    );
  }
  const table = z.record(z.string().min(1), modelPriceSchema).safeParse(parsed);
  if (!table.success)
    throw new Error(
      `MODEL_PRICES: ${table.error.issues.map((i) => `${i.path.join('.') || '(value)'}: ${i.message}`).join('; ')}`,
    );
  return { ...DEFAULT_MODEL_PRICES, ...table.data };
}

/** A model's price: exact name first, then the longest known name it starts with ("gpt-4o-2024-08-06" → gpt-4o). */
export function priceOf(table: PriceTable, model: string): ModelPrice | null {
  if (table[model]) return table[model]!;
  const prefix = Object.keys(table)
    .filter((name) => model.startsWith(`${name}-`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? table[prefix]! : null;
}

/** USD of one call; cached prompt tokens at the cached price. Null when the model has no price. */
export function costUsd(
  price: ModelPrice | null,
  u: { promptTokens: number; completionTokens: number; cachedPromptTokens?: number },
): number | null {
  if (!price) return null;
  const cached = Math.min(u.cachedPromptTokens ?? 0, u.promptTokens);
  const usd =
    ((u.promptTokens - cached) * price.input +
      cached * (price.cachedInput ?? price.input) +
      u.completionTokens * price.output) /
    1e6;
  // Nano-dollars: exact for any call, and sums of many stay free of floating noise in the API.
  return Math.round(usd * 1e9) / 1e9;
}
