/**
 * Project files and their history. Reads never return another owner's file (404, like a
 * missing one). Author writes go through the same `writeVersion` as the agents' tools, so
 * every author change is a new version marked `author` — which is what the agents' author
 * protection keys on — and a restore is a new version too: history only grows.
 */
import { Router } from 'express';
import type { AppDeps } from '../context';
import { userOf } from '../auth';
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import { ownedFile, ownedProject } from '../ownership';
import { presentFile, presentFileSummary, presentVersion } from '../present';
import {
  createFileBody,
  deleteFileQuery,
  editFileBody,
  fileListQuery,
  listFilesQuery,
  restoreVersionBody,
  versionParam,
} from '../schemas';
import { sendJson } from '../json-response';
import { inTreeOrder } from '../../core/book/chapter-order';
import { parseBody, parseId, parseQuery } from '../validation';
import { type FileDoc, type Models, newId } from '../../db/models';
import type { z } from 'zod';
import { VersionConflict, writeVersion } from '../../db/file-store';
import { type AuthorSaveResult, saveAuthorText } from '../../db/author-saves';
import { listTrash, moveToTrash, purgeAt, purgeExpiredTrash, trashCutoff, undeleteFile } from '../../db/trash';

/**
 * A file's versions, oldest first, without their text (each is one `GET …/versions/{n}` away).
 * An autosave burst is one entry: the versions folded into its last are left out.
 */
async function versionHistory(models: Models, fileId: string) {
  const versions = await models.FileVersion.find({ fileId, foldedInto: { $exists: false } })
    .select({ content: 0 })
    .sort({ version: 1 })
    .lean();
  return versions.map((v) => presentVersion(v));
}

async function fileWithVersions(models: Models, userId: string, fileId: string) {
  const file = await ownedFile(models, userId, fileId);
  return { ...presentFile(file), versions: await versionHistory(models, fileId) };
}

function parseVersion(value: unknown): number {
  const r = versionParam.safeParse(value);
  if (!r.success) throw new BadRequestError('version must be a positive integer', undefined, 'invalid_version');
  return r.data;
}

/** A trashed file as the trash lists it: when it was deleted, with what, and when it goes for good. */
function presentTrashed(f: FileDoc, retentionDays: number) {
  return {
    ...presentFileSummary(f),
    deletedAt: f.deletedAt,
    deletedWith: f.deletedWith === String(f._id) ? null : f.deletedWith,
    purgeAt: f.deletedAt ? purgeAt(f.deletedAt, retentionDays) : null,
  };
}

/** What the files routes share about the trash: how long it keeps files and where that cuts off now. */
interface TrashPolicy {
  retentionDays: number;
  cutoff: () => Date;
}

/**
 * Live files in the manuscript's order (core/book/chapter-order), a page at a time: `total` and
 * `counts` (per type) describe the whole list, `nextOffset` is where the next page starts
 * (null on the last), so a client never mistakes a first page for the whole book. With
 * `deleted=true`, the trash (expired trash is purged here, lazily: reading the live files
 * leaves it alone, since every trash read already treats an expired file as gone).
 */
async function listFiles(
  models: Models,
  trash: TrashPolicy,
  userId: string,
  projectId: string,
  q: z.infer<typeof listFilesQuery>,
) {
  await ownedProject(models, userId, projectId);
  if (q.deleted === 'true') {
    await purgeExpiredTrash(models, { projectId, cutoff: trash.cutoff() });
    const trashed = await listTrash(models, {
      projectId,
      ownerId: userId,
      cutoff: trash.cutoff(),
      type: q.type,
      limit: q.limit,
    });
    return { items: trashed.map((f) => presentTrashed(f, trash.retentionDays)) };
  }
  const filter = { projectId, ownerId: userId, deletedAt: null, ...(q.type ? { type: q.type } : {}) };
  // The whole list is read to order it: chapter numbers live in titles, which no index sorts.
  const all = (await models.File.find(filter).select({ content: 0 }).lean()).map((f) => ({ ...f, id: String(f._id) }));
  const ordered = inTreeOrder(all);
  const counts: Record<string, number> = {};
  for (const f of ordered) counts[f.type] = (counts[f.type] ?? 0) + 1;
  const page = ordered.slice(q.offset, q.offset + q.limit);
  const next = q.offset + page.length;
  return {
    items: page.map(presentFileSummary),
    total: ordered.length,
    counts,
    offset: q.offset,
    nextOffset: next < ordered.length ? next : null,
  };
}

/** An author's new file (in a folder of theirs when `parentId` names one) with its first version; returns its id. */
async function createFile(models: Models, userId: string, body: z.infer<typeof createFileBody>): Promise<string> {
  await ownedProject(models, userId, body.projectId);
  if (body.parentId) {
    const parent = await models.File.findOne({
      _id: body.parentId,
      projectId: body.projectId,
      ownerId: userId,
      deletedAt: null,
    }).lean();
    if (!parent) throw new NotFoundError('parent folder');
    if (parent.type !== 'folder')
      throw new BadRequestError(
        'parentId is not a folder',
        { fields: [{ path: 'parentId', message: 'not a folder' }] },
        'invalid_parent',
      );
  }
  const order =
    body.order ?? (await models.File.countDocuments({ projectId: body.projectId, parentId: body.parentId ?? null }));
  const file = await models.File.create({
    projectId: body.projectId,
    ownerId: userId,
    type: body.type,
    title: body.title,
    parentId: body.parentId ?? null,
    order,
    latestAuthor: 'author',
    importance: body.importance ?? null,
    importanceSetBy: body.importance ? 'author' : null,
  });
  const fileId = String(file._id);
  try {
    await writeVersion(models, fileId, body.content ?? '', { author: 'author', operation: 'author_create' });
  } catch (err) {
    // No transactions on FerretDB: undo the half-created file rather than leave it versionless.
    await models.File.deleteOne({ _id: fileId, versionCount: 0 }).catch(() => undefined);
    throw err;
  }
  return fileId;
}

/**
 * An author edit. `baseVersion` is the version the author started from: if anyone (an
 * agent, another tab) wrote since, the edit is refused with the head version instead of
 * silently replacing their work. Saving unchanged content adds no version. An editor's
 * `autosave` folds into the author's open burst of autosaves (src/db/author-saves.ts).
 */
async function editFile(
  deps: AppDeps,
  userId: string,
  fileId: string,
  body: z.infer<typeof editFileBody>,
): Promise<AuthorSaveResult> {
  const { models } = deps;
  const file = await ownedFile(models, userId, fileId);
  const conflict = (head: number, latestAuthor: string) =>
    new ConflictError(
      `the file is at version ${head}, not ${body.baseVersion}: reload it and apply your edit again`,
      { version: head, latestAuthor },
      'version_conflict',
    );
  if (body.autosave && body.baseVersion === undefined)
    throw new BadRequestError(
      'an autosave needs the version it was made from',
      { fields: [{ path: 'baseVersion', message: 'required with autosave' }] },
      'invalid_body',
    );
  if (body.baseVersion !== undefined && body.baseVersion !== file.versionCount)
    throw conflict(file.versionCount, file.latestAuthor);
  if (body.importance !== undefined)
    await models.File.updateOne({ _id: fileId }, { $set: { importance: body.importance, importanceSetBy: 'author' } });
  let saved: AuthorSaveResult;
  try {
    // The base version is checked by the write itself: an agent's version landing after
    // the check above still makes this a 409, never a silent overwrite of it.
    saved = await saveAuthorText(models, file, {
      fileId,
      userId,
      content: body.content,
      baseVersion: body.baseVersion,
      autosave: body.autosave ?? false,
      now: deps.clock(),
      burstMs: deps.config.AUTOSAVE_BURST_MINUTES * 60_000,
    });
  } catch (err) {
    if (!(err instanceof VersionConflict)) throw err;
    const head = await models.File.findById(fileId).select({ latestAuthor: 1 }).lean();
    throw conflict(err.head, head?.latestAuthor ?? 'ai');
  }
  if (body.title !== undefined && body.title !== file.title)
    await models.File.updateOne({ _id: fileId }, { $set: { title: body.title } });
  return saved;
}

/** Soft delete into the trash: versions stay. A folder with live children needs `recursive`. */
async function trashFile(
  deps: AppDeps,
  trash: TrashPolicy,
  userId: string,
  fileId: string,
  recursive: boolean,
): Promise<void> {
  const { models } = deps;
  const file = await ownedFile(models, userId, fileId);
  const ids = [fileId];
  for (let i = 0; i < ids.length && file.type === 'folder'; i++) {
    const children = await models.File.find({ projectId: file.projectId, parentId: ids[i], deletedAt: null })
      .select({ _id: 1 })
      .lean();
    if (children.length && !recursive)
      throw new ConflictError(
        `"${file.title}" is not empty; pass ?recursive=true to delete it with its contents`,
        undefined,
        'folder_not_empty',
      );
    ids.push(...children.map((c) => String(c._id)));
  }
  await moveToTrash(
    models,
    ids.map((id) => ({ id })),
    { batch: newId(), rootId: fileId, now: deps.clock() },
  );
  await purgeExpiredTrash(models, { projectId: file.projectId, cutoff: trash.cutoff() });
}

export function filesRouter(deps: AppDeps): Router {
  const r = Router();
  const retentionDays = deps.config.FILE_TRASH_RETENTION_DAYS;
  const trash: TrashPolicy = { retentionDays, cutoff: () => trashCutoff(deps.clock(), retentionDays) };
  fileReadRoutes(r, deps.models, trash);
  fileWriteRoutes(r, deps, trash);
  return r;
}

/** Reading: a project's files (or its trash), one file, its versions and one version's text. */
function fileReadRoutes(r: Router, models: Models, trash: TrashPolicy): void {
  r.get('/projects/:projectId/files', async (req, res) => {
    const projectId = parseId(req.params.projectId, 'projectId');
    const q = parseQuery(listFilesQuery, req.query);
    sendJson(req, res, await listFiles(models, trash, userOf(req), projectId, q));
  });

  r.get('/files', async (req, res) => {
    const q = parseQuery(fileListQuery, req.query);
    sendJson(req, res, await listFiles(models, trash, userOf(req), q.projectId, q));
  });

  r.get('/files/:fileId', async (req, res) => {
    res.json(await fileWithVersions(models, userOf(req), parseId(req.params.fileId, 'fileId')));
  });

  r.get('/files/:fileId/versions', async (req, res) => {
    const fileId = parseId(req.params.fileId, 'fileId');
    const file = await ownedFile(models, userOf(req), fileId);
    res.json({
      fileId,
      title: file.title,
      headVersion: file.versionCount,
      items: await versionHistory(models, fileId),
    });
  });

  r.get('/files/:fileId/versions/:version', async (req, res) => {
    const fileId = parseId(req.params.fileId, 'fileId');
    const version = parseVersion(req.params.version);
    await ownedFile(models, userOf(req), fileId);
    const v = await models.FileVersion.findOne({ fileId, version }).lean();
    if (!v) throw new NotFoundError(`version ${version}`);
    res.json({ fileId, ...presentVersion(v, true) });
  });
}

/** Writing as the author: create, edit, restore a version, bring back from the trash, delete. */
function fileWriteRoutes(r: Router, deps: AppDeps, trash: TrashPolicy): void {
  const { models } = deps;

  r.post('/files', async (req, res) => {
    const body = parseBody(createFileBody, req.body);
    const userId = userOf(req);
    const fileId = await createFile(models, userId, body);
    res.status(201).json(await fileWithVersions(models, userId, fileId));
  });

  r.put('/files/:fileId', async (req, res) => {
    const fileId = parseId(req.params.fileId, 'fileId');
    const body = parseBody(editFileBody, req.body);
    const userId = userOf(req);
    const { changed, folded } = await editFile(deps, userId, fileId, body);
    res.json({ ...(await fileWithVersions(models, userId, fileId)), changed, folded });
  });

  r.post('/files/:fileId/restore', async (req, res) => {
    const fileId = parseId(req.params.fileId, 'fileId');
    const body = parseBody(restoreVersionBody, req.body);
    const userId = userOf(req);
    await ownedFile(models, userId, fileId);
    const source = await models.FileVersion.findOne({ fileId, version: body.version }).lean();
    if (!source) throw new NotFoundError(`version ${body.version}`);
    await writeVersion(models, fileId, source.content, {
      author: 'author',
      operation: 'restore',
      record: { restoredFrom: body.version },
    });
    res.status(201).json({ ...(await fileWithVersions(models, userId, fileId)), restoredFrom: body.version });
  });

  /**
   * Brings a file back from the trash with its versions; a folder with what its delete took.
   * A live file is never overwritten: a title taken meanwhile gets "(restored)" appended.
   */
  r.post('/files/:fileId/undelete', async (req, res) => {
    const fileId = parseId(req.params.fileId, 'fileId');
    const userId = userOf(req);
    const result = await undeleteFile(models, { fileId, ownerId: userId, cutoff: trash.cutoff() });
    if (result.status === 'not_found') throw new NotFoundError('file');
    if (result.status === 'not_deleted')
      throw new ConflictError('the file is not in the trash', undefined, 'not_deleted');
    res.json({ ...(await fileWithVersions(models, userId, fileId)), restored: result.restored });
  });

  r.delete('/files/:fileId', async (req, res) => {
    const fileId = parseId(req.params.fileId, 'fileId');
    const q = parseQuery(deleteFileQuery, req.query);
    await trashFile(deps, trash, userOf(req), fileId, q.recursive === 'true');
    res.status(204).end();
  });
}
