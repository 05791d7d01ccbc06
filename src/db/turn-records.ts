/**
 * Opening a turn in MongoDB: the session lock (one running turn per session), the Turn
 * document and the author's message. Shared by the API (author turns) and the job
 * activities (chapter turns); both are idempotent for a given turn id.
 */
import { ACTIVE_TURN_STATUSES, type TurnStatus, turnWorkflowId } from '../shared/domain';
import { isDuplicateKey, type Models } from './models';

/** Takes the session's lock for `turnId`. Returns the id of a live holder when busy. */
export async function takeSessionLock(models: Models, sessionId: string, turnId: string): Promise<{ busyWith: string | null }> {
  for (let i = 0; i < 3; i++) {
    try {
      await models.SessionLock.create({ _id: sessionId, turnId });
      return { busyWith: null };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const lock = await models.SessionLock.findById(sessionId).lean();
    if (!lock) continue;
    if (lock.turnId === turnId) return { busyWith: null };
    const holder = await models.Turn.findById(lock.turnId).select({ status: 1 }).lean();
    if (holder && ACTIVE_TURN_STATUSES.includes(holder.status as TurnStatus)) return { busyWith: lock.turnId };
    // The holder ended without releasing (e.g. it failed before finalizing): clear and retry.
    await models.SessionLock.deleteOne({ _id: sessionId, turnId: lock.turnId });
  }
  throw new Error(`could not take the lock of session ${sessionId}`);
}

export interface TurnRecordInput {
  turnId: string;
  sessionId: string;
  projectId: string;
  ownerId: string;
  message: string;
  focusFileId?: string | null;
  attachedFileIds?: string[];
  quotes?: string[];
  skills?: string[];
  jobId?: string | null;
}

/** Creates the Turn (queued) and the author's Message with the session's next sequence number. */
export async function createTurnRecords(models: Models, t: TurnRecordInput): Promise<void> {
  try {
    await models.Turn.create({
      _id: t.turnId,
      sessionId: t.sessionId,
      projectId: t.projectId,
      ownerId: t.ownerId,
      message: t.message,
      focusFileId: t.focusFileId ?? null,
      attachedFileIds: t.attachedFileIds ?? [],
      quotes: t.quotes ?? [],
      skills: t.skills ?? [],
      status: 'queued',
      workflowId: turnWorkflowId(t.turnId),
      jobId: t.jobId ?? null,
    });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  const key = `${t.turnId}:user`;
  if (await models.Message.exists({ key })) return;
  // Seq, not the timestamp, orders messages: same-millisecond writes must not reorder (seed 002, pit 8).
  const session = await models.Session.findOneAndUpdate({ _id: t.sessionId }, { $inc: { messageSeq: 1 } }, { new: true }).lean();
  try {
    await models.Message.create({
      sessionId: t.sessionId,
      projectId: t.projectId,
      turnId: t.turnId,
      role: 'user',
      content: t.message,
      seq: session?.messageSeq ?? 0,
      key,
    });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}
