/**
 * create_file and edit_file against MongoDB (delete_file and query_files: delete-file.ts,
 * query-files.ts). Each returns a result body for the model plus the file events to stream;
 * none throws for a bad request.
 */
import type { ToolArgs } from '../../core/model/tool-schemas';
import { draft } from '../../core/events';
import { CompareAndSetExhausted, casLost, casWritten, compareAndSet } from '../../db/compare-and-set';
import { idFromKey } from '../../db/models';
import { countWords } from '../../core/text';
import { planUnits } from '../../core/model/file-stream';
import { isBodyFileType } from '../../core/domain';
import {
  type FileRecord,
  VersionConflict,
  authorWrittenRanges,
  createFileOnce,
  describeChange,
  findLiveFile,
  seenVersion,
  overlapsRanges,
  writeVersion,
} from '../../db/file-store';
import { protectAuthorFiles } from './author-protection';
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
