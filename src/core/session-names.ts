/**
 * What a session is called and what kind it is. A conversation is named by the author's first
 * message (its first line, cut to a picker's width); a job writes in a session of its own,
 * which clients keep apart from the author's conversations. Pure module.
 */
import { truncate } from './text';

export const SESSION_KINDS = ['chat', 'job'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

/** Width of a conversation's name, in columns (a CJK character takes two): what a session picker shows on one line. */
export const SESSION_NAME_COLUMNS = 60;

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** A conversation's name from the author's first message: its first line with words in it, whitespace collapsed, cut to the picker's width. */
export function conversationName(message: string): string {
  const line = (message.split('\n').find((l) => /[\p{L}\p{N}]/u.test(l)) ?? message).replace(/\s+/g, ' ').trim();
  let columns = 0;
  let cut = 0;
  for (const ch of line) {
    columns += WIDE.test(ch) ? 2 : 1;
    if (columns > SESSION_NAME_COLUMNS - 1) return truncate(line, cut + 1);
    cut += 1;
  }
  return line;
}

/** The title a job's own session had before sessions kept their kind ("Job · chapters 1–10"). */
const OLD_JOB_TITLE = /^Job · chapters (\d+)[–-](\d+)$/;

/** A session's kind and, for a job's, its chapters: from what it records, or from an older session's title. */
export function sessionKindOf(s: { kind?: string | null; title?: string | null; jobChapters?: unknown }): {
  kind: SessionKind;
  jobChapters: { from: number; to: number } | null;
} {
  const m = OLD_JOB_TITLE.exec(s.title ?? '');
  if (s.kind === 'job' || m) {
    const kept = (s.jobChapters ?? null) as { from?: number; to?: number } | null;
    const from = kept?.from ?? (m ? Number(m[1]) : null);
    const to = kept?.to ?? (m ? Number(m[2]) : null);
    return { kind: 'job', jobChapters: from !== null && to !== null ? { from, to } : null };
  }
  return { kind: 'chat', jobChapters: null };
}
