/**
 * The manuscript's chapters as a job screen reads them: words of the draft file each chapter
 * number has (the core's numeral parser, as the job itself finds chapter N).
 */
import type { FileSummary } from '../api';
import { unitOfTitle } from '../../../src/core/words/numerals';
import { isBodyFileType } from '../../../src/core/book/file-types';

/** Chapter number → words of its longest draft (chapters without text are absent). */
export function chapterWordsOf(files: readonly FileSummary[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const f of files) {
    if (!isBodyFileType(f.type)) continue;
    const unit = unitOfTitle(f.title);
    if (unit?.kind === 'chapter' && f.words > (out.get(unit.n) ?? 0)) out.set(unit.n, f.words);
  }
  return out;
}
