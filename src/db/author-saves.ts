/**
 * The author's saves from Studio's editor, and how a burst of autosaves becomes one version.
 *
 * The editor saves after every pause in typing (about 1.5 s), so an hour of writing makes
 * hundreds of saves; the history should show what the author did, not every pause. The rules:
 *
 * - Every save that changes the text makes a new, higher version number, as any write does.
 *   The number is what every writer compares — the author's `baseVersion`, the
 *   `expectedVersion` of the agents' edits, the `stale_content` check against the version a
 *   turn read — so a change that kept the number would let an agent's edit, computed from
 *   the older text, land over the author's newer one.
 * - An autosave folds into the head when the head is an open burst of the same user that
 *   began less than the window (`AUTOSAVE_BURST_MINUTES`, default 10) ago: the new version
 *   carries the burst's start and its count of saves, and the version it replaces leaves the
 *   history. That version is deleted, unless a turn of the project is running: the turn may
 *   have read it and will compare with it (`stale_content` lists the changes since), so it
 *   stays, hidden from the history, until a later fold finds the project quiet.
 * - A burst ends when it is older than the window, when anything else becomes the head (an
 *   agent's write, a restore), or when the author saves by hand: a save without `autosave`
 *   (Ctrl+S, the Save button, leaving the file) folds its text into the open burst and closes
 *   it; the same text saved again only closes it.
 * - A save that takes out more than {@link BIG_CUT} characters does not fold: the text from
 *   before the cut stays a version of its own, restorable from the history. What stood before
 *   a burst is always kept; text a burst wrote and took out again in small steps is not.
 * - Numbers in the history therefore skip (3, 7, 8): a number names a text, it does not count them.
 */
import { ACTIVE_TURN_STATUSES } from '../core/domain';
import { type VersionRecordFields, VersionConflict, writeVersion } from './file-store';
import type { FileDoc, FileVersionDoc, Models } from './models';

/** A save that removes more characters than this starts a new version instead of folding. */
export const BIG_CUT = 500;

export interface AuthorSave {
  fileId: string;
  userId: string;
  content: string;
  /** The version the author's text is an edit of; required for an autosave. */
  baseVersion?: number;
  autosave: boolean;
  now: Date;
  /** How long a burst may fold saves in, from its first save. */
  burstMs: number;
}

export interface AuthorSaveResult {
  changed: boolean;
  /** The head version after the save. */
  version: number;
  /** Whether the save took the place of the head (one entry in the history, not two). */
  folded: boolean;
}

type VersionRecord = FileVersionDoc & { _id: unknown };

/** An open burst at the head: its version and when the burst began. */
interface OpenBurst {
  head: VersionRecord;
  startedAt: Date;
}

/** The head version when the author's next save may fold into it: their open burst, begun within the window. */
async function openBurst(models: Models, file: FileDoc, save: AuthorSave): Promise<OpenBurst | null> {
  if (file.latestAuthor !== 'author' || !file.versionCount) return null;
  const head = (await models.FileVersion.findOne({
    fileId: save.fileId,
    version: file.versionCount,
  }).lean()) as VersionRecord | null;
  const burst = head?.burst;
  if (!head || head.author !== 'author' || !burst?.startedAt || burst.userId !== save.userId) return null;
  const startedAt = new Date(burst.startedAt);
  return save.now.getTime() - startedAt.getTime() < save.burstMs ? { head, startedAt } : null;
}

/**
 * How many characters of `before` are gone from `after`, taking the edit as one span between
 * their common start and common end (two edits far apart count as one large one: the safe side).
 */
export function cutSize(before: string, after: string): number {
  const max = Math.min(before.length, after.length);
  let start = 0;
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end))
    end++;
  return before.length - start - end;
}

/**
 * Saves the author's text as a new version, folding an autosave burst into one (see above).
 * The caller has checked ownership and that `baseVersion` was the head when it read `file`.
 * @throws VersionConflict when someone wrote after `baseVersion`: nothing was written.
 */
export async function saveAuthorText(models: Models, file: FileDoc, save: AuthorSave): Promise<AuthorSaveResult> {
  const open = await openBurst(models, file, save);
  const changed = save.content !== file.content || file.versionCount === 0;
  if (!changed) {
    // The author's hand save (or leaving the file) closes the burst: the next autosave starts a new entry.
    if (open && !save.autosave) await models.FileVersion.updateOne({ _id: open.head._id }, { $unset: { burst: 1 } });
    return { changed: false, version: file.versionCount, folded: false };
  }
  const fold = open && cutSize(file.content, save.content) <= BIG_CUT ? open : null;
  const operation = save.autosave ? 'author_autosave' : 'author_edit';
  const burst = (startedAt: Date) => (save.autosave ? { burst: { userId: save.userId, startedAt } } : {});
  const fresh: VersionRecordFields = save.autosave ? { saves: 1, ...burst(save.now) } : {};
  const record: VersionRecordFields = fold ? { saves: (fold.head.saves ?? 1) + 1, ...burst(fold.startedAt) } : fresh;
  // A fold replaces the head it read, so it must land right on that head.
  const expectedVersion = save.baseVersion ?? (fold ? file.versionCount : undefined);
  try {
    const written = await writeVersion(models, save.fileId, save.content, {
      author: 'author',
      operation,
      expectedVersion,
      record,
    });
    if (fold) await retire(models, file.projectId, save.fileId, fold.head, written.version);
    return { changed: true, version: written.version, folded: !!fold };
  } catch (err) {
    // A save without a base never conflicted: someone wrote meanwhile, so it is a version of its own.
    if (!(err instanceof VersionConflict) || save.baseVersion !== undefined) throw err;
    const written = await writeVersion(models, save.fileId, save.content, {
      author: 'author',
      operation,
      record: fresh,
    });
    return { changed: true, version: written.version, folded: false };
  }
}

/**
 * Takes a folded version out of the history. A running turn of the project may have read it
 * (its `stale_content` check shows the changes since that text), so while one runs it is
 * only hidden; once the project is quiet it goes, with any hidden earlier.
 */
async function retire(
  models: Models,
  projectId: string,
  fileId: string,
  folded: VersionRecord,
  into: number,
): Promise<void> {
  const busy = await models.Turn.exists({ projectId, status: { $in: ACTIVE_TURN_STATUSES } });
  if (busy) {
    await models.FileVersion.updateOne({ _id: folded._id }, { $set: { foldedInto: into }, $unset: { burst: 1 } });
    return;
  }
  await models.FileVersion.deleteMany({ fileId, $or: [{ _id: folded._id }, { foldedInto: { $gt: 0 } }] });
}
