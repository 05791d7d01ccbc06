/**
 * Saving a `<file>` body the model streamed into the pending file: a new version, the
 * `file_updated` event that reports it, and the outcome the workflow folds into the turn.
 *
 * The LLM step that streamed it saves it (the body is in memory there; a separate activity
 * cost a MongoDB round trip for the step's stored copy plus a workflow-task round trip).
 */
import { draft, type AnyEventDraft } from '../../core/events';
import { idFromKey, type Models } from '../../db/models';
import type { ToolOutcome } from '../../core/turn/turn-types';
import type { WorkAgent } from '../../core/plans';
import { isBodyFileType } from '../../core/domain';
import { createFileOnce, writeVersion, WriteRefused } from '../../db/file-store';
import { outlineUnitsOf } from '../tools/file-tools';

export interface CaptureToSave {
  turnId: string;
  step: number;
  agent: WorkAgent;
  fileId: string;
  body: string;
  /** Idempotency key of the version: a rerun with the same key writes nothing new. */
  writeKey: string;
}

/** The version key of a capture saved by `saveCapturedFile` (one per step and file). */
export function captureKey(turnId: string, step: number, fileId: string): string {
  return `${turnId}:${step}:capture:${fileId}`;
}

/**
 * The version key of a capture saved inside its LLM step. A retried step streams the body
 * anew (clients dropped the first attempt's text on `step_retry`). If an earlier attempt
 * already saved exactly this text, its version is the one (nothing new is written); if the
 * text differs, this attempt writes its own version, so the file ends with what the author
 * saw and the earlier attempt's text stays in the history instead of being overwritten.
 */
export async function stepCaptureKey(
  models: Models,
  c: Omit<CaptureToSave, 'writeKey'>,
  attempt: number,
): Promise<string> {
  const first = captureKey(c.turnId, c.step, c.fileId);
  if (attempt <= 1) return first;
  // Attempt n's own key is `…:a<n>` (attempt 1 has the plain key).
  const keys = Array.from({ length: attempt - 1 }, (_, i) => (i === 0 ? first : `${first}:a${i + 1}`));
  const earlier = await Promise.all(
    keys.map((k) =>
      models.FileVersion.findById(idFromKey(`version:${k}`))
        .select({ content: 1 })
        .lean(),
    ),
  );
  const same = earlier.findIndex((v) => v !== null && v.content === c.body);
  return same >= 0 ? keys[same]! : `${first}:a${attempt}`;
}

/**
 * Writes the version, as a compare-and-set like every other write: onto the file as this turn
 * left it, never over what the author did meanwhile. A file the author deleted
 * (to the trash) or wrote into while the body streamed is not written: the text is kept in
 * a new file beside it, "<title> (AI draft)", and the outcome says so (`file_deleted` /
 * `stale_content`), with a card on the stream. Returns the outcome and the (unstamped) event.
 */
export async function saveCapture(
  models: Models,
  c: CaptureToSave,
): Promise<{ outcome: ToolOutcome; event: AnyEventDraft }> {
  try {
    // The write's own read of the file decides (one round trip): a retry that finds its
    // version is this save; otherwise the file must be live and not the author's since.
    const v = await writeVersion(models, c.fileId, c.body, {
      author: 'ai',
      agent: c.agent,
      turnId: c.turnId,
      operation: 'stream',
      writeKey: c.writeKey,
      missingFile: () => new WriteRefused('file_deleted', null),
      refuse: (file) => (file.deletedAt ? 'file_deleted' : file.latestAuthor === 'author' ? 'stale_content' : null),
    });
    const saved = v.file!;
    return {
      event: draft('file_updated', {
        fileId: c.fileId,
        title: saved.title,
        fileType: saved.type,
        versionId: v.versionId,
        words: v.words,
        operation: 'stream',
        version: v.version,
      }),
      outcome: {
        name: 'file_stream',
        ok: true,
        fileId: c.fileId,
        fileType: saved.type,
        title: saved.title,
        op: 'edited',
        bodyWords: isBodyFileType(saved.type) ? v.words : 0,
        ...outlineUnitsOf(saved.type, c.body),
      },
    };
  } catch (err) {
    if (!(err instanceof WriteRefused)) throw err;
    return notSaved(models, c, err.file, err.reason as 'file_deleted' | 'stale_content');
  }
}

/** The title of the file a body that could not go where it was streamed is kept in. */
export const draftTitle = (title: string): string => `${title} (AI draft)`;

/** Keeps the streamed text in a new file beside the one it could not be saved into (idempotent by the save's key). */
async function notSaved(
  models: Models,
  c: CaptureToSave,
  file: {
    title: string;
    type: string;
    projectId: string;
    ownerId: string;
    parentId?: string | null;
    order?: number;
  } | null,
  reason: 'file_deleted' | 'stale_content',
): Promise<{ outcome: ToolOutcome; event: AnyEventDraft }> {
  const title = file?.title ?? '';
  const named = title ? `"${title}"` : 'its file';
  let kept: { id: string; title: string } | null = null;
  if (file && c.body.trim()) {
    const id = idFromKey(`file:${c.writeKey}:kept`);
    await createFileOnce(models, {
      _id: id,
      projectId: file.projectId,
      ownerId: file.ownerId,
      type: file.type,
      title: draftTitle(title),
      parentId: file.parentId ?? null,
      order: (file.order ?? 0) + 1,
      createdByTurnId: c.turnId,
      keptFrom: { fileId: c.fileId, reason },
    });
    await writeVersion(models, id, c.body, {
      author: 'ai',
      agent: c.agent,
      turnId: c.turnId,
      operation: 'stream',
      writeKey: `${c.writeKey}:kept`,
    });
    kept = { id, title: draftTitle(title) };
  }
  const why =
    reason === 'file_deleted'
      ? 'the author deleted it while it was being written'
      : 'the author edited it while it was being written, and their text is kept';
  const message = `The body was not saved into ${named}: ${why}.${kept ? ` It is kept in "${kept.title}" (id=${kept.id}).` : ''}`;
  return {
    outcome: {
      name: 'file_stream',
      ok: false,
      errorType: reason,
      message,
      fileId: c.fileId,
      title,
      ...(kept ? { keptIn: kept } : {}),
    },
    event: draft(
      'tool_result',
      {
        name: 'file_stream',
        ok: false,
        errorType: reason,
        message,
        refusal: 'kept_your_edits',
        ...(kept ? { result: { kept_in: kept } } : {}),
      },
      { toolCallId: `save:${c.fileId}` },
    ),
  };
}
