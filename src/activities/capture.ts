/**
 * Saving a `<file>` body the model streamed into the pending file: a new version, the
 * `file_updated` event that reports it, and the outcome the workflow folds into the turn.
 *
 * Turns since `h10-capture-in-step` save it inside the LLM step that streamed it (the body is
 * in memory there, and a separate activity cost a MongoDB round trip for the step's stored
 * copy plus a workflow-task round trip); older turns save it in `saveCapturedFile`.
 */
import { draft, type AnyEventDraft } from '../events/contract';
import { idFromKey, type Models } from '../db/models';
import type { ToolOutcome } from '../shared/turn-types';
import type { WorkAgent } from '../workflows/plans';
import { notFound } from './failures';
import { isBodyType, writeVersion } from './tools/file-store';

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
export async function stepCaptureKey(models: Models, c: Omit<CaptureToSave, 'writeKey'>, attempt: number): Promise<string> {
  const first = captureKey(c.turnId, c.step, c.fileId);
  if (attempt <= 1) return first;
  // Attempt n's own key is `…:a<n>` (attempt 1 has the plain key).
  const keys = Array.from({ length: attempt - 1 }, (_, i) => (i === 0 ? first : `${first}:a${i + 1}`));
  const earlier = await Promise.all(keys.map((k) => models.FileVersion.findById(idFromKey(`version:${k}`)).select({ content: 1 }).lean()));
  const same = earlier.findIndex((v) => v !== null && v.content === c.body);
  return same >= 0 ? keys[same]! : `${first}:a${attempt}`;
}

/** Writes the version; returns the outcome and the (unstamped) `file_updated` event. */
export async function saveCapture(models: Models, c: CaptureToSave): Promise<{ outcome: ToolOutcome; event: AnyEventDraft }> {
  // A file deleted meanwhile fails the save for good (non-retryable), before anything is
  // written. The write's own read of the file tells (one round trip, not a read before it).
  const missingFile = () => notFound('File', c.fileId);
  const v = await writeVersion(models, c.fileId, c.body, { author: 'ai', agent: c.agent, turnId: c.turnId, operation: 'stream', writeKey: c.writeKey, missingFile });
  const file = v.file;
  if (!file) throw missingFile(); // not reached: the write threw first
  return {
    event: draft('file_updated', { fileId: c.fileId, title: file.title, fileType: file.type, versionId: v.versionId, words: v.words, operation: 'stream' }),
    outcome: {
      name: 'file_stream',
      ok: true,
      fileId: c.fileId,
      fileType: file.type,
      title: file.title,
      op: 'edited',
      bodyWords: isBodyType(file.type) ? v.words : 0,
    },
  };
}
