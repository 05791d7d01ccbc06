/** What the save status line says, in the author's words (never a code or an English-only string). */
import { fmt, type Dict, type Lang } from '../i18n';
import type { SaveFailure, SaveState } from './autosave';

/** Something the page did that the status line reports until the author types again. */
export type Note = { kind: 'restored'; from: number; version: number } | { kind: 'draftRestored' };

const reasons: Record<SaveFailure, keyof Dict> = {
  gone: 'reasonGone',
  tooLarge: 'reasonTooLarge',
  signedOut: 'reasonSignedOut',
  server: 'reasonServer',
};

export function stateText(t: Dict, s: SaveState, lang: Lang, now = Date.now()): string {
  switch (s.kind) {
    case 'clean':
      return '';
    case 'pending':
      return t.statusPending;
    case 'saving':
      return t.saving;
    case 'saved':
      if (s.byHand) return fmt(t.statusSavedVersion, { v: s.version });
      if (now - s.at < 60_000) return t.statusSavedJustNow;
      return fmt(t.statusSavedAt, { time: new Date(s.at).toLocaleTimeString(lang === 'zh' ? 'zh-CN' : 'en-GB', { hour: '2-digit', minute: '2-digit' }) });
    case 'offline':
      return t.statusOffline;
    case 'failed':
      return fmt(t.statusNotSaved, { reason: t[reasons[s.reason]] });
    case 'conflict':
      return t.statusConflict;
  }
}

export function noteText(t: Dict, n: Note | null): string {
  if (!n) return '';
  return n.kind === 'restored' ? fmt(t.statusRestored, { from: n.from, v: n.version }) : t.statusDraftRestored;
}
