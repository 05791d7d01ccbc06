/**
 * The project file list at the top of the context: every file with its id, so an item cut
 * for budget can still be found and read. A very long book (hundreds of chapters) would
 * spend the whole context budget on the list alone, so past a share of the budget the
 * chapters that are not candidates for this request are summarised in one line. Pure module.
 */
import { isBodyFileType } from '../../core/domain';
import { countTokens } from './tokens';

export interface ManifestEntry {
  id: string;
  title: string;
  type: string;
  words: number;
  importance: string | null;
  latestAuthor: string;
}

/** At most this share of the context budget goes to the file list before chapters are summarised. */
export const MANIFEST_SHARE = 1 / 3;
/** The newest chapters stay listed even when the rest are summarised. */
export const MANIFEST_NEWEST_CHAPTERS = 20;

export function manifestLine(f: ManifestEntry): string {
  const notes = [f.type, `${f.words} words`];
  if (f.importance) notes.push(`importance ${f.importance}`);
  if (f.latestAuthor === 'author') notes.push('edited by the author');
  return `- ${f.title} (id=${f.id}, ${notes.join(', ')})`;
}

/**
 * The list, in the files' order. `keep`: chapters that must stay listed (this request's
 * candidates); `budget`: the context budget in tokens.
 */
export function renderManifest(files: ManifestEntry[], keep: Set<string>, budget: number): string {
  if (!files.length) return '(no files yet)';
  const full = files.map(manifestLine).join('\n');
  if (countTokens(full) <= budget * MANIFEST_SHARE) return full;
  const chapters = files.filter((f) => isBodyFileType(f.type));
  const newest = new Set(chapters.slice(-MANIFEST_NEWEST_CHAPTERS).map((f) => f.id));
  const listed = files.filter((f) => !isBodyFileType(f.type) || keep.has(f.id) || newest.has(f.id));
  const hidden = chapters.filter((f) => !listed.includes(f));
  if (!hidden.length) return full;
  return [
    ...listed.map(manifestLine),
    `- … and ${hidden.length} more chapters (${hidden[0]!.title} … ${hidden[hidden.length - 1]!.title}) not listed here: find one with query_files(query="<its title>")`,
  ].join('\n');
}
