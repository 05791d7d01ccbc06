/**
 * A turn's skill allowance: at most N distinct skills and a token budget of skill text,
 * shared by load_skill and read_skill_resource. Parallel sub-tasks
 * read skills at the same moment, and on FerretDB v1 a revision-filtered update is not
 * atomic (two writers of the same revision can both match), so the read-modify-write runs
 * under a per-turn lock taken by inserting a unique document, which is atomic there too.
 * A retried call (same key) gets back the grant it already had instead of paying twice.
 */
import { claimExclusive, releaseClaim } from '../db/claims';
import { randomUUID } from 'node:crypto';
import type { Models } from '../db/models';
import type { SkillRequestLimits } from './limits';

export type SkillGrant =
  | { ok: true; tokens: number; skillsLeft: number; tokensLeft: number }
  | { ok: false; reason: 'skill_limit_reached' | 'skill_budget_exhausted'; message: string };

/** A lock older than this belongs to a worker that died holding it (a charge takes milliseconds). */
const STALE_LOCK_MS = 15_000;

async function withTurnLock<T>(models: Models, turnId: string, fn: () => Promise<T>): Promise<T> {
  const holder = randomUUID();
  // Wait for another reader of this turn's budget; take over a lock its holder left behind.
  await claimExclusive(models, {
    model: models.SkillLock,
    id: turnId,
    holderField: 'holder',
    holder,
    label: `skill budget lock of turn ${turnId}`,
    judge: async (lock) => (Date.now() - new Date(lock.createdAt).getTime() > STALE_LOCK_MS ? 'stale' : 'wait'),
    attempts: 400,
    jitterMs: 25,
  });
  try {
    return await fn();
  } finally {
    await releaseClaim(models, models.SkillLock, turnId, 'holder', holder);
  }
}

/**
 * Charges up to `wantTokens` of skill text read under `key` (turnId:step:toolCallId[#i]).
 * The grant may be smaller than asked when the budget runs low; the caller cuts the text to it.
 */
export async function chargeSkillRead(
  models: Models,
  turnId: string,
  skillId: string,
  key: string,
  wantTokens: number,
  limits: SkillRequestLimits,
): Promise<SkillGrant> {
  return withTurnLock(models, turnId, async () => {
    const doc = await models.SkillBudget.findById(turnId).lean();
    const skillIds = doc?.skillIds ?? [];
    const used = doc?.tokensUsed ?? 0;
    const left = (ids: string[], tokens: number) => ({
      skillsLeft: Math.max(0, limits.skillsPerRequest - ids.length),
      tokensLeft: Math.max(0, limits.tokenBudget - tokens),
    });
    const prior = doc?.charges.find((c) => c.key === key);
    if (prior) return { ok: true, tokens: prior.tokens ?? 0, ...left(skillIds, used) };
    if (!skillIds.includes(skillId) && skillIds.length >= limits.skillsPerRequest)
      return {
        ok: false,
        reason: 'skill_limit_reached',
        message: `This request already read ${skillIds.length} different skills, the most allowed; keep working with those.`,
      };
    const grant = Math.min(wantTokens, limits.tokenBudget - used);
    if (grant <= 0 && wantTokens > 0)
      return {
        ok: false,
        reason: 'skill_budget_exhausted',
        message: `The skill text budget of this request (${limits.tokenBudget} tokens) is spent; work from what you have read.`,
      };
    const nextIds = skillIds.includes(skillId) ? skillIds : [...skillIds, skillId];
    const next = {
      skillIds: nextIds,
      tokensUsed: used + grant,
      charges: [...(doc?.charges ?? []), { key, skillId, tokens: grant }],
    };
    // Under the lock this cannot race; the revision filter still refuses a write over a change we did not read.
    if (!doc) await models.SkillBudget.create({ _id: turnId, ...next, rev: 1 });
    else if (
      (await models.SkillBudget.updateOne({ _id: turnId, rev: doc.rev }, { $set: { ...next, rev: doc.rev + 1 } }))
        .matchedCount === 0
    )
      throw new Error(`skill budget of turn ${turnId} changed under its lock`);
    return { ok: true, tokens: grant, ...left(nextIds, next.tokensUsed) };
  });
}
