/**
 * File storage with versions. Every write is keyed: an AI write derives its version _id
 * from the tool call's idempotency key, so a retry after a crash finds the version it
 * already wrote instead of adding another. Author writes get fresh ids.
 */
import { diffLines, structuredPatch } from 'diff';
import { Types } from 'mongoose';
import { casLost, casWritten, compareAndSet } from './compare-and-set';
import type { FileDoc, FileVersionDoc, Models } from './models';
import { idFromKey, insertOnce } from './models';
import type { VersionAuthor } from '../core/domain';
import { countWords } from '../core/text';

export type FileRecord = FileDoc & { _id: Types.ObjectId };

export interface WriteMeta {
  author: VersionAuthor;
  agent?: string | null;
  turnId?: string | null;
  operation: string;
  /** Idempotency key for AI writes; omitted for author writes. */
  writeKey?: string;
  /**
   * The head version the new text was computed from. When set, the write lands only if the
   * head is still there (the unique (fileId, version) index is the atomic check); otherwise
   * it throws {@link VersionConflict} and nothing is written.
   */
  expectedVersion?: number;
  /**
   * The error for a file that does not exist, thrown before anything is written (a retry
   * that finds its version included). Without it a missing file is a plain, retried error.
   */
  missingFile?: () => Error;
  /**
   * Checked on the file this write read, before a fresh version is written (not when a retry
   * finds its version already there): a reason refuses the write with {@link WriteRefused}.
   * On a concurrent write the check runs again on the file as it is then.
   */
  refuse?: (file: FileDoc) => string | null;
  /** What the version records of an author's save besides its text (src/db/author-saves.ts). */
  record?: VersionRecordFields;
}

/** An author's save as its version records it: the saves folded into it, its open burst, the version a restore brought back. */
export interface VersionRecordFields {
  saves?: number;
  burst?: { userId: string; startedAt: Date };
  restoredFrom?: number;
}

/** A write its `refuse` check turned down; nothing was written. */
export class WriteRefused extends Error {
  constructor(
    readonly reason: string,
    readonly file: FileDoc | null,
  ) {
    super(`write refused: ${reason}`);
    this.name = new.target.name;
  }
}

export interface WrittenVersion {
  versionId: string;
  version: number;
  words: number;
  /** False when the key had already been written (a retry). */
  fresh: boolean;
  /** The file's title and type as this write read them (null: no such file). */
  file: { title: string; type: string } | null;
}

/** Someone wrote the file after the version a write was computed from: nothing was written. */
export class VersionConflict extends Error {
  constructor(
    readonly fileId: string,
    readonly expected: number,
    readonly head: number,
  ) {
    super(`file ${fileId} is at version ${head}, not ${expected}`);
    this.name = new.target.name;
  }
}

/** Inserts a file once: its id derives from a write key, so a retry finds it already there. */
export async function createFileOnce(models: Models, doc: { _id: string } & Record<string, unknown>): Promise<void> {
  await insertOnce(models.File, doc);
}

export async function findLiveFile(models: Models, projectId: string, fileId: string): Promise<FileRecord | null> {
  if (!Types.ObjectId.isValid(fileId)) return null;
  return (await models.File.findOne({ _id: fileId, projectId, deletedAt: null }).lean()) as FileRecord | null;
}

type VersionRecord = FileVersionDoc & { _id: Types.ObjectId };

/**
 * Appends a version and moves the file's head to it. Safe to call again with the same
 * writeKey: the second call returns the first call's version. With `expectedVersion` it is
 * a compare-and-set on the head; without it, a concurrent writer only makes it try the next
 * version number.
 * @throws VersionConflict when `expectedVersion` is no longer the head.
 */
export async function writeVersion(
  models: Models,
  fileId: string,
  content: string,
  meta: WriteMeta,
): Promise<WrittenVersion> {
  const versionId = meta.writeKey ? idFromKey(`version:${meta.writeKey}`) : new Types.ObjectId().toHexString();
  return compareAndSet<WrittenVersion>(`version of file ${fileId}`, async () => {
    // Both reads in one round trip (the file is read in vain only when a retry finds its version).
    const [existing, file] = await Promise.all([
      meta.writeKey ? (models.FileVersion.findById(versionId).lean() as Promise<VersionRecord | null>) : null,
      models.File.findById(fileId).lean(),
    ]);
    if (!file && meta.missingFile) throw meta.missingFile();
    const read = file ? { title: file.title, type: file.type } : null;
    if (existing) {
      await moveHead(
        models,
        fileId,
        existing.version,
        existing.content,
        existing.words,
        existing.author as VersionAuthor,
      );
      return casWritten({ versionId, version: existing.version, words: existing.words, fresh: false, file: read });
    }
    if (!file) throw new Error(`file ${fileId} vanished while writing`);
    const refused = meta.refuse?.(file);
    if (refused) throw new WriteRefused(refused, file);
    if (meta.expectedVersion !== undefined && file.versionCount !== meta.expectedVersion)
      throw new VersionConflict(fileId, meta.expectedVersion, file.versionCount);
    const version = file.versionCount + 1;
    const words = countWords(content);
    const inserted = await insertOnce(models.FileVersion, {
      _id: versionId,
      fileId,
      projectId: file.projectId,
      version,
      content,
      words,
      author: meta.author,
      agent: meta.agent ?? null,
      turnId: meta.turnId ?? null,
      operation: meta.operation,
      ...meta.record,
    });
    if (!inserted) {
      // Another writer took this version number. If its head move never happened (a crash
      // between the two writes), finish it, so the file does not stay behind its history.
      const taken = await latestVersion(models, fileId);
      if (taken)
        await moveHead(models, fileId, taken.version, taken.content, taken.words, taken.author as VersionAuthor);
      if (meta.expectedVersion !== undefined)
        throw new VersionConflict(fileId, meta.expectedVersion, taken?.version ?? version);
      return casLost;
    }
    await moveHead(models, fileId, version, content, words, meta.author);
    return casWritten({ versionId, version, words, fresh: true, file: read });
  });
}

async function moveHead(
  models: Models,
  fileId: string,
  version: number,
  content: string,
  words: number,
  author: VersionAuthor,
): Promise<void> {
  // Only move forward: a late retry must not roll the head back over a newer version.
  await models.File.updateOne(
    { _id: fileId, versionCount: { $lt: version } },
    { $set: { versionCount: version, content, words, latestAuthor: author, pendingTurnId: null } },
  );
}

export async function latestVersion(models: Models, fileId: string): Promise<VersionRecord | null> {
  return (await models.FileVersion.findOne({ fileId }).sort({ version: -1 }).lean()) as VersionRecord | null;
}

/**
 * Records that the model was given this version of the file in full in its context (the
 * `[full]` items). What counts is the request's start: a later, newer context item does not
 * move it, so an author edit made during generation is still noticed.
 */
export async function rememberSeen(models: Models, turnId: string, fileId: string, version: number): Promise<void> {
  await models.ReadSnapshot.updateOne(
    { _id: `${turnId}:${fileId}` },
    { $min: { version }, $setOnInsert: { turnId, fileId, kind: 'context' } },
    { upsert: true },
  );
}

/** Records a query_files full read in step `step` of agent run `run`. */
export async function rememberRead(
  models: Models,
  at: { turnId: string; fileId: string; version: number; run: number; step: number },
): Promise<void> {
  await models.ReadSnapshot.updateOne(
    { _id: `${at.turnId}:${at.fileId}:read:${at.step}` },
    {
      $max: { version: at.version },
      $setOnInsert: { turnId: at.turnId, fileId: at.fileId, kind: 'read', run: at.run, step: at.step },
    },
    { upsert: true },
  );
}

/**
 * The newest version of the file the model has seen in full in this request, or null when
 * it has not (then edits go by exact match only). Counts the `[full]` context at request
 * start, the request's own writes (its versions are its record, written before the head
 * moves), and — when `at` is given — query_files reads of the same agent run made in an
 * earlier step: a read's result reaches the model only at its next call, and a new run
 * (another agent, or a continuation) no longer has the read in its messages.
 */
export async function seenVersion(
  models: Models,
  turnId: string,
  fileId: string,
  at?: { run: number; step: number },
): Promise<number | null> {
  const [snaps, ownWrite] = await Promise.all([
    models.ReadSnapshot.find({ turnId, fileId }).lean(),
    models.FileVersion.findOne({ fileId, turnId, author: 'ai' }).sort({ version: -1 }).select({ version: 1 }).lean(),
  ]);
  const seen = snaps
    .filter((s) => s.kind !== 'read' || !at || (s.run === at.run && (s.step ?? Infinity) < at.step))
    .map((s) => s.version);
  if (ownWrite) seen.push(ownWrite.version);
  return seen.length ? Math.max(...seen) : null;
}

/** A readable unified diff (hunks only, one line of context), capped in length for tool results. */
export function unifiedDiff(then: string, now: string, maxChars = 6000): string {
  const patch = structuredPatch('before', 'after', withEol(then), withEol(now), '', '', { context: 1 });
  const text = patch.hunks
    .map((h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join('\n')}`)
    .join('\n');
  return text.length > maxChars ? `${text.slice(0, maxChars)}\n… (diff truncated)` : text;
}

/** Lines in `now` that were not in `then`, and lines removed, from a line diff (not a set). */
export function describeChange(
  then: string,
  now: string,
  max = 10,
): { added: string[]; removed: string[]; diff: string } {
  const { added, removed } = changedLines(then, now);
  return { added: added.slice(0, max), removed: removed.slice(0, max), diff: unifiedDiff(then, now) };
}

/** The author's net changes since the last version an AI wrote. */
export interface AuthorEdits {
  /** The last AI-written version; 0 when no AI ever wrote the file (it is all the author's). */
  sinceVersion: number;
  /** The head version the diff leads to. */
  version: number;
  /** Unified diff from the last AI version to the head ('' when the whole file is the author's). */
  diff: string;
  /** Paragraphs (lines) the author wrote or rewrote, as they stand in the head. */
  added: string[];
  /** Lines of the AI version the author removed. */
  removed: string[];
}

/** Line diffs compare whole lines: a last line without its newline is the same line as with one. */
const withEol = (t: string): string => (t === '' || t.endsWith('\n') ? t : `${t}\n`);

/** The non-blank lines (trimmed) a line diff from `then` to `now` adds and removes, in order. */
function changedLines(then: string, now: string): { added: string[]; removed: string[] } {
  const added: string[] = [];
  const removed: string[] = [];
  for (const part of diffLines(withEol(then), withEol(now))) {
    const lines = part.value
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    if (part.added) added.push(...lines);
    else if (part.removed) removed.push(...lines);
  }
  return { added, removed };
}

/**
 * The author's net diff since the last AI version, or null when no author version came
 * after it. Another module (context, working set) may call this to show `author_edits`.
 */
export async function authorEdits(models: Models, fileId: string): Promise<AuthorEdits | null> {
  const head = await latestVersion(models, fileId);
  if (!head || head.author !== 'author') return null;
  const lastAi = (await models.FileVersion.findOne({ fileId, author: 'ai' })
    .sort({ version: -1 })
    .lean()) as VersionRecord | null;
  const before = lastAi?.content ?? '';
  const { added, removed } = changedLines(before, head.content);
  return {
    sinceVersion: lastAi?.version ?? 0,
    version: head.version,
    diff: lastAi ? unifiedDiff(before, head.content) : '',
    added,
    removed,
  };
}

/** How many versions back authorship is traced; older lines count as written by that version's author. */
const BLAME_DEPTH = 100;

/**
 * Character ranges [start, end) of the head text that the author wrote: each line keeps
 * the author of the version that last changed it (a line-level blame over the history),
 * so an agent's edit elsewhere in the file does not make the author's paragraphs its own.
 */
export async function authorWrittenRanges(models: Models, fileId: string): Promise<[number, number][]> {
  if (!(await models.FileVersion.exists({ fileId, author: 'author' }))) return [];
  const versions = (
    await models.FileVersion.find({ fileId })
      .sort({ version: -1 })
      .limit(BLAME_DEPTH)
      .select({ content: 1, author: 1 })
      .lean()
  ).reverse();
  let text = '';
  let blame: string[] = [];
  for (const [i, v] of versions.entries()) {
    const next: string[] = [];
    let at = 0;
    for (const part of i === 0
      ? [{ added: true, removed: false, count: withEol(v.content).split('\n').length - 1 }]
      : diffLines(withEol(text), withEol(v.content))) {
      const count = part.count ?? 0;
      if (part.added) next.push(...Array<string>(count).fill(v.author));
      else if (!part.removed) next.push(...blame.slice(at, at + count));
      if (!part.added) at += count;
    }
    text = v.content;
    blame = next;
  }
  const ranges: [number, number][] = [];
  let offset = 0;
  text.split('\n').forEach((line, i) => {
    if (blame[i] === 'author' && line.trim()) ranges.push([offset, offset + line.length]);
    offset += line.length + 1;
  });
  return ranges;
}

/** Whether [start, end) overlaps one of `ranges`. */
export const overlapsRanges = (ranges: [number, number][], start: number, end: number): boolean =>
  ranges.some(([s, e]) => start < e && s < end);

/**
 * Lines the author added after the last AI-written version (kept for callers that want
 * lines; {@link authorEdits} has the whole diff).
 */
export async function authorLines(models: Models, fileId: string): Promise<string[]> {
  return (await authorEdits(models, fileId))?.added ?? [];
}
