/**
 * Review evidence read from MongoDB: this turn's body files
 * (draft / script) as saved after its writes, each with an editor-style word count. A file
 * that already had body text before the turn and does not fit the review budget whole
 * contributes only the part this turn changed, found against the version before the
 * turn's first write. The workflow only carries a marker; file bodies never pass through
 * its history.
 *
 * After the files, the fact check's `[fact check]` lines (core/book/fact-check.ts): what this
 * turn wrote, checked against the project's other body files and its cards, within its own
 * time budget (FACT_CHECK_BUDGET_MS) so a large book does not hold the reviewer up.
 */
import type { Models } from '../../db/models';
import { BODY_FILE_TYPES } from '../../core/domain';
import { countWords, detectLanguage } from '../../core/text';
import { checkFacts, quotesEarlierText, type FactText } from '../../core/book/fact-check';
import { factCheckLines } from '../../core/book/fact-check-lines';
import { LATE, readBudget } from '../read-budget';
import { quiet } from '../../core/quiet';

/** The fact check's time, its reads and its matching together: past it the packet says the check was cut short. */
export const FACT_CHECK_BUDGET_MS = 500;

/** Kinds of card whose statements about a character the fact check compares the draft with. */
const CARD_TYPES = ['character', 'setting'];

export interface ReviewFile {
  fileId: string;
  title: string;
  type: string;
  /** Text as saved now. */
  content: string;
  /** Text before this turn's first write ('' for a file the turn created). */
  before: string;
}

/** Context kept around a change to reach whole lines, at most this many characters each side. */
const LINE_CONTEXT = 300;

/**
 * The span of `now` that differs from `before` (common prefix and suffix removed), widened
 * to whole lines when the line edges are near, so the reviewer reads sentences, not cuts.
 */
export function changedSpan(before: string, now: string): { start: number; end: number } {
  let p = 0;
  const max = Math.min(before.length, now.length);
  while (p < max && before[p] === now[p]) p++;
  let s = 0;
  while (s < max - p && before[before.length - 1 - s] === now[now.length - 1 - s]) s++;
  const lineStart = p === 0 ? 0 : now.lastIndexOf('\n', p - 1) + 1;
  const start = p - lineStart <= LINE_CONTEXT ? lineStart : p;
  const changedEnd = now.length - s;
  // The line where the change ends closes the span (a changed newline at its end stays out).
  const nl = s === 0 ? -1 : now.indexOf('\n', Math.max(start, changedEnd - 1));
  const lineEnd = nl < 0 ? now.length : nl;
  const end = lineEnd - changedEnd <= LINE_CONTEXT ? lineEnd : changedEnd;
  return { start, end: Math.max(start, end) };
}

/** Renders the files for the reviewer within `budgetChars` characters of file text. */
export function renderReviewContent(files: ReviewFile[], budgetChars: number): string {
  if (!files.length) return 'No draft or script text was saved in this turn.';
  const parts: string[] = ["This turn's body files as saved, with the editor's word count:"];
  let left = budgetChars;
  for (const f of files) {
    const words = countWords(f.content);
    const head = `### ${f.title} (id=${f.fileId}, ${f.type}) — ${words} words as saved`;
    if (f.content.length <= left) {
      parts.push(head, f.content);
      left -= f.content.length;
      continue;
    }
    if (f.before.trim()) {
      const { start, end } = changedSpan(f.before, f.content);
      const segment = f.content.slice(start, end);
      const shown = segment.slice(0, Math.max(0, left));
      parts.push(
        `${head}; the file had text before this turn and is too long to include whole: only the part changed in this turn is shown (characters ${start}–${end} of ${f.content.length}, ${countWords(segment)} words)${shown.length < segment.length ? `, cut at ${shown.length} characters` : ''}. The rest is unchanged; read it with query_files(id) if needed.`,
        segment ? shown : '(this turn only removed text here)',
      );
      left -= shown.length;
      continue;
    }
    const shown = f.content.slice(0, Math.max(0, left));
    parts.push(
      `${head}; only the first ${shown.length} of ${f.content.length} characters fit here: read the rest with query_files(id).`,
      shown,
    );
    left -= shown.length;
  }
  return parts.join('\n');
}

type TurnVersion = { fileId: string; projectId: string; version: number };

/** The versions the AI wrote in this turn, oldest first: which files, in which project. */
function turnVersions(models: Models, turnId: string): Promise<TurnVersion[]> {
  return models.FileVersion.find({ turnId, author: 'ai' })
    .select({ fileId: 1, projectId: 1, version: 1 })
    .sort({ createdAt: 1, version: 1 })
    .lean()
    .exec();
}

/** The live body files among `versions`, in the order the turn first wrote them, each with its text before that write. */
async function filesWritten(models: Models, versions: TurnVersion[]): Promise<ReviewFile[]> {
  const first = new Map<string, number>();
  for (const v of versions)
    if (!first.has(v.fileId) || first.get(v.fileId)! > v.version) first.set(v.fileId, v.version);
  const files = await models.File.find({
    _id: { $in: [...first.keys()] },
    deletedAt: null,
    type: { $in: [...BODY_FILE_TYPES] },
  }).lean();
  const byId = new Map(files.map((f) => [String(f._id), f]));
  // The text before the AI's first write in this turn: the version just below it (read together).
  const written = [...first].filter(([fileId]) => byId.has(fileId));
  const priors = await Promise.all(
    written.map(([fileId, version]) =>
      version > 1
        ? models.FileVersion.findOne({ fileId, version: version - 1 })
            .select({ content: 1 })
            .lean()
        : null,
    ),
  );
  return written.map(([fileId], i) => {
    const f = byId.get(fileId)!;
    return { fileId, title: f.title, type: f.type, content: f.content, before: priors[i]?.content ?? '' };
  });
}

type ProjectText = { _id: unknown; title: string; type: string; content: string };

/** The project's live files of `types`, with their text. */
function projectFiles(models: Models, projectId: string, types: readonly string[]): Promise<ProjectText[]> {
  return models.File.find({ projectId, deletedAt: null, type: { $in: [...types] } })
    .select({ title: 1, type: 1, content: 1 })
    .lean()
    .exec();
}

/**
 * The project's cards and, when `withBody`, its other body files: what the fact check compares
 * this turn's text with. The cards were read beside this turn's files; the body files are most
 * of a book: read only for a quotation.
 */
async function projectTexts(
  models: Models,
  projectId: string,
  cardsRead: Promise<ProjectText[]>,
  exclude: Set<string>,
  withBody: boolean,
) {
  const [cards, body] = await Promise.all([
    cardsRead,
    withBody ? projectFiles(models, projectId, BODY_FILE_TYPES) : [],
  ]);
  const others = (docs: ProjectText[]) => docs.filter((d) => !exclude.has(String(d._id)));
  return { body: others(body), cards: others(cards) };
}

export interface FactCheckOptions {
  /** The session's language for the lines (absent: the language of the text under review). */
  language?: 'zh' | 'en';
  /** The turn's project, when the caller knows it: the cards are read beside this turn's versions. */
  projectId?: string;
  /** The check's time (absent: FACT_CHECK_BUDGET_MS). */
  budgetMs?: number;
}

/**
 * The `[fact check]` lines for this turn's files: its reads and its matching share one budget;
 * what this turn changed is checked (the rest of an older file is earlier text, as are the
 * project's other body files).
 */
async function factCheck(
  models: Models,
  projectId: string,
  cardsRead: Promise<ProjectText[]>,
  files: ReviewFile[],
  opts: FactCheckOptions,
) {
  const budgetMs = opts.budgetMs ?? FACT_CHECK_BUDGET_MS;
  const language = opts.language ?? detectLanguage(files.map((f) => f.content.slice(0, 2000)).join('\n'));
  const budget = readBudget(budgetMs);
  const drafts: FactText[] = files.map((f) => {
    if (!f.before.trim()) return { title: f.title, content: f.content };
    const { start, end } = changedSpan(f.before, f.content);
    return { title: f.title, content: f.content.slice(start, end) };
  });
  const exclude = new Set(files.map((f) => f.fileId));
  const project = await budget.take(projectTexts(models, projectId, cardsRead, exclude, quotesEarlierText(drafts)));
  budget.close();
  if (project === LATE) return factCheckLines(null, language, budgetMs);
  const before = files.filter((f) => f.before.trim()).map((f) => ({ title: f.title, content: f.before }));
  const earlier: FactText[] = [...project.body, ...before];
  const check = checkFacts({ drafts, earlier, cards: project.cards, stop: budget.spent });
  return factCheckLines(check, language, budgetMs);
}

/** The `[content under review]` section for a review packet, with the fact check's lines after the files. */
export async function reviewContent(
  models: Models,
  turnId: string,
  budgetChars: number,
  opts: FactCheckOptions = {},
): Promise<string> {
  // The fact check's cards need only the project: read beside this turn's versions when the
  // caller names it, else beside its files; either way not after them, one round trip less before
  // the reviewer's request. Quiet: a turn that wrote no body text never awaits it.
  const early = opts.projectId ? quiet(projectFiles(models, opts.projectId, CARD_TYPES)) : null;
  const versions = await turnVersions(models, turnId);
  if (!versions.length) return renderReviewContent([], budgetChars);
  const projectId = versions[0]!.projectId;
  const cardsRead = early && projectId === opts.projectId ? early : quiet(projectFiles(models, projectId, CARD_TYPES));
  const files = await filesWritten(models, versions);
  const content = renderReviewContent(files, budgetChars);
  if (!files.length) return content;
  const lines = await factCheck(models, projectId, cardsRead, files, opts);
  return lines.length ? `${content}\n\n${lines.join('\n')}` : content;
}
