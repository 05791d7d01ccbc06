/**
 * The user's skills as the rest of the system sees them:
 * one view of the enabled skills shared by the L1 catalog, the skill tools and the skills a
 * turn request names. Every lookup is by owner, so a skill id of another user is simply
 * not found.
 */
import { isValidObjectId } from 'mongoose';
import { insertOnce, type Models, type SkillDoc } from '../db/models';
import { isObjectId } from '../core/ids';

/** Enabled skills of one user, by name. */
export async function enabledSkills(models: Models, ownerId: string): Promise<SkillDoc[]> {
  return models.Skill.find({ ownerId, enabled: true })
    .select({ resources: 0, manifest: 0 })
    .sort({ nameKey: 1 })
    .limit(200)
    .lean();
}

const isHexId = (s: string): boolean => isObjectId(s) && isValidObjectId(s);

/** One enabled skill of the user, by id or by name (case-insensitive); null when there is none. */
export async function findEnabledSkill(models: Models, ownerId: string, ref: string): Promise<SkillDoc | null> {
  const key = ref.trim();
  if (!key) return null;
  const byName = await models.Skill.findOne({ ownerId, enabled: true, nameKey: key.toLowerCase() }).lean();
  if (byName || !isHexId(key)) return byName;
  return models.Skill.findOne({ ownerId, enabled: true, _id: key }).lean();
}

/**
 * The skills an author named for a turn, resolved to ids in the order given (duplicates
 * dropped). Returns the refs that match none of their enabled skills, for a 404.
 */
export async function resolveNamedSkills(
  models: Models,
  ownerId: string,
  refs: string[],
): Promise<{ ids: string[]; missing: string[] }> {
  const ids: string[] = [];
  const missing: string[] = [];
  for (const ref of refs) {
    const skill = await findEnabledSkill(models, ownerId, ref);
    if (!skill) missing.push(ref);
    else if (!ids.includes(String(skill._id))) ids.push(String(skill._id));
  }
  return { ids, missing };
}

/** Records that a turn read a skill: the skill's usage count grows once per turn, however often it is read. */
export async function recordSkillUse(
  models: Models,
  turnId: string,
  skillId: string,
  ownerId: string,
  now: Date,
): Promise<void> {
  // Not inserted: read before in this turn (or by a parallel sub-task at the same moment), counted already.
  if (await insertOnce(models.SkillUse, { _id: `${turnId}:${skillId}`, turnId, skillId, ownerId }))
    await models.Skill.updateOne({ _id: skillId, ownerId }, { $inc: { usageCount: 1 }, $set: { lastUsedAt: now } });
}
