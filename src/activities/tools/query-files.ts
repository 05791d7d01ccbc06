/**
 * query_files against MongoDB: one file's full text by id (with the author's edits since the
 * AI last wrote it, and the read remembered for edit checks), or a search of titles and text
 * that returns snippets. Never throws for a bad request.
 */
import type { ToolArgs } from '../../core/model/tool-schemas';
import { truncate } from '../../core/text';
import { type AuthorEdits, authorEdits, findLiveFile, rememberRead } from '../../db/file-store';
import { failure, type ToolContext, type ToolExecution } from './types';

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
