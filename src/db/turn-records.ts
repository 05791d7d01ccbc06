/**
 * Opening a turn in MongoDB: the session lock (one running turn per session), the Turn
 * document and the author's message. Shared by the API (author turns) and the job
 * activities (chapter turns); both are idempotent for a given turn id.
 */
import { type ClaimDoc, claimExclusive, releaseClaim } from './claims';
import { ACTIVE_TURN_STATUSES, type TurnStatus, turnWorkflowId } from '../core/domain';
import { idFromKey, insertOnce, type Models, type SessionLockDoc } from './models';
import { quiet } from '../core/quiet';

/**
 * How to tell a dead lock holder from a live one. Without it, only a holder whose Turn has
 * ended is stale (the old rule); with it, an active holder whose workflow never started (the
 * process that took the lock died before starting it) or is already closed (terminated)
 * is stale too — once the lock is older than `graceMs`, so a request that is still between
 * taking the lock and starting its workflow is never mistaken for a dead one.
 */
export interface StaleLockCheck {
  graceMs: number;
  now: () => Date;
  /** True while workflow `turn-<turnId>` exists and is running. Unsure (service down) must answer true. */
  workflowOpen: (turnId: string) => Promise<boolean>;
}

/** Why a lock holder was cleared, recorded on its Turn (which never ran, or stopped without finalizing). */
export const ABANDONED_STOP_REASON = 'abandoned';

/**
 * Takes the session's lock for `turnId`. Returns the id of a live holder when busy.
 * @throws CompareAndSetExhausted when the lock kept changing hands under us.
 */
export async function takeSessionLock(
  models: Models,
  sessionId: string,
  turnId: string,
  stale?: StaleLockCheck,
): Promise<{ busyWith: string | null }> {
  const { busyWith } = await claimExclusive(models, {
    model: models.SessionLock,
    id: sessionId,
    holderField: 'turnId',
    holder: turnId,
    label: `lock of session ${sessionId}`,
    judge: async (lock) => {
      const holderId = String(lock.turnId);
      const holder = await models.Turn.findById(holderId).select({ status: 1 }).lean();
      const active = holder !== null && ACTIVE_TURN_STATUSES.includes(holder.status as TurnStatus);
      const now = stale?.now() ?? new Date();
      const pastGrace = now.getTime() - new Date(lock.createdAt).getTime() > (stale?.graceMs ?? 60_000);
      // No Turn yet: its request is still creating it — or died doing so, which only time tells.
      if (!holder && !pastGrace) return 'busy';
      if (active && !(stale && pastGrace && !(await stale.workflowOpen(holderId)))) return 'busy';
      if (active)
        await models.Turn.updateOne(
          { _id: holderId, status: { $in: ACTIVE_TURN_STATUSES } },
          { $set: { status: 'failed' satisfies TurnStatus, stopReason: ABANDONED_STOP_REASON, endedAt: now } },
        );
      // The holder ended without releasing (failed before finalizing, or never started): clear and retry.
      return 'stale';
    },
  });
  return { busyWith: busyWith ? String(busyWith.turnId) : null };
}

/** Releases the session's lock if `turnId` holds it (never a filtered deleteOne: see claims.ts). */
export async function releaseSessionLock(
  models: Models,
  sessionId: string,
  turnId: string,
  lockRead?: Promise<SessionLockDoc | null>,
): Promise<void> {
  // A lock read earlier (while the holder finished its work) is as good as one read now: only
  // its holder releases it, and the delete matches the incarnation read, never a newer one.
  await releaseClaim(
    models,
    models.SessionLock,
    sessionId,
    'turnId',
    turnId,
    lockRead as Promise<ClaimDoc | null> | undefined,
  );
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
  requestId?: string;
  uiLanguage?: 'zh' | 'en';
}

/**
 * Reserves the session's next `n` message sequence numbers in one update; the first of them,
 * or null when there is no such session. Seq, not the timestamp, orders a session's messages.
 */
export async function reserveMessageSeqs(models: Models, sessionId: string, n: number): Promise<number | null> {
  const session = await models.Session.findOneAndUpdate({ _id: sessionId }, { $inc: { messageSeq: n } }, { new: true })
    .lean()
    .exec();
  return session ? (session.messageSeq ?? n) - n + 1 : null;
}

/**
 * Creates the Turn (queued) and the author's Message with the session's next sequence number.
 * `newTurn`: the caller minted `turnId` just now (an API request), so nothing can be on record
 * for it yet: the sequence number is reserved while the Turn is created, with no check for an
 * earlier attempt's message. One MongoDB round trip less before the workflow starts (~3–4 ms
 * of every turn's time to first token, bench:turn). A Turn that then fails to be created
 * leaves its number unused, which the session's readers allow for (session-messages.ts).
 *
 * Returns the sequence number the author's message got here, or null when an earlier attempt
 * stored the message. The turn's first reads of its session start from it (TurnInput.openingSeq).
 */
export async function createTurnRecords(
  models: Models,
  t: TurnRecordInput,
  opts: { newTurn?: boolean } = {},
): Promise<{ seq: number | null }> {
  const key = `${t.turnId}:user`;
  // Looked up by the _id derived from its key: a `{key}` filter reads every session's messages
  // on FerretDB v1, on the path of every turn's start. (One stored before ids were derived is
  // caught by the key's unique index below; its retry leaves a sequence number unused.)
  const _id = idFromKey(key);
  // Seq, not the timestamp, orders messages: same-millisecond writes must not reorder.
  const reserveSeq = () => reserveMessageSeqs(models, t.sessionId, 1);
  // A retried opening (a job's) reads whether an earlier attempt stored the message while the
  // Turn is created (both idempotent), and takes a number only when none did.
  const stored = opts.newTurn ? null : quiet(models.Message.exists({ _id }).exec());
  const reserved = opts.newTurn ? quiet(reserveSeq()) : null;
  await insertOnce(models.Turn, {
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
    requestId: t.requestId ?? null,
    uiLanguage: t.uiLanguage ?? null,
  });
  if (stored && (await stored)) return { seq: null };
  const seq = (await (reserved ?? reserveSeq())) ?? 0;
  const inserted = await insertOnce(models.Message, {
    _id,
    sessionId: t.sessionId,
    projectId: t.projectId,
    turnId: t.turnId,
    role: 'user',
    content: t.message,
    seq,
    key,
  });
  // An earlier attempt's message holds the key; the number reserved here stays unused.
  if (!inserted) return { seq: null };
  return { seq: seq > 0 ? seq : null };
}
