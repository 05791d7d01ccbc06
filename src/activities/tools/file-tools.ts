/**
 * create_file, edit_file, delete_file, query_files against MongoDB. Each returns a result
 * body for the model plus the file events to stream; none throws for a bad request.
 */
import type { ToolArgs } from '../../core/model/tool-schemas';
import { draft } from '../../core/events';
import { CompareAndSetExhausted, casLost, casWritten, compareAndSet } from '../../db/compare-and-set';
import { idFromKey } from '../../db/models';
import { countWords, truncate } from '../../core/text';
import { planUnits } from '../../core/model/file-stream';
import { isBodyFileType } from '../../core/domain';
import {
  type AuthorEdits,
  type FileRecord,
  VersionConflict,
  authorEdits,
  authorWrittenRanges,
  createFileOnce,
  describeChange,
  findLiveFile,
  rememberRead,
  seenVersion,
  overlapsRanges,
  writeVersion,
} from '../../db/file-store';
import { protectAuthorFiles } from './author-protection';
import { moveToTrash } from '../../db/trash';
import { failure, type ToolContext, type ToolExecution } from './types';

/** Files in the folder: from the step's early read when it has one for this call, else counted now. */
async function countSiblings(ctx: ToolContext, parentId: string | null): Promise<number> {
  return (
    (await ctx.siblingCounts?.take(parentId)) ?? ctx.models.File.countDocuments({ projectId: ctx.projectId, parentId })
  );
}

/** What create_file checks: the folder, a file this turn has still to write, the folder's count, a namesake. */
async function readCreateChecks(ctx: ToolContext, args: ToolArgs<'create_file'>) {
  const { models } = ctx;
  // The checks' reads are independent: one round trip (on FerretDB v1 the last two scan the files).
  const [parent, pending, count, namesake] = await Promise.all([
    args.parent_id ? findLiveFile(models, ctx.projectId, args.parent_id) : null,
    models.File.findOne({ projectId: ctx.projectId, pendingTurnId: ctx.turnId, deletedAt: null }).lean(),
    args.order === undefined ? countSiblings(ctx, args.parent_id ?? null) : null,
    models.File.findOne({
      projectId: ctx.projectId,
      parentId: args.parent_id ?? null,
      title: args.title,
      deletedAt: null,
    })
      .select({ _id: 1, type: 1 })
      .lean(),
  ]);
  return { parent, pending, count, namesake };
}

type CreateChecks = Awaited<ReturnType<typeof readCreateChecks>>;

/** The model re-created the file it has not written yet: give it back instead of failing. */
function reopenedPending(pending: NonNullable<CreateChecks['pending']>): ToolExecution {
  return {
    body: {
      ok: true,
      id: String(pending._id),
      title: pending.title,
      type: pending.type,
      content: '',
      next_step: 'Write the body now as <file>…</file>.',
    },
    outcome: {
      name: 'create_file',
      ok: true,
      fileId: String(pending._id),
      fileType: pending.type,
      title: pending.title,
      op: 'opened',
      pendingBody: true,
    },
    events: [],
  };
}

/** What answers create_file instead of a new file: a bad folder, a file still to write, a namesake (null: create it). */
function refuseCreate(
  args: ToolArgs<'create_file'>,
  fileId: string,
  { parent, pending, namesake }: CreateChecks,
): ToolExecution | null {
  if (args.parent_id) {
    if (!parent) return failure('create_file', 'not_found', `No folder with id ${args.parent_id} in this project.`);
    if (parent.type !== 'folder') return failure('create_file', 'invalid_parent', `${parent.title} is not a folder.`);
  }
  if (pending && String(pending._id) !== fileId) {
    const same =
      pending.title === args.title &&
      pending.type === args.type &&
      (pending.parentId ?? null) === (args.parent_id ?? null);
    if (same && !args.content) return reopenedPending(pending);
    return failure(
      'create_file',
      'pending_empty_file_unwritten',
      `"${pending.title}" (id=${String(pending._id)}) is still empty: write its body as <file>…</file> before creating another file.`,
    );
  }
  // A second file with the same title in the same folder ("Chapter 2" twice) splits the
  // author's work: the model gets the existing file's id and edits it instead. (This call's
  // own file, on a retry, is not a namesake: it is the same write.)
  if (namesake && String(namesake._id) !== fileId)
    return failure(
      'create_file',
      'file_exists',
      `"${args.title}" already exists here (id=${String(namesake._id)}, ${namesake.type}): change it with edit_file (or read it first) instead of creating another.`,
      { id: String(namesake._id) },
    );
  return null;
}

/** The file written once under its derived id, and its first version when the call gave content. */
async function writeNewFile(
  ctx: ToolContext,
  args: ToolArgs<'create_file'>,
  fileId: string,
  order: number,
): Promise<{ versionId: string; version: number; words: number } | null> {
  const { models } = ctx;
  await createFileOnce(models, {
    _id: fileId,
    projectId: ctx.projectId,
    ownerId: ctx.ownerId,
    type: args.type,
    title: args.title,
    parentId: args.parent_id ?? null,
    order,
    pendingTurnId: args.content || args.type === 'folder' ? null : ctx.turnId,
    createdByTurnId: ctx.turnId,
    importance: args.importance ?? null,
    importanceSetBy: args.importance ? 'ai' : null,
  });
  let version: { versionId: string; version: number; words: number } | null = null;
  if (args.content) {
    // Its version is this request's own write: seenVersion counts it.
    version = await writeVersion(models, fileId, args.content, {
      author: 'ai',
      agent: ctx.agent,
      turnId: ctx.turnId,
      operation: 'create',
      writeKey: ctx.key,
    });
  }
  return version;
}

/** create_file's answer: the new file, what to do next, and its `file_created` event. */
function createdFile(
  ctx: ToolContext,
  args: ToolArgs<'create_file'>,
  fileId: string,
  version: { versionId: string; version: number; words: number } | null,
): ToolExecution {
  const words = version?.words ?? 0;
  return {
    body: {
      ok: true,
      id: fileId,
      title: args.title,
      type: args.type,
      words,
      ...(args.content || args.type === 'folder'
        ? {}
        : { next_step: 'Now write the body as a line <file>, the text, then a line </file>.' }),
    },
    outcome: {
      name: 'create_file',
      ok: true,
      fileId,
      fileType: args.type,
      title: args.title,
      op: 'created',
      bodyWords: isBodyFileType(args.type) ? words : 0,
      pendingBody: !args.content && args.type !== 'folder',
      ...outlineUnitsOf(args.type, args.content ?? ''),
    },
    events: [
      ctx.event(
        draft('file_created', {
          fileId,
          title: args.title,
          fileType: args.type,
          versionId: version?.versionId,
          words,
          ...(version ? { version: version.version } : {}),
        }),
      ),
    ],
  };
}

export async function createFile(ctx: ToolContext, args: ToolArgs<'create_file'>): Promise<ToolExecution> {
  const fileId = idFromKey(`file:${ctx.key}`);
  const checks = await readCreateChecks(ctx, args);
  // The reads above may go out while the step's answer goes on record; nothing is written before it is.
  await ctx.answerRecorded;
  const refused = refuseCreate(args, fileId, checks);
  if (refused) return refused;
  const order = args.order ?? checks.count!;
  const version = await writeNewFile(ctx, args, fileId, order);
  return createdFile(ctx, args, fileId, version);
}

/** The edit applied to `current`, and the span of `current` it replaces (for author_edits_touched). */
export function applyEdit(
  current: string,
  args: ToolArgs<'edit_file'>,
): { next: string; span: [number, number] | null } {
  const text = args.text ?? '';
  const at = args.anchor ? current.indexOf(args.anchor) : -1;
  const anchorSpan: [number, number] = [at, at + (args.anchor?.length ?? 0)];
  switch (args.operation) {
    case 'replace':
      return { next: current.replace(args.anchor!, () => text), span: anchorSpan };
    case 'delete':
      return { next: current.replace(args.anchor!, ''), span: anchorSpan };
    case 'insert':
      // Text beside the author's paragraph leaves their words as they were.
      return {
        next: current.replace(args.anchor!, (m) => (args.position === 'before' ? text + m : m + text)),
        span: null,
      };
    case 'append':
      return {
        next: current + (current && !current.endsWith('\n') && !text.startsWith('\n') ? '\n' : '') + text,
        span: null,
      };
    case 'rewrite':
      return { next: text, span: [0, current.length] };
  }
}

/** An edit that leaves none of the text there was: a rewrite, or a replace / delete whose anchor is all of it. */
function replacesWholeText(current: string, next: string, args: ToolArgs<'edit_file'>): boolean {
  if (args.operation === 'rewrite') return true;
  if (!current.trim() || args.operation === 'insert' || args.operation === 'append') return false;
  return !next.trim() || (!!args.anchor && args.anchor.trim() === current.trim());
}

/**
 * edit_file. The comparison with what the model saw and the write are one compare-and-set:
 * the new version lands only on the head that was checked, so an author edit arriving in
 * between sends the edit round again (and then to `stale_content`), never under it.
 */
export async function editFile(ctx: ToolContext, args: ToolArgs<'edit_file'>): Promise<ToolExecution> {
  const { models } = ctx;
  const first = await findLiveFile(models, ctx.projectId, args.id);
  if (!first) return failure('edit_file', 'not_found', `No file with id ${args.id} in this project.`);
  // A retry after the version was committed must not re-apply the edit to the new text
  // (its anchor is gone by then): report the version this call already wrote.
  const prior = await models.FileVersion.findById(idFromKey(`version:${ctx.key}`)).lean();
  if (prior)
    return editResult(
      ctx,
      first,
      args,
      { versionId: String(prior._id), version: prior.version, words: prior.words, content: prior.content },
      false,
    );
  if (first.type === 'folder') return failure('edit_file', 'invalid_target', 'Folders have no text to edit.');

  try {
    return await compareAndSet(`edit of file ${args.id}`, async (attempt) => {
      const file = attempt === 0 ? first : await findLiveFile(models, ctx.projectId, args.id);
      if (!file) return casWritten(failure('edit_file', 'not_found', `No file with id ${args.id} in this project.`));
      const stale = await staleFor(ctx, file, args.id);
      if (stale) return casWritten(stale);
      const current = file.content;
      if (args.anchor && !current.includes(args.anchor))
        return casWritten(
          failure(
            'edit_file',
            'anchor_not_found',
            `The anchor text is not in "${file.title}". Copy it exactly from the current text (query_files(id) shows it).`,
          ),
        );
      if (args.anchor && current.split(args.anchor).length > 2 && args.operation !== 'insert')
        return casWritten(
          failure('edit_file', 'ambiguous_anchor', 'The anchor appears more than once; include more surrounding text.'),
        );
      const { next, span } = applyEdit(current, args);
      // Checked on every attempt (the author may have written the file since the last one), and
      // for every edit that replaces or empties the whole text, not only the rewrite operation.
      if (replacesWholeText(current, next, args)) {
        const refused = await protectAuthorFiles(ctx, 'edit_file', 'rewrite', [file], next);
        if (refused) return casWritten(refused);
      }
      const touched = !!span && overlapsRanges(await authorWrittenRanges(models, args.id), span[0], span[1]);
      try {
        const v = await writeVersion(models, args.id, next, {
          author: 'ai',
          agent: ctx.agent,
          turnId: ctx.turnId,
          operation: `edit:${args.operation}`,
          writeKey: ctx.key,
          expectedVersion: file.versionCount,
        });
        return casWritten(editResult(ctx, file, args, { ...v, content: next }, touched, file.versionCount));
      } catch (err) {
        if (err instanceof VersionConflict) return casLost;
        throw err;
      }
    });
  } catch (err) {
    if (!(err instanceof CompareAndSetExhausted)) throw err;
    return failure(
      'edit_file',
      'concurrent_edit',
      `"${first.title}" kept changing while this edit was being saved; nothing was written. Read it again and retry.`,
    );
  }
}

/**
 * `stale_content`: the author wrote the file after the newest version the model
 * saw in full this request. A file it has not seen in full is edited by exact match only.
 */
async function staleFor(ctx: ToolContext, file: FileRecord, fileId: string): Promise<ToolExecution | null> {
  const seen = await seenVersion(ctx.models, ctx.turnId, fileId, { run: ctx.run, step: ctx.step });
  if (seen === null || file.versionCount <= seen) return null;
  const authorSince = await ctx.models.FileVersion.exists({ fileId, version: { $gt: seen }, author: 'author' });
  if (!authorSince) return null;
  const then = (await ctx.models.FileVersion.findOne({ fileId, version: seen }).lean())?.content ?? '';
  return failure(
    'edit_file',
    'stale_content',
    `"${file.title}" changed since you read it: the author edited it while you were working, so your edit was not applied and their changes are kept. The changes are below; apply your edit to the current text (query_files(id) shows it), keeping what the author wrote.`,
    { id: fileId, seen_version: seen, version: file.versionCount, changes: describeChange(then, file.content) },
  );
}

/** An outline's chapter units as saved, for the decision after the run (the workflow reads no files). */
export function outlineUnitsOf(type: string, text: string): { outlineUnits?: number[] } {
  return type === 'outline' ? { outlineUnits: planUnits(text) } : {};
}

function editResult(
  ctx: ToolContext,
  file: { title: string; type: string },
  args: ToolArgs<'edit_file'>,
  v: { versionId: string; version: number; words: number; content: string },
  touched: boolean,
  previous?: number,
): ToolExecution {
  // Review-gate evidence counts the words this edit wrote, not the file's total.
  const bodyWords = isBodyFileType(file.type) && args.operation !== 'delete' ? countWords(args.text ?? '') : 0;
  return {
    body: {
      ok: true,
      id: args.id,
      title: file.title,
      version: v.version,
      words: v.words,
      // The card says so plainly, and restoring `previous_version` undoes it.
      ...(touched ? { author_edits_touched: true, previous_version: previous ?? v.version - 1 } : {}),
    },
    outcome: {
      name: 'edit_file',
      ok: true,
      fileId: args.id,
      fileType: file.type,
      title: file.title,
      op: 'edited',
      bodyWords,
      ...outlineUnitsOf(file.type, v.content),
    },
    events: [
      ctx.event(
        draft('file_updated', {
          fileId: args.id,
          title: file.title,
          fileType: file.type,
          versionId: v.versionId,
          words: v.words,
          operation: args.operation,
          version: v.version,
        }),
      ),
    ],
  };
}

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

/** `author_edits` as the model reads it: what the author changed since the AI last wrote, to keep. */
function presentAuthorEdits(e: AuthorEdits): Record<string, unknown> {
  if (e.sinceVersion === 0)
    return {
      since_version: 0,
      whole_file: true,
      note: 'The author wrote this whole file: keep their wording unless they ask otherwise.',
    };
  return {
    since_version: e.sinceVersion,
    version: e.version,
    diff: e.diff,
    note: 'The author changed these lines after the last AI version: keep them unless they ask otherwise.',
  };
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export async function queryFiles(ctx: ToolContext, args: ToolArgs<'query_files'>): Promise<ToolExecution> {
  const { models } = ctx;
  if (args.id) {
    const file = await findLiveFile(models, ctx.projectId, args.id);
    if (!file) return failure('query_files', 'not_found', `No file with id ${args.id} in this project.`);
    // Counts for edits from the model's next call on, when it has the text in front of it.
    await rememberRead(models, {
      turnId: ctx.turnId,
      fileId: args.id,
      version: file.versionCount,
      run: ctx.run,
      step: ctx.step,
    });
    const edits = await authorEdits(models, args.id);
    return {
      body: {
        ok: true,
        id: args.id,
        title: file.title,
        type: file.type,
        version: file.versionCount,
        words: file.words,
        content: file.content,
        ...(edits ? { author_edits: presentAuthorEdits(edits) } : {}),
      },
      outcome: { name: 'query_files', ok: true, fileId: args.id, fileType: file.type, title: file.title, op: 'read' },
      events: [],
    };
  }
  const filter: Record<string, unknown> = { projectId: ctx.projectId, deletedAt: null };
  if (args.type) filter.type = args.type;
  if (args.query) {
    const rx = new RegExp(escapeRegex(args.query), 'i');
    filter.$or = [{ title: rx }, { content: rx }];
  }
  const files = await models.File.find(filter)
    .sort({ type: 1, order: 1 })
    .limit(args.limit ?? 20)
    .lean();
  const results = files.map((f) => {
    const at = args.query ? f.content.toLowerCase().indexOf(args.query.toLowerCase()) : -1;
    const snippet = at >= 0 ? f.content.slice(Math.max(0, at - 80), at + 160) : truncate(f.content, 200);
    return { id: String(f._id), title: f.title, type: f.type, words: f.words, snippet };
  });
  return {
    body: { ok: true, results, note: 'Snippets are not full text; read a file with query_files(id).' },
    outcome: { name: 'query_files', ok: true, op: 'searched' },
    events: [],
  };
}
