/**
 * One way to hold something exclusively (a session's running turn, a project's job, a turn's
 * skill budget): a document keyed by what is held, whose insert is the claim — the one write
 * that is atomic on FerretDB v1 as on MongoDB (revision-claims.ts says why filtered writes
 * are not). A claim someone else holds is judged by the caller: still theirs (`busy`: the
 * claimer is told who), worth waiting for (`wait`: tried again), or left by a holder that is
 * gone (`stale`: removed — by one remover per incarnation — and claimed anew).
 */
import type { Model } from 'mongoose';
import { casLost, casWritten, compareAndSet } from './compare-and-set';
import { insertOnce, type Models } from './models';
import { deleteIncarnation, incarnationOf } from './revision-claims';

// Any claim model: its documents are `{ _id, [holderField], createdAt }`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the claim models have unrelated schema types
type ClaimModel = Model<any>;

export interface ClaimDoc {
  _id: string;
  createdAt: Date;
  [field: string]: unknown;
}

export interface ClaimSpec {
  model: ClaimModel;
  /** What is held (the claim's `_id`): a session id, a project id, a turn id. */
  id: string;
  /** The field naming the holder, and this claimer's value of it. */
  holderField: string;
  holder: string;
  /** What to do about a claim another holder has. */
  judge: (claim: ClaimDoc) => Promise<'busy' | 'wait' | 'stale'>;
  /** Name in errors and logs. */
  label: string;
  attempts?: number;
  jitterMs?: number;
}

/** Takes the claim, or answers who holds it (`busy`). Retries through `wait` and `stale` judgements. */
export async function claimExclusive(models: Models, spec: ClaimSpec): Promise<{ busyWith: ClaimDoc | null }> {
  return compareAndSet<{ busyWith: ClaimDoc | null }>(
    spec.label,
    async () => {
      if (await insertOnce(spec.model, { _id: spec.id, [spec.holderField]: spec.holder }))
        return casWritten({ busyWith: null });
      const claim = (await spec.model.findById(spec.id).lean()) as ClaimDoc | null;
      if (!claim) return casLost;
      if (claim[spec.holderField] === spec.holder) return casWritten({ busyWith: null });
      const verdict = await spec.judge(claim);
      if (verdict === 'busy') return casWritten({ busyWith: claim });
      if (verdict === 'stale') await removeClaim(models, spec.model, spec.id, spec.holderField, claim);
      return casLost;
    },
    { ...(spec.attempts ? { attempts: spec.attempts } : {}), ...(spec.jitterMs ? { jitterMs: spec.jitterMs } : {}) },
  );
}

/**
 * Removes a claim as read, never a newer one: one remover per incarnation (holder and
 * creation time), so a second remover that read the old holder cannot delete the claim a
 * new holder took in between.
 */
export async function removeClaim(
  models: Models,
  model: ClaimModel,
  id: string,
  holderField: string,
  claim: ClaimDoc,
): Promise<void> {
  const holder = String(claim[holderField]);
  await deleteIncarnation(models, model, id, incarnationOf(holder, claim.createdAt), {
    [holderField]: holder,
    createdAt: claim.createdAt,
  });
}

/** Releases the claim if `holder` holds it (a claim read earlier serves as well as one read now). */
export async function releaseClaim(
  models: Models,
  model: ClaimModel,
  id: string,
  holderField: string,
  holder: string,
  read?: Promise<ClaimDoc | null>,
): Promise<void> {
  const claim = await (read ?? (model.findById(id).lean() as Promise<ClaimDoc | null>));
  if (claim && claim[holderField] === holder) await removeClaim(models, model, id, holderField, claim);
}
