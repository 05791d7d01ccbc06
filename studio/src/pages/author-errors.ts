/**
 * What a failed call on the manuscript means, in the author's words: the API's stable error
 * code picks the sentence (its own message is English and written for developers).
 */
import { ApiError } from '../api';
import type { Dict } from '../i18n';

const BY_CODE: Record<string, keyof Dict> = {
  job_writing: 'errJobWriting',
  project_busy: 'errProjectBusy',
  not_found: 'errNotFound',
  not_deleted: 'errNotDeleted',
  validation_failed: 'errInvalid',
  bad_request: 'errInvalid',
  rate_limited: 'errBusy',
};

export function authorError(e: unknown, t: Dict): string {
  if (e instanceof ApiError) {
    if (e.status === 401) return t.errSignedOut;
    const key = BY_CODE[e.code];
    if (key) return t[key];
    return e.status >= 500 ? t.errServer : t.errGeneric;
  }
  // fetch itself failed: no answer from the server.
  return t.errOffline;
}
