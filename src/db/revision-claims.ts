/**
 * Compare-and-set that is atomic on FerretDB v1 as well as on MongoDB.
 *
 * Why: FerretDB v1 (SQLite backend) runs a filtered `updateOne`/`deleteOne` as a read of the
 * matching documents, then an unconditional `UPDATE … WHERE _id = ?` / `DELETE … WHERE _id IN
 * (…)` of the whole document. Two writers filtered on the same revision can both match, and
 * the later one silently overwrites the earlier (measured: 3 of 5 acknowledged updates lost).
 * The one write that is atomic there is an insert with a unique `_id` (duplicate key, 11000).
 * So every compare-and-set step that must be exclusive is an insert into RevisionClaim:
 *
 * - Revisions. A document under this scheme carries `rev`. Moving it from `rev` r to r+1 first
 *   inserts the claim `<Model>:<id>:<r+1>`, which holds the full new value of every field the
 *   scheme manages; exactly one writer can insert it. Then the value is applied to the
 *   document. The claim, not the document, is the truth: a reader takes the newest claim when
 *   it is ahead of the document (the writer died between claim and apply, or a late apply
 *   landed over a newer one — FerretDB writes whole documents) and rolls it forward. Applying
 *   a claim is idempotent (it sets the full value and its rev), and every writer settles the
 *   document to the newest claim after its own apply, so the last writer leaves it right.
 *   Chaining is what makes each acknowledged write survive: claim r+1 is computed from the
 *   value of revision r, whichever of claim or document held it.
 * - Deletions. A lock-like document whose presence is the lock (SessionLock, JobClaim) is
 *   removed by at most one writer per incarnation (holder + creation time): the deleter first
 *   inserts `<Model>:<id>:del:<incarnation>`. Without it, a second deleter that read the old
 *   holder could delete the new holder's document that was inserted in between.
 *
 * Old claims are pruned: revision claims more than KEEP_REVISIONS behind and older than
 * PRUNE_AFTER_MS (never the newest, which readers need), deletion claims older than
 * PRUNE_AFTER_MS. A writer that read more than half of PRUNE_AFTER_MS ago does not claim
 * (it reads again), so it can never re-claim a pruned revision from a stale read.
 * On MongoDB every step is atomic anyway; the claims cost one insert per write.
 */
import type { Model } from 'mongoose';
import { insertOnce, type Models } from './models';

/** Claims below the newest by more than this may be pruned (once old enough). */
const KEEP_REVISIONS = 8;
/** Claims younger than this are never pruned; a read older than half of it is not claimed from. */
export const PRUNE_AFTER_MS = 10 * 60_000;
/** A deletion claim this old whose document is still there belongs to a deleter that died: finish its delete. */
const DELETE_ROLL_FORWARD_MS = 10_000;
/** Settling rounds after an apply; each round moves the document to the newest claim seen. */
const SETTLE_ROUNDS = 3;

// Any mongoose model: claims only need findById, updateOne and deleteOne on it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the models have unrelated schema types
type AnyModel = Model<any>;

/** A value read at a revision, and when it was read (monotonic ms) for the stale-read guard. */
export interface Revision<V> {
  rev: number;
  value: V;
  readAt: number;
}

const revisionTarget = (model: AnyModel, id: string): string => `${model.modelName}:${id}`;
const revisionClaimId = (target: string, rev: number): string => `${target}:${rev}`;

/**
 * The current value of `fields` of document `id`, or null when there is no such document.
 * A newer claim than the document wins (and is rolled forward onto the document).
 */
export async function readRevision<V extends object>(
  models: Models,
  model: AnyModel,
  id: string,
  fields: readonly (keyof V & string)[],
): Promise<Revision<V> | null> {
  const readAt = performance.now();
  const doc = (await model
    .findById(id)
    .select([...fields, 'rev'])
    .lean()) as (Record<string, unknown> & { rev?: number }) | null;
  if (!doc) return null;
  const rev = doc.rev ?? 0;
  const claim = await newestClaim(models, revisionTarget(model, id));
  if (claim && claim.rev > rev) {
    await applyClaim(model, id, claim.rev, claim.value as V);
    return { rev: claim.rev, value: pick<V>(claim.value as Record<string, unknown>, fields), readAt };
  }
  return { rev, value: pick<V>(doc, fields), readAt };
}

/**
 * Writes `value` — the full new value of every managed field — as the revision after `read`.
 * @returns true when this writer won that revision (its value is saved), false when another
 *   writer did first (read again and recompute).
 */
export async function writeRevision<V extends object>(
  models: Models,
  model: AnyModel,
  id: string,
  read: Revision<V>,
  value: V,
): Promise<boolean> {
  // A read this old may predate pruning: recompute from a fresh read rather than risk a stale claim.
  if (performance.now() - read.readAt > PRUNE_AFTER_MS / 2) return false;
  const target = revisionTarget(model, id);
  const rev = read.rev + 1;
  if (!(await insertOnce(models.RevisionClaim, { _id: revisionClaimId(target, rev), target, rev, value })))
    return false;
  await applyClaim(model, id, rev, value);
  await settle(models, model, id, target);
  if (rev % KEEP_REVISIONS === 0) await pruneRevisions(models, target, rev);
  return true;
}

/**
 * Deletes one incarnation of a lock-like document (`filter` pins the incarnation: holder and
 * creation time), at most one deleter ever. Returns when the incarnation is gone or another
 * live deleter owns its removal; the caller reads again either way.
 */
export async function deleteIncarnation(
  models: Models,
  model: AnyModel,
  id: string,
  incarnation: string,
  filter: Record<string, unknown>,
): Promise<void> {
  const target = `${revisionTarget(model, id)}:del`;
  const claimId = `${target}:${incarnation}`;
  if (!(await insertOnce(models.RevisionClaim, { _id: claimId, target, rev: 0, value: null }))) {
    const claim = await models.RevisionClaim.findById(claimId).select({ createdAt: 1 }).lean();
    // Its deleter died between claim and delete (a delete takes milliseconds): finish it.
    if (!claim || Date.now() - new Date(claim.createdAt).getTime() < DELETE_ROLL_FORWARD_MS) return;
  }
  await model.deleteOne({ _id: id, ...filter });
  if (Math.random() < 1 / 16)
    await models.RevisionClaim.deleteMany({ target, createdAt: { $lt: new Date(Date.now() - PRUNE_AFTER_MS) } });
}

/** The incarnation id of a lock-like document: who holds it and since when. */
export const incarnationOf = (holder: string, createdAt: Date | string): string =>
  `${holder}:${new Date(createdAt).getTime()}`;

async function newestClaim(models: Models, target: string): Promise<{ rev: number; value: unknown } | null> {
  const claim = await models.RevisionClaim.findOne({ target }).sort({ rev: -1 }).select({ rev: 1, value: 1 }).lean();
  return claim ? { rev: claim.rev, value: claim.value } : null;
}

/** Sets the claim's value and rev, unless the document is already at that revision or past it. */
async function applyClaim<V extends object>(model: AnyModel, id: string, rev: number, value: V): Promise<void> {
  await model.updateOne(
    { _id: id, $or: [{ rev: { $lt: rev } }, { rev: { $exists: false } }] },
    { $set: { ...value, rev } },
  );
}

/**
 * After an apply, moves the document to the newest claim if it is behind: on FerretDB an
 * apply that read the document before a newer claim was applied can land after it.
 */
async function settle(models: Models, model: AnyModel, id: string, target: string): Promise<void> {
  for (let round = 0; round < SETTLE_ROUNDS; round++) {
    const [doc, claim] = await Promise.all([
      model.findById(id).select({ rev: 1 }).lean() as Promise<{ rev?: number } | null>,
      newestClaim(models, target),
    ]);
    if (!doc || !claim || claim.rev <= (doc.rev ?? 0)) return;
    await applyClaim(model, id, claim.rev, claim.value as object);
  }
}

async function pruneRevisions(models: Models, target: string, newest: number): Promise<void> {
  await models.RevisionClaim.deleteMany({
    target,
    rev: { $lt: newest - KEEP_REVISIONS },
    createdAt: { $lt: new Date(Date.now() - PRUNE_AFTER_MS) },
  });
}

function pick<V>(from: Record<string, unknown>, fields: readonly string[]): V {
  return Object.fromEntries(fields.map((f) => [f, from[f]])) as V;
}
