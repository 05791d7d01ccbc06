/**
 * A team's step as the author reads it: each tool call worded from its facts (src/core/turn/turn-view.ts
 * ToolStep) in the author's language — "Moved “Chapter 2” to the trash", "Asked you before
 * deleting “Chapter 2”: you said no, so it was kept" — never a tool's name, an id or an error code.
 */
import { type Dict, fmt } from '../i18n';
import type { ToolStep } from '../turn';

export type StepTone = 'running' | 'ok' | 'refused' | 'failed';

/** Tools whose success a file card shows (created, saved, in the trash): their step line would say it twice. */
const SHOWN_BY_FILE_CARD = ['create_file', 'edit_file', 'delete_file'];

/** Tools with their own wording; anything else is "working on …". */
const WORDED = [
  'create_file',
  'edit_file',
  'delete_file',
  'set_importance',
  'query_files',
  'update_project',
  'handoff_to_agent',
  'request_clarification',
  'load_skill',
  'read_skill_resource',
  'parallel_execute',
];

/** Reasons a step failed that the author is told as such; any other is "the team went on without it". */
const REASONS = [
  'file_exists',
  'anchor_not_found',
  'ambiguous_anchor',
  'not_found',
  'folder_not_empty',
  'concurrent_edit',
  'pending_empty_file_unwritten',
  'notes_over_budget',
];
const KEPT = ['author_edit_protected', 'stale_content', 'file_deleted'];

/** A dictionary entry by a computed key, or undefined (never the key itself on screen). */
export const word = (t: Dict, key: string): string | undefined => (t as Record<string, string>)[key];

function verbPhrase(t: Dict, s: ToolStep, done: boolean): string {
  const key =
    s.tool === 'query_files' && s.search ? 'step_search' : WORDED.includes(s.tool) ? `step_${s.tool}` : 'step_other';
  const who = word(t, `who_${s.target ?? ''}`) ?? t.recSomeone;
  return fmt(word(t, done ? `${key}_done` : key) ?? '', { t: s.target ?? t.recAFile, n: s.count ?? 0, who });
}

/** The step's line and tone; null when a file card already tells it. */
export function stepLine(t: Dict, s: ToolStep, turnRunning: boolean): { text: string; tone: StepTone } | null {
  const title = s.target ?? t.recAFile;
  if (s.approval) {
    const asked = fmt(s.tool === 'delete_file' ? t.asked_delete : t.asked_rewrite, { t: title });
    const answer = s.approval === 'asked' ? t.answer_waiting : (word(t, `answer_${s.approval}`) ?? '');
    return {
      text: `${asked}${t.recColon}${answer}`,
      tone: s.approval === 'approve' ? 'ok' : s.approval === 'asked' ? 'running' : 'refused',
    };
  }
  if (s.ok === undefined) return turnRunning ? { text: `${verbPhrase(t, s, false)}…`, tone: 'running' } : null;
  if (s.ok) return SHOWN_BY_FILE_CARD.includes(s.tool) ? null : { text: verbPhrase(t, s, true), tone: 'ok' };
  if (s.refusal === 'kept_your_edits') {
    const kept = fmt(word(t, KEPT.includes(s.errorType ?? '') ? `kept_${s.errorType}` : 'kept_other') ?? '', {
      t: title,
    });
    return { text: s.keptIn ? `${kept}${t.recColon}${fmt(t.keptIn, { t: s.keptIn })}` : kept, tone: 'refused' };
  }
  if (s.refusal === 'asking_first') return { text: fmt(t.asking_first, { t: title }), tone: 'refused' };
  if (s.refusal === 'read_only') return { text: fmt(t.read_only, { t: title }), tone: 'refused' };
  const why = word(t, REASONS.includes(s.errorType ?? '') ? `why_${s.errorType}` : 'why_other') ?? t.why_other;
  return { text: s.target ? fmt(t.step_failed_on, { t: s.target, why }) : fmt(t.step_failed, { why }), tone: 'failed' };
}
