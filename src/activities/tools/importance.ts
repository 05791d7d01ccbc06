/**
 * set_importance: how much a character or setting matters to the book (high / medium / low),
 * which decides how surely it is in every agent's context. The
 * author's own choice wins: an agent changes it only when the author asked in this turn.
 */
import type { ToolArgs } from '../../core/model/tool-schemas';
import { findLiveFile } from '../../db/file-store';
import { failure, type ToolContext, type ToolExecution } from './types';

const IMPORTANCE_WORDS = /(importan|priority|major|minor|重要|主要|次要|主角|配角)/i;

export async function setImportance(ctx: ToolContext, args: ToolArgs<'set_importance'>): Promise<ToolExecution> {
  const file = await findLiveFile(ctx.models, ctx.projectId, args.id);
  if (!file) return failure('set_importance', 'not_found', `No file with id ${args.id} in this project.`);
  if (file.type !== 'character' && file.type !== 'setting')
    return failure(
      'set_importance',
      'invalid_target',
      `"${file.title}" is a ${file.type}; only characters and settings carry an importance.`,
    );
  const askedNow = ctx.authorMessage.includes(file.title) && IMPORTANCE_WORDS.test(ctx.authorMessage);
  if (file.importanceSetBy === 'author' && file.importance !== args.importance && !askedNow)
    return failure(
      'set_importance',
      'author_edit_protected',
      `The author set "${file.title}" to ${file.importance} importance; ask them before changing it.`,
      { id: args.id },
    );
  await ctx.models.File.updateOne({ _id: args.id }, { $set: { importance: args.importance, importanceSetBy: 'ai' } });
  return {
    body: { ok: true, id: args.id, title: file.title, importance: args.importance },
    outcome: { name: 'set_importance', ok: true, fileId: args.id, fileType: file.type, title: file.title },
    events: [],
  };
}
