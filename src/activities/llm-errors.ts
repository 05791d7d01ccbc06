import { ApplicationFailure } from '@temporalio/common';
import OpenAI from 'openai';

/**
 * Temporal owns retries (the client runs with maxRetries: 0). A request the provider
 * rejects as malformed will fail the same way again: non-retryable. Rate limits, server
 * errors, timeouts and dropped connections are worth another attempt: rethrown as is.
 */
export function classifyLlmError(err: unknown): unknown {
  if (err instanceof OpenAI.APIUserAbortError) return err;
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    const status = err.status;
    if (status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429) {
      return ApplicationFailure.nonRetryable(`model rejected the request (${status}): ${err.message}`, 'LlmBadRequest');
    }
  }
  return err;
}
