import { ApplicationFailure } from '@temporalio/common';
import OpenAI from 'openai';
import { FailureType } from '../../core/failure-types';

/** A provider asking for longer than this is retried after this long (the attempt is not wasted waiting forever). */
export const MAX_PROVIDER_RETRY_DELAY_MS = 5 * 60_000;

/**
 * The back-off a provider asked for, in ms: `retry-after-ms` (OpenAI's, fractional ms),
 * else `retry-after` as seconds or an HTTP date (RFC 9110). Null when absent or unusable.
 */
export function providerRetryDelayMs(headers: Pick<Headers, 'get'> | undefined, now = Date.now()): number | null {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms)) && Number(ms) >= 0)
    return Math.min(Math.ceil(Number(ms)), MAX_PROVIDER_RETRY_DELAY_MS);
  const after = headers?.get('retry-after')?.trim();
  if (!after) return null;
  const seconds = /^\d+(\.\d+)?$/.test(after) ? Number(after) * 1000 : Date.parse(after) - now;
  if (!Number.isFinite(seconds) || seconds < 0) return null;
  return Math.min(Math.ceil(seconds), MAX_PROVIDER_RETRY_DELAY_MS);
}

/**
 * Temporal owns retries (the client runs with maxRetries: 0). A request the provider
 * rejects as malformed will fail the same way again: non-retryable. Rate limits, server
 * errors, timeouts and dropped connections are worth another attempt: rethrown as is —
 * unless the provider said when to come back (429/503 with `Retry-After`), then the next
 * attempt waits exactly that long (`nextRetryDelay`) instead of the fixed schedule, which
 * would either hammer a provider that asked for a minute or idle after a 1 s hint.
 */
export function classifyLlmError(err: unknown): unknown {
  if (err instanceof OpenAI.APIUserAbortError) return err;
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    const status = err.status;
    if (status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429) {
      return ApplicationFailure.nonRetryable(
        `model rejected the request (${status}): ${err.message}`,
        FailureType.LlmBadRequest,
      );
    }
    const delay = status === 429 || status === 503 ? providerRetryDelayMs(err.headers) : null;
    if (delay !== null)
      return ApplicationFailure.create({
        message: `model ${status === 429 ? 'rate limited' : 'unavailable'} (${status}); retrying in ${delay} ms as the provider asked: ${err.message}`,
        type: status === 429 ? FailureType.LlmRateLimited : FailureType.LlmUnavailable,
        nextRetryDelay: delay,
      });
  }
  return err;
}
