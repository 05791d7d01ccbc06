/**
 * delete_file against MongoDB: the file (a folder with its contents, when asked to recurse)
 * moved to the trash with its versions, never erased; author-written files inside are
 * protected unless each is named. Returns a result body for the model plus the file events to
 * stream; never throws for a bad request.
 */
import type { ToolArgs } from '../../core/model/tool-schemas';
import { draft } from '../../core/events';
import { idFromKey } from '../../db/models';
import { type FileRecord, findLiveFile } from '../../db/file-store';
import { protectAuthorFiles } from './author-protection';
import { moveToTrash } from '../../db/trash';
import { failure, type ToolContext, type ToolExecution } from './types';

export async function deleteFile(ctx: ToolContext, args: ToolArgs<'delete_file'>): Promise<ToolExecution> {
  const { models } = ctx;
  // A retry after the delete committed finds its own delete, not a missing file.
  const done = await models.File.find({ projectId: ctx.projectId, deletedByKey: ctx.key }).lean();
  if (done.length) return deleteResult(ctx, args.id, done as FileRecord[]);
  const file = await findLiveFile(models, ctx.projectId, args.id);
  if (!file) return failure('delete_file', 'not_found', `No file with id ${args.id} in this project.`);
  const targets = [file];
  if (file.type === 'folder') {
    const queue = [String(file._id)];
    while (queue.length) {
      const children = await models.File.find({
        projectId: ctx.projectId,
        parentId: queue.shift(),
        deletedAt: null,
      }).lean();
      if (children.length && !args.recursive)
        return failure(
          'delete_file',
          'folder_not_empty',
          `"${file.title}" is not empty; pass recursive=true to delete it with its contents.`,
        );
      for (const c of children) {
        targets.push(c as typeof file);
        queue.push(String(c._id));
      }
    }
  }
  // Author protection: each author-written file, also inside a folder, must itself be named with "delete" (or approved).
  const refused = await protectAuthorFiles(ctx, 'delete_file', 'delete', targets);
  if (refused) return refused;
  // Into the trash, not gone: the author can undelete it (with its versions) until retention ends.
  const checked = targets.map((t) => ({ id: String(t._id), versionCount: t.versionCount }));
  await moveToTrash(models, checked, {
    batch: idFromKey(`trash:${ctx.key}`),
    rootId: args.id,
    now: new Date(),
    key: ctx.key,
  });
  const trashed = (await models.File.find({ projectId: ctx.projectId, deletedByKey: ctx.key }).lean()) as FileRecord[];
  // A file written after the check above (the author saving meanwhile) stayed where it was.
  const kept = targets.filter((t) => !trashed.some((x) => String(x._id) === String(t._id)));
  if (!trashed.length)
    return failure(
      'delete_file',
      'stale_content',
      `"${file.title}" changed while it was being deleted, so it was kept; read it again before deciding.`,
      { id: args.id },
    );
  const result = deleteResult(ctx, args.id, trashed);
  if (kept.length)
    Object.assign(result.body, { kept_changed_meanwhile: kept.map((t) => ({ id: String(t._id), title: t.title })) });
  return result;
}

function deleteResult(ctx: ToolContext, id: string, targets: FileRecord[]): ToolExecution {
  const file = targets.find((t) => String(t._id) === id) ?? targets[0]!;
  return {
    body: {
      ok: true,
      deleted: targets.map((t) => ({ id: String(t._id), title: t.title })),
      in_trash: true,
      note: 'Moved to the trash with its versions: the author can undelete it.',
    },
    outcome: { name: 'delete_file', ok: true, fileId: id, fileType: file.type, title: file.title, op: 'deleted' },
    events: targets.map((t) =>
      ctx.event(
        draft('file_updated', {
          fileId: String(t._id),
          title: t.title,
          fileType: t.type,
          versionId: '',
          words: 0,
          operation: 'delete',
        }),
      ),
    ),
  };
}
