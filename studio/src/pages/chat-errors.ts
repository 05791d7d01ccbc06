/**
 * What went wrong in the chat, in the author's words: a refused request by what it was for
 * and its HTTP status, never the API's English message or its error code.
 */
import { ApiError } from '../api';
import type { Dict } from '../i18n';

export type ChatAction = 'send' | 'steer' | 'stop' | 'decide' | 'sessions';

export function chatError(t: Dict, action: ChatAction, e: unknown): string {
  if (!(e instanceof ApiError)) return t.err_offline;
  if (e.status === 409)
    return action === 'send'
      ? t.err_busy
      : action === 'decide'
        ? t.err_decided
        : action === 'steer' || action === 'stop'
          ? t.err_ended
          : t.err_other;
  if (e.status === 429) return t.err_rate;
  if (e.status === 413) return t.err_too_long;
  if (e.status === 404) return t.err_gone;
  if (e.status === 400 && action === 'send') return t.err_too_long;
  return t.err_other;
}
