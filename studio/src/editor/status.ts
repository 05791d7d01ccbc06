/** What the save status line says, in the author's words (never a code or an English-only string). */
import { fmt, type Dict, type Lang } from '../i18n';
import type { SaveFailure, SaveState } from './autosave';

/** Something the page did that the status line reports until the author types again. */
export type Note = { kind: 'restored'; from: number; version: number } | { kind: 'draftRestored' };

const reasons: Record<SaveFailure, keyof Dict> = {
  gone: 'edReasonGone',
  tooLarge: 'edReasonTooLarge',
  signedOut: 'edReasonSignedOut',
  server: 'edReasonServer',
};

export function stateText(t: Dict, s: SaveState, lang: Lang, now = Date.now()): string {
  switch (s.kind) {
    case 'clean':
      return '';
    case 'pending':
      return t.edStatusPending;
    case 'saving':
      return t.saving;
    case 'saved':
      if (s.byHand) return fmt(t.edStatusSavedVersion, { v: s.version });
      if (now - s.at < 60_000) return t.edStatusSavedJustNow;
      return fmt(t.edStatusSavedAt, {
        time: new Date(s.at).toLocaleTimeString(lang === 'zh' ? 'zh-CN' : 'en-GB', {
          hour: '2-digit',
          minute: '2-digit',
        }),
      });
    case 'offline':
      return s.kept ? t.edStatusOffline : t.edStatusOfflineNotKept;
    case 'failed':
      return fmt(t.edStatusNotSaved, { reason: t[reasons[s.reason]] });
    case 'conflict':
      return t.edStatusConflict;
  }
}

export function noteText(t: Dict, n: Note | null): string {
  if (!n) return '';
  return n.kind === 'restored' ? fmt(t.edStatusRestored, { from: n.from, v: n.version }) : t.edStatusDraftRestored;
}
