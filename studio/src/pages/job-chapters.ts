/**
 * The manuscript's chapters as a job screen reads them: words of the draft file each chapter
 * number has (the core's numeral parser, as the job itself finds chapter N); and a chapter as
 * the board sees it beside a running job.
 */
import type { FileSummary } from '../api';
import type { BoardData, BoardItem } from './manuscript-api';
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

/** The first chapter number (from 1) the book has no text for. */
export function firstUnwritten(written: ReadonlyMap<number, number>): number {
  let n = 1;
  while (written.has(n)) n++;
  return n;
}

/** What the running job does with a chapter: writes it now, later, or nothing (outside its range, or done). */
export function jobWritesOf(item: BoardItem, job: BoardData['writingJob']): 'now' | 'later' | null {
  if (!job || item.number === null || item.number < job.from || item.number > job.to) return null;
  if (job.done.includes(item.number)) return null;
  return job.writing === item.number ? 'now' : 'later';
}
