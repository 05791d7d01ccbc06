/**
 * A turn's skill allowance: at most N distinct skills and a token budget of skill text,
 * shared by load_skill and read_skill_resource (seed 001 tools table). Parallel sub-tasks
 * read skills at the same moment, so the per-turn document is updated by compare-and-set
 * on a revision number; a retried call (same key) gets back the grant it already had.
 */
import { casLost, casWritten, compareAndSet } from '../db/compare-and-set';
import { isDuplicateKey, type Models } from '../db/models';
import type { SkillRequestLimits } from './limits';

export type SkillGrant =
  | { ok: true; tokens: number; skillsLeft: number; tokensLeft: number }
  | { ok: false; reason: 'skill_limit_reached' | 'skill_budget_exhausted'; message: string };

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
  return compareAndSet(`skill budget of turn ${turnId}`, async () => {
    const doc = await models.SkillBudget.findById(turnId).lean();
    const skillIds = doc?.skillIds ?? [];
    const used = doc?.tokensUsed ?? 0;
    const prior = doc?.charges.find((c) => c.key === key);
    const left = (ids: string[], tokens: number) => ({ skillsLeft: Math.max(0, limits.skillsPerRequest - ids.length), tokensLeft: Math.max(0, limits.tokenBudget - tokens) });
    if (prior) return casWritten<SkillGrant>({ ok: true, tokens: prior.tokens ?? 0, ...left(skillIds, used) });
    if (!skillIds.includes(skillId) && skillIds.length >= limits.skillsPerRequest)
      return casWritten<SkillGrant>({
        ok: false,
        reason: 'skill_limit_reached',
        message: `This request already read ${skillIds.length} different skills, the most allowed; keep working with those.`,
      });
    const grant = Math.min(wantTokens, limits.tokenBudget - used);
    if (grant <= 0 && wantTokens > 0)
      return casWritten<SkillGrant>({
        ok: false,
        reason: 'skill_budget_exhausted',
        message: `The skill text budget of this request (${limits.tokenBudget} tokens) is spent; work from what you have read.`,
      });
    const nextIds = skillIds.includes(skillId) ? skillIds : [...skillIds, skillId];
    const next = { skillIds: nextIds, tokensUsed: used + grant, charges: [...(doc?.charges ?? []), { key, skillId, tokens: grant }] };
    if (!doc) {
      try {
        await models.SkillBudget.create({ _id: turnId, ...next, rev: 1 });
      } catch (err) {
        if (isDuplicateKey(err)) return casLost;
        throw err;
      }
    } else {
      const res = await models.SkillBudget.updateOne({ _id: turnId, rev: doc.rev }, { $set: { ...next, rev: doc.rev + 1 } });
      if (res.matchedCount === 0) return casLost;
    }
    return casWritten<SkillGrant>({ ok: true, tokens: grant, ...left(nextIds, next.tokensUsed) });
  }, { attempts: 10 });
}
