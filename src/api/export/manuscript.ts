/**
 * The manuscript a project exports: its chapters in order, each as blocks of text,
 * and its front matter. Read-only: the writers (markdown.ts, docx.ts, epub.ts) only format
 * what this module reads.
 *
 * Which files make the book: every live body file (draft, script) with text, in the
 * manuscript tree's order (chapters by the number their title names, a chapter whose title
 * names none — a prologue, a chapter the author renamed "Salt and Ash" — where the tree shows
 * it). Of several files naming the same number, one is that chapter: the author's own over a
 * kept-aside "(AI draft)", then the most recently updated — the one the job and the agents
 * treat as that chapter. Nothing the tree lists as a chapter is left out of the book.
 */
import type { Models } from '../../db/models';
import { BODY_FILE_TYPES } from '../../core/domain';
import { unitOfTitle } from '../../core/words/numerals';
import { inTreeOrder, renumberTitle, titleNumber } from '../../core/book/chapter-order';
import { detectLanguage } from '../../core/text';

export type Block = { kind: 'heading'; text: string } | { kind: 'para'; text: string } | { kind: 'break' };

export interface Chapter {
  /** The chapter's heading: its text's own `#` heading when it starts with one, else the file's title. */
  title: string;
  blocks: Block[];
}

export interface Manuscript {
  projectId: string;
  title: string;
  author: string;
  summary: string;
  language: 'zh' | 'en';
  /** BCP 47 tag for documents (`zh-CN`, `en`). */
  languageTag: string;
  updatedAt: Date;
  chapters: Chapter[];
}

interface BodyFile {
  id: string;
  type: string;
  title: string;
  content: string;
  words: number;
  order: number;
  createdAt: Date;
  updatedAt: Date;
  keptFrom?: unknown;
}

const HEADING = /^#{1,6}\s+(.+?)\s*#*\s*$/;
/** `***`, `* * *`, `---`, `＊＊＊`, `· · ·`: a scene break, not text. */
const SCENE_BREAK = /^\s*(?:[*＊·•\-—_~～#]\s*){3,}$/;
// Characters XML 1.0 forbids (and a stray NUL would break a DOCX too): never exported.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/**
 * A chapter's text as blocks. One line is one paragraph: that is how the agents and most
 * Chinese manuscripts write (no hard-wrapped lines), and joining lines would need a space in
 * English and none in Chinese. Quotes and punctuation are left exactly as written.
 */
export function chapterOf(fileTitle: string, content: string): Chapter {
  const lines = content.replace(FORBIDDEN, '').split(/\r\n|\r|\n/);
  let title = fileTitle.replace(FORBIDDEN, '');
  let i = 0;
  while (i < lines.length && !lines[i]!.trim()) i++;
  const first = i < lines.length ? HEADING.exec(lines[i]!.trim()) : null;
  if (first) {
    // The file's title names the chapter (a reorder renumbers titles, never text): a heading
    // that still carries an older number is shown with the title's.
    const number = titleNumber(title);
    title =
      number !== null && titleNumber(first[1]!) !== number ? (renumberTitle(first[1]!, number) ?? title) : first[1]!;
    i++;
  }
  const blocks: Block[] = [];
  for (const raw of lines.slice(i)) {
    const line = raw.trim();
    if (!line) continue;
    const heading = HEADING.exec(line);
    if (heading) blocks.push({ kind: 'heading', text: heading[1]! });
    else if (SCENE_BREAK.test(line)) blocks.push({ kind: 'break' });
    else blocks.push({ kind: 'para', text: line });
  }
  return { title, blocks };
}

/** The files that make the book, in reading order (see the module comment). */
export function pickChapters<T extends BodyFile>(files: T[]): T[] {
  const written = files.filter((f) => f.words > 0 && f.content.trim());
  const numbered = new Map<number, T>();
  for (const f of written) {
    const unit = unitOfTitle(f.title);
    if (!unit) continue;
    const held = numbered.get(unit.n);
    const better =
      !held || (!!held.keptFrom && !f.keptFrom) || (!held.keptFrom === !f.keptFrom && f.updatedAt > held.updatedAt);
    if (better) numbered.set(unit.n, f);
  }
  const chosen = new Set(numbered.values());
  return inTreeOrder(written.filter((f) => chosen.has(f) || !unitOfTitle(f.title)));
}

/** The project's manuscript; `project` is already checked to be the caller's. */
export async function loadManuscript(
  models: Models,
  project: { _id: unknown; title: string; summary?: string; author?: string; updatedAt: Date },
): Promise<Manuscript> {
  const projectId = String(project._id);
  const files = await models.File.find({ projectId, type: { $in: BODY_FILE_TYPES }, deletedAt: null })
    .select({ type: 1, title: 1, content: 1, words: 1, order: 1, createdAt: 1, updatedAt: 1, keptFrom: 1 })
    .lean();
  const picked = pickChapters(files.map((f) => ({ ...f, id: String(f._id) }) as BodyFile));
  const chapters = picked.map((f) => chapterOf(f.title, f.content));
  // The book's language: what its chapters are written in (a Chinese title over English prose is English).
  const sample = [project.title, ...picked.map((f) => f.content.slice(0, 2000))].join('\n');
  const language = detectLanguage(sample);
  const updatedAt = new Date(Math.max(project.updatedAt.getTime(), ...picked.map((f) => f.updatedAt.getTime())));
  return {
    projectId,
    title: project.title.replace(FORBIDDEN, ''),
    author: (project.author ?? '').replace(FORBIDDEN, '').trim(),
    summary: (project.summary ?? '').replace(FORBIDDEN, '').trim(),
    language,
    languageTag: language === 'zh' ? 'zh-CN' : 'en',
    updatedAt,
    chapters,
  };
}

/** Inline emphasis the agents write (`**bold**`, `*italic*`), as runs; everything else is plain text. */
export function inlineRuns(text: string): { text: string; bold?: boolean; italic?: boolean }[] {
  const runs: { text: string; bold?: boolean; italic?: boolean }[] = [];
  const re = /\*\*([^*\n]+)\*\*|(?<![*\w])\*([^*\s][^*\n]*?)\*(?![*\w])/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) runs.push({ text: text.slice(last, m.index) });
    runs.push(m[1] !== undefined ? { text: m[1], bold: true } : { text: m[2]!, italic: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) runs.push({ text: text.slice(last) });
  return runs;
}
