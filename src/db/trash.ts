/**
 * The trash. A delete (the author's or an agent's) only stamps files with `deletedAt` and
 * the delete's batch id; their versions stay, so an undelete brings back the file exactly
 * as it was, history and all. A folder's recursive delete trashes its contents under the
 * folder's batch, and undeleting the folder brings that batch back (not files deleted on
 * their own before). After the retention period the trash is purged for good.
 *
 * Purging is lazy (FerretDB v1 has no TTL indexes, and a TTL index could not take the
 * versions along anyway): every read of the trash treats an expired file as gone, and the
 * file routes purge a project's expired trash when they touch the project. So correctness
 * never waits for a sweep; only the storage does.
 */
import type { Models } from './models';
import type { FileRecord } from './file-store';

const DAY_MS = 86_400_000;

/** Files trashed at or before this moment are past retention. */
export const trashCutoff = (now: Date, retentionDays: number): Date => new Date(now.getTime() - retentionDays * DAY_MS);

/** When a file trashed at `deletedAt` is purged. */
export const purgeAt = (deletedAt: Date, retentionDays: number): Date =>
  new Date(deletedAt.getTime() + retentionDays * DAY_MS);

export interface TrashStamp {
  /** One id per delete operation. */
  batch: string;
  /** The file the delete was aimed at. */
  rootId: string;
  now: Date;
  /** Idempotency key of an agent's delete_file call (lets a retry recognise its own delete). */
  key?: string | null;
}

/**
 * Moves live files to the trash under one batch. Files already in the trash keep their own
 * batch. A target given with `versionCount` moves only if nobody wrote it since it was
 * checked (an agent's delete must not take an author edit that landed meanwhile).
 */
export async function moveToTrash(
  models: Models,
  targets: { id: string; versionCount?: number }[],
  stamp: TrashStamp,
): Promise<void> {
  if (!targets.length) return;
  await models.File.updateMany(
    {
      $or: targets.map((t) => ({
        _id: t.id,
        ...(t.versionCount !== undefined ? { versionCount: t.versionCount } : {}),
      })),
      deletedAt: null,
    },
    {
      $set: {
        deletedAt: stamp.now,
        deletedBatch: stamp.batch,
        deletedWith: stamp.rootId,
        deletedByKey: stamp.key ?? null,
        pendingTurnId: null,
      },
    },
  );
}

/** Files in a project's trash that are still restorable, newest delete first (no content). */
export async function listTrash(
  models: Models,
  q: { projectId: string; ownerId: string; cutoff: Date; type?: string; limit: number },
): Promise<FileRecord[]> {
  return (await models.File.find({
    projectId: q.projectId,
    ownerId: q.ownerId,
    deletedAt: { $ne: null, $gt: q.cutoff },
    ...(q.type ? { type: q.type } : {}),
  })
    .select({ content: 0 })
    .sort({ deletedAt: -1, order: 1 })
    .limit(q.limit)
    .lean()) as FileRecord[];
}

/**
 * Deletes for good what has been in the trash longer than the retention period: the
 * versions first, then the files, so an interrupted purge leaves only expired (invisible)
 * files behind for the next one.
 * @returns how many files were purged.
 */
export async function purgeExpiredTrash(models: Models, q: { cutoff: Date; projectId?: string }): Promise<number> {
  const expired = { ...(q.projectId ? { projectId: q.projectId } : {}), deletedAt: { $ne: null, $lte: q.cutoff } };
  const ids = (await models.File.find(expired).select({ _id: 1 }).lean()).map((f) => String(f._id));
  if (!ids.length) return 0;
  await models.FileVersion.deleteMany({ fileId: { $in: ids } });
  await models.ReadSnapshot.deleteMany({ fileId: { $in: ids } });
  await models.File.deleteMany({ _id: { $in: ids }, ...expired });
  return ids.length;
}

export interface RestoredFile {
  id: string;
  title: string;
  type: string;
  /** The title it had in the trash, when a live file has taken that title meanwhile. */
  renamedFrom?: string;
  /** Its folder is gone (or still in the trash): it comes back at the top level. */
  movedToTop?: true;
}

export type UndeleteResult =
  { status: 'not_found' } | { status: 'not_deleted' } | { status: 'restored'; restored: RestoredFile[] };

/** The folder's contents trashed by the same delete (walked down by parent, so only its own). */
async function batchOf(models: Models, root: FileRecord): Promise<FileRecord[]> {
  if (root.type !== 'folder') return [root];
  // Files trashed before batches existed share the exact `deletedAt` of their folder's delete.
  const sameDelete = root.deletedBatch
    ? { deletedBatch: root.deletedBatch }
    : { deletedBatch: null, deletedAt: root.deletedAt };
  const candidates = (await models.File.find({ projectId: root.projectId, ...sameDelete, deletedAt: { $ne: null } })
    .select({ content: 0 })
    .lean()) as FileRecord[];
  const out = [root];
  for (let i = 0; i < out.length; i++)
    out.push(...candidates.filter((c) => c.parentId === String(out[i]!._id) && !out.includes(c)));
  return out;
}

function freeTitle(title: string, taken: Set<string>): string {
  if (!taken.has(title)) return title;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${title} (restored)` : `${title} (restored ${n})`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Brings a trashed file (a folder: with what its delete trashed) back. Never touches a live
 * file: a restored file whose title a live file now has is renamed "… (restored)", and one
 * whose folder is not live comes back at the top level. Contents are restored before the
 * folder, so a retry after a crash finds the folder still in the trash and finishes.
 */
export async function undeleteFile(
  models: Models,
  q: { fileId: string; ownerId: string; cutoff: Date },
): Promise<UndeleteResult> {
  const root = (await models.File.findOne({ _id: q.fileId, ownerId: q.ownerId })
    .select({ content: 0 })
    .lean()) as FileRecord | null;
  if (!root) return { status: 'not_found' };
  if (!root.deletedAt) return { status: 'not_deleted' };
  // Past retention it is gone, whether or not the purge has run yet.
  if (root.deletedAt <= q.cutoff) return { status: 'not_found' };

  const files = await batchOf(models, root);
  const ids = new Set(files.map((f) => String(f._id)));
  const live = await models.File.find({ projectId: root.projectId, deletedAt: null }).select({ title: 1 }).lean();
  const taken = new Set(live.filter((f) => !ids.has(String(f._id))).map((f) => f.title));
  const parentLive = root.parentId
    ? await models.File.exists({ _id: root.parentId, projectId: root.projectId, deletedAt: null })
    : true;

  const restored: RestoredFile[] = [];
  for (const f of [...files].reverse()) {
    const id = String(f._id);
    const title = freeTitle(f.title, taken);
    taken.add(title);
    const toTop = id === String(root._id) && !parentLive;
    const set: Record<string, unknown> = { deletedAt: null, deletedBatch: null, deletedWith: null, title };
    if (toTop) set.parentId = null;
    await models.File.updateOne({ _id: id, deletedAt: { $ne: null } }, { $set: set });
    restored.unshift({
      id,
      title,
      type: f.type,
      ...(title !== f.title ? { renamedFrom: f.title } : {}),
      ...(toTop ? { movedToTop: true as const } : {}),
    });
  }
  return { status: 'restored', restored };
}
