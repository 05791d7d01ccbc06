/**
 * Author protection: a file the author wrote any of the current text
 * of is never deleted or wholly rewritten unless this turn's message authorised exactly that
 * (core/words/author-scope.ts: the grammar of orders, every word accounted for) or the author approved the call. Otherwise the call asks:
 * it answers `approval_required` (nothing written, nothing stored), the workflow publishes
 * `approval_requested` and waits for the author's decision, then runs the call again with
 * it: approved, it goes ahead; denied or timed out, the agent gets `author_declined` /
 * `approval_timeout` and goes on without it.
 */
import { diffLines } from 'diff';
import type { ApprovalRequest } from '../../core/turn/turn-types';
import { type AuthorAction, authorisedFiles } from '../../core/words/author-scope';
import { readAuthorMessage } from '../reading/segmenter';
import { truncate } from '../../core/text';
import { authorWrittenRanges, type FileRecord } from '../../db/file-store';
import { failure, type ToolContext, type ToolExecution } from './types';

/** Whether the author wrote any of the file's current text (one AI line added to their chapter does not lift it). */
export async function isAuthorsFile(
  ctx: Pick<ToolContext, 'models'>,
  file: Pick<FileRecord, '_id' | 'latestAuthor'>,
): Promise<boolean> {
  if (file.latestAuthor === 'author') return true;
  return (await authorWrittenRanges(ctx.models, String(file._id))).length > 0;
}

/** What a delete would take, or what a rewrite would change, in a few lines the author can judge. */
export function previewOf(action: AuthorAction, files: Pick<FileRecord, 'title' | 'content'>[], next?: string): string {
  if (action === 'delete')
    return files
      .map((f) => `${f.title}: ${truncate(f.content.replace(/\s+/g, ' ').trim(), 240) || '(empty)'}`)
      .join('\n')
      .slice(0, 1200);
  const { change, excerpt } = rewriteChange(files[0]?.content ?? '', next);
  return `${change.removed} line(s) replaced by ${change.added}; the text that would go begins: ${excerpt || '(empty)'}`;
}

/** What a whole rewrite would change: lines gone and come, and the start of the text that would go. */
export function rewriteChange(
  before: string,
  next?: string,
): { change: { removed: number; added: number }; excerpt: string } {
  let removed = 0;
  let added = 0;
  for (const part of diffLines(before, next ?? '')) {
    if (part.removed) removed += part.count ?? 0;
    if (part.added) added += part.count ?? 0;
  }
  return { change: { removed, added }, excerpt: truncate(before.replace(/\s+/g, ' ').trim(), 240) };
}

/**
 * The execution that stops a destructive call on the author's files it may not touch, or
 * null when it may go ahead (none of them is the author's, the message authorised each, or
 * the author approved this call).
 */
export async function protectAuthorFiles(
  ctx: ToolContext,
  tool: 'delete_file' | 'edit_file',
  action: AuthorAction,
  files: FileRecord[],
  next?: string,
): Promise<ToolExecution | null> {
  const authors = [];
  for (const f of files) if (await isAuthorsFile(ctx, f)) authors.push(f);
  if (!authors.length) return null;
  // A job's instructions and chapter messages are the system's words: they authorise nothing.
  const scope = ctx.authorMessage
    ? { reading: readAuthorMessage(ctx.authorMessage), focusFileId: ctx.focusFileId, titles: await projectTitles(ctx) }
    : null;
  const asked = new Set(
    scope
      ? authorisedFiles(
          scope,
          authors.map((f) => ({ id: String(f._id), title: f.title })),
          action,
        ).map((f) => f.id)
      : [],
  );
  const unasked = authors.filter((f) => !asked.has(String(f._id)));
  if (!unasked.length) return null;
  const titles = unasked.map((f) => `"${f.title}"`).join(', ');
  const verb = action === 'delete' ? 'deleted' : 'rewritten';
  switch (ctx.approval?.decision) {
    case 'approve':
      return null;
    case 'deny':
      return failure(
        tool,
        'author_declined',
        `The author declined: ${titles} ${unasked.length > 1 ? 'were' : 'was'} not ${verb}. Go on without it.`,
        {
          approval_id: ctx.approval.approvalId,
        },
      );
    case 'timeout':
      return failure(
        tool,
        'approval_timeout',
        `The author did not answer in time: ${titles} ${unasked.length > 1 ? 'were' : 'was'} not ${verb}. Go on without it.`,
        {
          approval_id: ctx.approval.approvalId,
        },
      );
  }
  const first = unasked[0]!;
  const approval: ApprovalRequest = {
    action,
    fileId: String(first._id),
    title: first.title,
    files: unasked.map((f) => ({ id: String(f._id), title: f.title })),
    preview: previewOf(action, unasked, next),
    ...(action === 'rewrite' ? rewriteChange(first.content, next) : {}),
  };
  const message = `The author wrote ${titles}; their message did not ask for ${action === 'delete' ? 'deleting' : 'rewriting'} it, so they are asked to approve first.`;
  return {
    body: { ok: false, error_type: 'approval_required', message, approval },
    outcome: {
      name: tool,
      ok: false,
      errorType: 'approval_required',
      message,
      fileId: approval.fileId,
      title: approval.title,
      approval,
    },
    events: [],
  };
}

async function projectTitles(ctx: ToolContext): Promise<string[]> {
  const files = await ctx.models.File.find({ projectId: ctx.projectId, deletedAt: null }).select({ title: 1 }).lean();
  return files.map((f) => f.title);
}
