import { ApplicationFailure } from '@temporalio/common';
import OpenAI from 'openai';
import {
  classifyLlmError,
  MAX_PROVIDER_RETRY_DELAY_MS,
  providerRetryDelayMs,
} from '../../src/activities/step/llm-errors';

const headers = (h: Record<string, string>) => new Headers(h);
const apiError = (status: number, h: Record<string, string> = {}) =>
  OpenAI.APIError.generate(status, { message: 'nope' }, 'nope', headers(h));

describe('provider back-off', () => {
  test('retry-after-ms wins, then retry-after in seconds or as an HTTP date; junk is ignored', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(providerRetryDelayMs(headers({ 'retry-after-ms': '1500.2', 'retry-after': '9' }), now)).toBe(1501);
    expect(providerRetryDelayMs(headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(providerRetryDelayMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), now)).toBe(7000);
    expect(providerRetryDelayMs(headers({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(providerRetryDelayMs(headers({ 'retry-after': '-3' }), now)).toBeNull();
    expect(providerRetryDelayMs(headers({}), now)).toBeNull();
    expect(providerRetryDelayMs(headers({ 'retry-after': '86400' }), now)).toBe(MAX_PROVIDER_RETRY_DELAY_MS);
  });

  test('429 and 503 with a delay become retryable failures with nextRetryDelay; without one they stay as they are', () => {
    const limited = classifyLlmError(apiError(429, { 'retry-after': '3' }));
    expect(limited).toBeInstanceOf(ApplicationFailure);
    expect((limited as ApplicationFailure).nonRetryable).toBe(false);
    expect((limited as ApplicationFailure).nextRetryDelay).toBe(3000);
    expect((limited as ApplicationFailure).type).toBe('LlmRateLimited');
    expect((classifyLlmError(apiError(503, { 'retry-after-ms': '800' })) as ApplicationFailure).type).toBe(
      'LlmUnavailable',
    );
    const plain = apiError(429);
    expect(classifyLlmError(plain)).toBe(plain);
    expect((classifyLlmError(apiError(400)) as ApplicationFailure).nonRetryable).toBe(true);
  });
});
