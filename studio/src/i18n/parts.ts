/** The dictionary's parts merged into one dictionary per language (React-free, so tests and tools can load it). */
import { base } from './base';
import { board } from './board';
import { editor } from './editor';
import { jobs } from './jobs';
import { record } from './record';
import { shell } from './shell';

/** Every part of the dictionary, in the order they merge. */
export const PARTS = [base, editor, board, record, jobs, shell] as const;

type Merged = (typeof base)['en'] &
  (typeof editor)['en'] &
  (typeof board)['en'] &
  (typeof record)['en'] &
  (typeof jobs)['en'] &
  (typeof shell)['en'];
export type Dict = { [K in keyof Merged]: string };

export type Lang = 'en' | 'zh';

const merge = (lang: Lang): Dict => Object.assign({}, ...PARTS.map((p) => p[lang])) as Dict;
export const DICTS: Record<Lang, Dict> = { en: merge('en'), zh: merge('zh') };
