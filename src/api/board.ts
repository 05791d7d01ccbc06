/**
 * The manuscript board: every chapter in order with where it stands, from what MongoDB holds.
 *
 * - A chapter is a live body file (draft, script) — or, when no file names its number yet, an
 *   entry of the outline: `planned`.
 * - A chapter file with no text is `planned` too; with text it is `drafted`, and `reviewed`
 *   when the reviewer ran, after the last writer run, in a turn that wrote, focused or
 *   attached it and ended after its text last changed (an author edit since makes it a draft
 *   again).
 * - Its synopsis is the outline entry for its number (core/book/outline).
 *
 * Reordering lives here too: a move or a renumbering is planned by core/book/chapter-order and
 * applied as title and `order` changes only — never a new version of any text.
 */
import { inTreeOrder, planMove, planRenumber, type ReorderPlan, titleNumber } from '../core/book/chapter-order';
import { BODY_FILE_TYPES } from '../core/domain';
import { outlineEntries, type OutlineEntry } from '../core/book/outline';
import { findUnitRefs } from '../core/words/numerals';
import { detectLanguage } from '../core/text';
import type { FileDoc, Models, ProjectDoc } from '../db/models';
import { ConflictError, NotFoundError } from './errors';

export type ChapterStatus = 'planned' | 'drafted' | 'reviewed';

/** One row of the board. */
export interface BoardItem {
  /** The chapter's file; null for a chapter only the outline has. */
  fileId: string | null;
  number: number | null;
  title: string;
  status: ChapterStatus;
  words: number;
  /** The chapter's own goal (the project's `chapterWordGoal` applies when null). */
  wordGoal: number | null;
  synopsis: string;
  /** For a planned chapter without a file: the title a new file for it gets ("Chapter 4: Low Tide"). */
  suggestedTitle?: string;
  version?: number;
  latestAuthor?: string;
}

/** A job that is writing chapters by number: the chapters are not reordered under it. */
const WRITING_JOB = ['queued', 'running', 'pausing'];

type ChapterFile = Pick<
  FileDoc,
  'title' | 'type' | 'order' | 'words' | 'versionCount' | 'latestAuthor' | 'wordGoal' | 'createdAt' | 'updatedAt'
> & { id: string };

/** Live chapter files of a project, in the manuscript's order (no text). */
export async function chapterFiles(models: Models, projectId: string): Promise<ChapterFile[]> {
  const files = await models.File.find({ projectId, deletedAt: null, type: { $in: BODY_FILE_TYPES } })
    .select({
      title: 1,
      type: 1,
      order: 1,
      words: 1,
      versionCount: 1,
      latestAuthor: 1,
      wordGoal: 1,
      createdAt: 1,
      updatedAt: 1,
    })
    .lean();
  return inTreeOrder(files.map((f) => ({ ...f, id: String(f._id) })) as ChapterFile[]);
}

/** File id → when a review of it ended (see the module comment for what counts). */
async function reviewTimes(models: Models, projectId: string): Promise<Map<string, number>> {
  const turns = await models.Turn.find({ projectId, 'agentRuns.agent': 'quality_reviewer', endedAt: { $ne: null } })
    .select({ agentRuns: 1, filesTouched: 1, focusFileId: 1, attachedFileIds: 1, endedAt: 1 })
    .lean();
  const out = new Map<string, number>();
  for (const t of turns) {
    const agents = t.agentRuns.map((r) => r.agent);
    if (agents.lastIndexOf('quality_reviewer') < agents.lastIndexOf('writer')) continue;
    const ended = t.endedAt!.getTime();
    for (const id of [...t.filesTouched, ...(t.attachedFileIds ?? []), t.focusFileId])
      if (id && (out.get(id) ?? 0) < ended) out.set(id, ended);
  }
  return out;
}

function statusOf(f: ChapterFile, reviewed: Map<string, number>): ChapterStatus {
  if (!f.words) return 'planned';
  return (reviewed.get(f.id) ?? 0) >= f.updatedAt.getTime() ? 'reviewed' : 'drafted';
}

/** A title without its unit label: "Chapter 3: The Bell" → "The Bell", "第三章 钟声" → "钟声". */
function chapterName(title: string): string {
  const ref = findUnitRefs(title)[0];
  return ref ? title.slice(ref.end).replace(/^[\s:：.。、\-–—]+/, '') : title;
}
const nameKey = (s: string): string => s.trim().toLowerCase();

const plannedTitle = (e: OutlineEntry, zh: boolean): string =>
  e.title ? `${e.label}${zh ? ' ' : ': '}${e.title}` : e.label;

/** Files and outline-only entries merged: an entry goes before the first file with a higher number; unnumbered files stay last. */
function mergeRows(files: BoardItem[], planned: BoardItem[]): BoardItem[] {
  const out: BoardItem[] = [];
  let p = 0;
  for (const f of files) {
    while (p < planned.length && f.number !== null && planned[p]!.number! < f.number) out.push(planned[p++]!);
    if (f.number === null) while (p < planned.length) out.push(planned[p++]!);
    out.push(f);
  }
  return [...out, ...planned.slice(p)];
}

export async function loadBoard(models: Models, project: ProjectDoc) {
  const projectId = String(project._id);
  const [files, outlines, reviewed, job] = await Promise.all([
    chapterFiles(models, projectId),
    models.File.find({ projectId, deletedAt: null, type: 'outline' })
      .sort({ updatedAt: -1 })
      .select({ title: 1, content: 1 })
      .lean(),
    reviewTimes(models, projectId),
    models.Job.findOne({ projectId, status: { $in: WRITING_JOB } })
      .select({ _id: 1, status: 1, from: 1, to: 1, chaptersDone: 1, chaptersSkipped: 1 })
      .lean(),
  ]);
  const entries = outlineEntries(outlines.map((o) => o.content));
  // A chapter moved by hand keeps its name while its number changes, and the outline is not
  // rewritten: its synopsis is found by name first, then by number.
  const byName = new Map([...entries.values()].filter((e) => e.title).map((e) => [nameKey(e.title), e]));
  const zh = detectLanguage([project.title, ...outlines.map((o) => o.content.slice(0, 500))].join('\n')) === 'zh';
  const numbers = new Set<number>();
  const fileRows: BoardItem[] = files.map((f) => {
    const number = titleNumber(f.title);
    if (number !== null) numbers.add(number);
    const entry = byName.get(nameKey(chapterName(f.title))) ?? (number !== null ? entries.get(number) : undefined);
    return {
      fileId: f.id,
      number,
      title: f.title,
      status: statusOf(f, reviewed),
      words: f.words,
      wordGoal: f.wordGoal ?? null,
      synopsis: entry?.synopsis ?? '',
      version: f.versionCount,
      latestAuthor: f.latestAuthor,
    };
  });
  const planned: BoardItem[] = [...entries.values()]
    .filter((e) => !numbers.has(e.n))
    .sort((a, b) => a.n - b.n)
    .map((e) => ({
      fileId: null,
      number: e.n,
      title: e.title || e.label,
      status: 'planned',
      words: 0,
      wordGoal: null,
      synopsis: e.synopsis,
      suggestedTitle: plannedTitle(e, zh),
    }));
  const items = mergeRows(fileRows, planned);
  const count = (s: ChapterStatus) => items.filter((i) => i.status === s).length;
  return {
    projectId,
    wordGoal: project.wordGoal ?? null,
    chapterWordGoal: project.chapterWordGoal ?? null,
    totals: {
      chapters: items.length,
      files: files.length,
      words: files.reduce((n, f) => n + f.words, 0),
      planned: count('planned'),
      drafted: count('drafted'),
      reviewed: count('reviewed'),
    },
    outlines: outlines.map((o) => ({ id: String(o._id), title: o.title })),
    /** A job writing chapters by number: moves and renumbering wait until it is paused or over. */
    writingJob: job ? writingJobOf(job) : null,
    items,
  };
}

/**
 * The job writing chapters by number, as the board shows it: its range, the chapters it has
 * written or left, and the one it writes now (it writes in order: the first of its range not
 * yet done), so the board neither offers to start a chapter the job is about to write nor to
 * delete the one it is writing.
 */
function writingJobOf(job: {
  _id: unknown;
  status: string;
  from: number;
  to: number;
  chaptersDone?: number[];
  chaptersSkipped?: number[];
}) {
  const done = new Set([...(job.chaptersDone ?? []), ...(job.chaptersSkipped ?? [])]);
  let writing: number | null = null;
  for (let n = job.from; n <= job.to && writing === null; n++) if (!done.has(n)) writing = n;
  return {
    id: String(job._id),
    status: job.status,
    from: job.from,
    to: job.to,
    done: [...done].sort((a, b) => a - b),
    writing,
  };
}

/** What a reorder did: the titles it changed (from → to) and the chapters' new order. */
export interface ReorderResult {
  order: string[];
  renamed: { fileId: string; from: string; to: string }[];
  /** Renames not made because the title changed meanwhile (another tab, an agent). */
  skipped: string[];
}

/**
 * Plans a reorder on the project's chapters and applies it: titles (only where the number
 * changes, and only over the title it planned from) and `order`. No version is written.
 */
export async function reorderChapters(
  models: Models,
  projectId: string,
  plan: (seq: { id: string; title: string }[]) => ReorderPlan,
): Promise<ReorderResult> {
  const job = await models.Job.findOne({ projectId, status: { $in: WRITING_JOB } })
    .select({ _id: 1, status: 1 })
    .lean();
  if (job)
    throw new ConflictError(
      'a job is writing chapters in this project by their numbers: pause it or let it finish, then reorder',
      { jobId: String(job._id), status: job.status },
      'job_writing',
    );
  const files = await chapterFiles(models, projectId);
  const { ids, renames } = plan(files.map((f) => ({ id: f.id, title: f.title })));
  const byId = new Map(files.map((f) => [f.id, f]));
  const ops = ids.flatMap((id, order) => {
    const f = byId.get(id)!;
    const title = renames.get(id);
    if (title === undefined && f.order === order) return [];
    return [
      {
        updateOne: {
          filter: { _id: id, title: f.title, deletedAt: null },
          update: { $set: { order, ...(title !== undefined ? { title } : {}) } },
          timestamps: false,
        },
      },
    ];
  });
  const renamed: ReorderResult['renamed'] = [];
  const skipped: string[] = [];
  // One round trip; each update matches only the title it was planned from, so a rename made meanwhile is never overwritten.
  if (ops.length) await models.File.bulkWrite(ops, { ordered: false });
  if (renames.size) {
    const now = await models.File.find({ _id: { $in: [...renames.keys()] } })
      .select({ title: 1 })
      .lean();
    for (const f of now) {
      const id = String(f._id);
      if (f.title === renames.get(id)) renamed.push({ fileId: id, from: byId.get(id)!.title, to: f.title });
      else skipped.push(id);
    }
  }
  const place = new Map(ids.map((id, i) => [id, i]));
  renamed.sort((a, b) => place.get(a.fileId)! - place.get(b.fileId)!);
  return { order: ids, renamed, skipped };
}

export const moveChapter = (models: Models, projectId: string, fileId: string, to: number): Promise<ReorderResult> =>
  reorderChapters(models, projectId, (seq) => {
    if (!seq.some((s) => s.id === fileId)) throw new NotFoundError('chapter');
    return planMove(seq, fileId, to);
  });

export const renumberChapters = (models: Models, projectId: string): Promise<ReorderResult> =>
  reorderChapters(models, projectId, planRenumber);
