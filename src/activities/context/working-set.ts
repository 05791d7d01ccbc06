/**
 * The cross-turn working set. History replays drop tool results, so a
 * new turn learns what the previous ones did from two things: the breadcrumb on each
 * assistant message, and this block — the files read or written in the last two assistant
 * replies (turns, not agent runs), whole with their current text, the author's net edits
 * marked. It goes right before the author's message, not into the system prompt or the
 * history, so the prompt prefix stays cacheable up to the previous turn.
 */
import { fullHeader } from './budget';
import { countTokens } from './tokens';

/** Labels the author's own words after the block (the offline model reads `[… user message]` sections as the author's). */
export const THIS_TURN_LABEL = "[This turn's user message]";
/** How many previous assistant replies (turns) the working set covers. */
export const WORKING_SET_TURNS = 2;

export interface HistoryMessage {
  turnId: string;
  role: string;
  breadcrumb: { op?: string | null; fileId?: string | null }[];
}

export interface WorkingSetFile {
  id: string;
  title: string;
  type: string;
  content: string;
  version: number;
  /** The author's net edits since the last AI version (empty when there are none). */
  authorEdits: string[];
}

export interface WorkingSetLimits {
  maxFiles: number;
  maxChars: number;
  /** Tokens the block may take at most (its share of the prompt ledger). */
  maxTokens: number;
}

export interface WorkingSet {
  /** The block, or '' when the last turns touched no live file. */
  text: string;
  /** Files shown whole here, with the version shown. */
  whole: { fileId: string; version: number }[];
  listed: number;
}

/**
 * Ids of the files read, created or edited in the last `WORKING_SET_TURNS` turns that have
 * an assistant reply, most recent first. `messages` are the session's, newest first.
 */
export function workingSetIds(messages: HistoryMessage[], currentTurnId: string): string[] {
  const turns: string[] = [];
  const ids: string[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant' || m.turnId === currentTurnId) continue;
    if (!turns.includes(m.turnId)) {
      if (turns.length === WORKING_SET_TURNS) break;
      turns.push(m.turnId);
    }
    // Within a message the last operation is the most recent.
    for (const b of [...m.breadcrumb].reverse())
      if (b.fileId && b.op && ['created', 'edited', 'read'].includes(b.op) && !ids.includes(b.fileId))
        ids.push(b.fileId);
  }
  return ids;
}

function authorEditsBlock(f: WorkingSetFile): string {
  if (!f.authorEdits.length) return '';
  // A file the author wrote from scratch: every line is theirs, so say that instead of repeating it.
  const own = new Set(f.authorEdits);
  if (f.content.split('\n').every((l) => !l.trim() || own.has(l.trim())))
    return '\n<author_edits>The author wrote this whole file: keep it.</author_edits>';
  return `\n<author_edits>\n${f.authorEdits.join('\n')}\n</author_edits>`;
}

/**
 * A file the project context already shows `[full]`: one line, in the session's language, so
 * the same text is never sent twice in one prompt.
 */
export function shownInContextLine(title: string, id: string, language: 'zh' | 'en'): string {
  return language === 'zh'
    ? `- ${title} (id=${id})（全文见项目上下文）`
    : `- ${title} (id=${id}) (full text in the project context)`;
}

/**
 * Renders the block: files whole while they fit the file, character and token limits;
 * beyond them title + id only; files already `[full]` in the project context one line each.
 */
export function renderWorkingSet(
  files: WorkingSetFile[],
  inContext: Set<string>,
  limits: WorkingSetLimits,
  language: 'zh' | 'en',
): WorkingSet {
  if (!files.length) return { text: '', whole: [], listed: 0 };
  const parts: string[] = [];
  const whole: WorkingSet['whole'] = [];
  let chars = 0;
  let tokens = 0;
  for (const f of files) {
    if (inContext.has(f.id)) {
      parts.push(`${shownInContextLine(f.title, f.id, language)}${authorEditsBlock(f)}`);
      continue;
    }
    const entry = `${fullHeader(f.title, f.id)}\n${f.content}${authorEditsBlock(f)}`;
    const entryTokens =
      whole.length < limits.maxFiles && chars + f.content.length <= limits.maxChars ? countTokens(entry) : Infinity;
    if (tokens + entryTokens <= limits.maxTokens) {
      parts.push(entry);
      whole.push({ fileId: f.id, version: f.version });
      chars += f.content.length;
      tokens += entryTokens;
      continue;
    }
    parts.push(
      `- ${f.title} (id=${f.id}, ${f.type}): not shown here (working-set limit); read it with query_files(id="${f.id}")${authorEditsBlock(f)}`,
    );
  }
  const text = [
    '<previous_turn_working_set>',
    "Files read or written in your last two replies, with their current text as of the start of this request. Lines in <author_edits> are the author's own changes since the last AI version: keep them.",
    ...parts,
    '</previous_turn_working_set>',
  ].join('\n');
  return { text, whole, listed: files.length };
}

/** The user message as the model gets it: the working set, then the labelled message. */
export function userContent(workingSet: string, message: string): string {
  return workingSet ? `${workingSet}\n\n${THIS_TURN_LABEL}\n${message}` : message;
}
