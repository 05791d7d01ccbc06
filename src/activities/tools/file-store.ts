/**
 * File storage with versions. Every write is keyed: an AI write derives its version _id
 * from the tool call's idempotency key, so a retry after a crash finds the version it
 * already wrote instead of adding another. Author writes get fresh ids.
 */
import { Types } from 'mongoose';
import type { FileDoc, FileVersionDoc, Models } from '../../db/models';
import { idFromKey, isDuplicateKey } from '../../db/models';
import { BODY_FILE_TYPES, type FileType, type VersionAuthor } from '../../shared/domain';
import { countWords } from '../../shared/text';

export type FileRecord = FileDoc & { _id: Types.ObjectId };

export interface WriteMeta {
  author: VersionAuthor;
  agent?: string | null;
  turnId?: string | null;
  operation: string;
  /** Idempotency key for AI writes; omitted for author writes. */
  writeKey?: string;
}

export interface WrittenVersion {
  versionId: string;
  version: number;
  words: number;
  /** False when the key had already been written (a retry). */
  fresh: boolean;
}

export const isBodyType = (t: string): boolean => BODY_FILE_TYPES.includes(t as FileType);

export async function findLiveFile(models: Models, projectId: string, fileId: string): Promise<FileRecord | null> {
  if (!Types.ObjectId.isValid(fileId)) return null;
  return (await models.File.findOne({ _id: fileId, projectId, deletedAt: null }).lean()) as FileRecord | null;
}

/**
 * Appends a version and moves the file's head to it. Safe to call again with the same
 * writeKey: the second call returns the first call's version.
 */
export async function writeVersion(models: Models, fileId: string, content: string, meta: WriteMeta): Promise<WrittenVersion> {
  const versionId = meta.writeKey ? idFromKey(`version:${meta.writeKey}`) : new Types.ObjectId().toHexString();
  for (let tries = 0; tries < 5; tries++) {
    if (meta.writeKey) {
      const existing = (await models.FileVersion.findById(versionId).lean()) as (FileVersionDoc & { _id: Types.ObjectId }) | null;
      if (existing) {
        await moveHead(models, fileId, existing.version, existing.content, existing.words, existing.author as VersionAuthor);
        return { versionId, version: existing.version, words: existing.words, fresh: false };
      }
    }
    const file = await models.File.findById(fileId).lean();
    if (!file) throw new Error(`file ${fileId} vanished while writing`);
    const version = file.versionCount + 1;
    const words = countWords(content);
    try {
      await models.FileVersion.create({
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
      });
    } catch (err) {
      // Same (fileId, version) written concurrently (an author edit): re-read and try again.
      if (isDuplicateKey(err)) continue;
      throw err;
    }
    await moveHead(models, fileId, version, content, words, meta.author);
    return { versionId, version, words, fresh: true };
  }
  throw new Error(`could not write a version of ${fileId}: too many concurrent writers`);
}

async function moveHead(models: Models, fileId: string, version: number, content: string, words: number, author: VersionAuthor): Promise<void> {
  // Only move forward: a late retry must not roll the head back over a newer version.
  await models.File.updateOne(
    { _id: fileId, versionCount: { $lt: version } },
    { $set: { versionCount: version, content, words, latestAuthor: author, pendingTurnId: null } },
  );
}

export async function latestVersion(models: Models, fileId: string): Promise<(FileVersionDoc & { _id: Types.ObjectId }) | null> {
  return (await models.FileVersion.findOne({ fileId }).sort({ version: -1 }).lean()) as (FileVersionDoc & { _id: Types.ObjectId }) | null;
}

/** Records that the model saw this version of the file in full during the turn. */
export async function rememberSeen(models: Models, turnId: string, fileId: string, version: number): Promise<void> {
  await models.ReadSnapshot.updateOne({ _id: `${turnId}:${fileId}` }, { $max: { version }, $setOnInsert: { turnId, fileId } }, { upsert: true });
}

export async function seenVersion(models: Models, turnId: string, fileId: string): Promise<number | null> {
  const snap = await models.ReadSnapshot.findById(`${turnId}:${fileId}`).lean();
  return snap ? snap.version : null;
}

/**
 * Lines the author added after the last AI-written version: the author's net edits,
 * which the model must keep (seed 001: `author_changes.py`).
 */
export async function authorLines(models: Models, fileId: string): Promise<string[]> {
  const versions = await models.FileVersion.find({ fileId }).sort({ version: 1 }).select({ content: 1, author: 1 }).lean();
  let lastAi = '';
  let authorWroteAfter = false;
  for (const v of versions) {
    if (v.author === 'ai') {
      lastAi = v.content;
      authorWroteAfter = false;
    } else authorWroteAfter = true;
  }
  const head = versions[versions.length - 1];
  if (!head || !authorWroteAfter) return [];
  const before = new Set(lastAi.split('\n').map((l) => l.trim()));
  return head.content
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !before.has(l));
}

/** Lines in `now` that were not in `then`, and lines removed: a compact change list. */
export function describeChange(then: string, now: string, max = 10): { added: string[]; removed: string[] } {
  const a = new Set(then.split('\n').map((l) => l.trim()).filter(Boolean));
  const b = new Set(now.split('\n').map((l) => l.trim()).filter(Boolean));
  return {
    added: [...b].filter((l) => !a.has(l)).slice(0, max),
    removed: [...a].filter((l) => !b.has(l)).slice(0, max),
  };
}
