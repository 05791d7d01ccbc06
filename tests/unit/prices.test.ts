/**
 * Cost in money: both providers' cached and reasoning fields are read, a
 * price table prices each call with cached prompt tokens at the cached price, a model with
 * no price gets no cost, and bad prices stop start-up with a clear error.
 */
import { loadConfig } from '../../src/config';
import { costUsd, DEFAULT_MODEL_PRICES, priceOf, priceTable } from '../../src/core/prices';
import { usageDetailsFromProvider, usageFromProvider } from '../../src/core/usage';
import { PrefixCache } from '../../src/offline-model/prefix-cache';

describe('provider usage', () => {
  it('reads OpenAI’s cached and reasoning tokens', () => {
    const raw = {
      prompt_tokens: 2000,
      completion_tokens: 300,
      total_tokens: 2300,
      prompt_tokens_details: { cached_tokens: 1536 },
      completion_tokens_details: { reasoning_tokens: 120 },
    };
    expect(usageFromProvider(raw)).toEqual({ promptTokens: 2000, completionTokens: 300, totalTokens: 2300 });
    expect(usageDetailsFromProvider(raw)).toEqual({ cachedPromptTokens: 1536, reasoningTokens: 120 });
  });
  it('reads DeepSeek’s cache hits', () => {
    expect(
      usageDetailsFromProvider({
        prompt_tokens: 900,
        completion_tokens: 10,
        prompt_cache_hit_tokens: 640,
        prompt_cache_miss_tokens: 260,
      } as never),
    ).toEqual({ cachedPromptTokens: 640, reasoningTokens: 0 });
  });
  it('is zero when a provider says nothing', () => {
    expect(usageDetailsFromProvider({ prompt_tokens: 5, completion_tokens: 1 })).toEqual({
      cachedPromptTokens: 0,
      reasoningTokens: 0,
    });
  });
});

describe('prices', () => {
  const price = { input: 2.5, cachedInput: 1.25, output: 10 };
  it('price a call, cached prompt tokens at the cached price', () => {
    // 1,000 fresh prompt tokens at $2.50/M, 1,000 cached at $1.25/M, 500 completion at $10/M.
    expect(costUsd(price, { promptTokens: 2000, cachedPromptTokens: 1000, completionTokens: 500 })).toBe(0.00875);
    expect(
      costUsd({ input: 1, output: 2 }, { promptTokens: 1_000_000, cachedPromptTokens: 400_000, completionTokens: 0 }),
    ).toBe(1);
    expect(costUsd(price, { promptTokens: 10, cachedPromptTokens: 50, completionTokens: 0 })).toBe(0.0000125);
  });
  it('give no cost to a model with no price, never a made-up zero', () => {
    expect(
      costUsd(priceOf(DEFAULT_MODEL_PRICES, 'my-local-llama'), { promptTokens: 100, completionTokens: 100 }),
    ).toBeNull();
  });
  it('find a dated model by its family, the longest name first', () => {
    expect(priceOf(DEFAULT_MODEL_PRICES, 'gpt-4o-mini-2024-07-18')).toBe(DEFAULT_MODEL_PRICES['gpt-4o-mini']);
    expect(priceOf(DEFAULT_MODEL_PRICES, 'gpt-4o-2024-08-06')).toBe(DEFAULT_MODEL_PRICES['gpt-4o']);
  });
  it('MODEL_PRICES adds and overrides models over the defaults', () => {
    const t = priceTable(
      '{"gpt-4o": {"input": 1, "output": 4}, "qwen-max": {"input": 0.5, "cachedInput": 0.1, "output": 2}}',
    );
    expect(t['gpt-4o']).toEqual({ input: 1, output: 4 });
    expect(t['qwen-max']).toEqual({ input: 0.5, cachedInput: 0.1, output: 2 });
    expect(t['gpt-4o-mini']).toEqual(DEFAULT_MODEL_PRICES['gpt-4o-mini']);
  });
  it.each([
    ['not JSON', '{gpt-4o: 1}', /MODEL_PRICES must be JSON/],
    ['a negative price', '{"gpt-4o": {"input": -1, "output": 4}}', /MODEL_PRICES: gpt-4o\.input/],
    ['a missing output price', '{"gpt-4o": {"input": 1}}', /MODEL_PRICES: gpt-4o\.output/],
    ['an unknown key', '{"gpt-4o": {"input": 1, "output": 2, "cache": 1}}', /MODEL_PRICES: gpt-4o/],
  ])('a bad MODEL_PRICES (%s) stops start-up naming the setting', (_name, value, message) => {
    expect(() => loadConfig({ env: { SCRIPTORIUM_ENV_PRIORITY: 'none', MODEL_PRICES: value } })).toThrow(message);
  });
});

describe('the offline model’s prefix cache', () => {
  const request = (...contents: string[]) =>
    ({ messages: contents.map((content, i) => ({ role: i === 0 ? 'system' : 'user', content })) }) as never;
  const long = 'The harbour town keeps its secrets behind the sea wall. '.repeat(60);
  it('reports the start a request shares with a recent one, in 64-token blocks', () => {
    const cache = new PrefixCache();
    expect(cache.cachedTokens(request(long, 'Write chapter 1'), 800)).toBe(0);
    const second = cache.cachedTokens(request(long, 'Write chapter 2'), 800);
    expect(second % 64).toBe(0);
    expect(second).toBeGreaterThanOrEqual(704);
    expect(second).toBeLessThanOrEqual(800);
  });
  it('caches nothing for a prompt that starts differently, or shares less than a block', () => {
    const cache = new PrefixCache();
    cache.cachedTokens(request(long, 'a'), 800);
    expect(cache.cachedTokens(request(`Other system text. ${long}`, 'a'), 800)).toBe(0);
    expect(cache.cachedTokens(request('short', 'b'), 5)).toBe(0);
  });
});
