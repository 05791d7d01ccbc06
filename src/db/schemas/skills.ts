/** Skills, their use per turn and the per-turn budget. */
import { Schema } from 'mongoose';

/**
 * A user's skill (standard SKILL.md package). Its text is data shown to the model on
 * request, never instructions that widen what an agent may do; its scripts are never run.
 */
export const skillSchema = new Schema(
  {
    ownerId: { type: String, required: true, index: true },
    name: { type: String, required: true },
    /** Lower-cased name: one skill of a name per user, looked up case-insensitively. */
    nameKey: { type: String, required: true },
    description: { type: String, required: true },
    /** The method: SKILL.md after its front matter. */
    body: { type: String, default: '' },
    /** SKILL.md exactly as imported (export gives it back unchanged). */
    manifest: { type: String, required: true },
    metadata: { type: Schema.Types.Mixed, default: {} },
    resources: { type: [{ path: String, content: String, kind: String, chars: Number, _id: false }], default: [] },
    enabled: { type: Boolean, default: true },
    usageCount: { type: Number, default: 0 },
    lastUsedAt: { type: Date, default: null },
  },
  { timestamps: true },
);
skillSchema.index({ ownerId: 1, nameKey: 1 }, { unique: true });

/** One skill read in one turn: counted once however often the turn reads it (usage records). */
export const skillUseSchema = new Schema(
  {
    _id: { type: String, required: true }, // turnId:skillId
    turnId: { type: String, required: true, index: true },
    skillId: { type: String, required: true, index: true },
    ownerId: { type: String, required: true },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

/**
 * What one turn has spent of its skill allowance: the distinct skills read and the tokens
 * of skill text returned. Written by compare-and-set (parallel reads race on it); `charges`
 * makes a retried tool call get the same grant instead of paying twice.
 */
export const skillBudgetSchema = new Schema(
  {
    _id: { type: String, required: true }, // turnId
    skillIds: { type: [String], default: [] },
    tokensUsed: { type: Number, default: 0 },
    charges: { type: [{ key: String, skillId: String, tokens: Number, _id: false }], default: [] },
    rev: { type: Number, default: 0 },
  },
  { timestamps: true },
);

/**
 * A short per-turn mutex around the skill budget. FerretDB v1 does not apply a conditional
 * update atomically under concurrent writers (two updates filtered on the same revision can
 * both match), but a unique-_id insert is atomic: holding this document is the lock.
 */
export const skillLockSchema = new Schema(
  {
    _id: { type: String, required: true }, // turnId
    holder: { type: String, required: true },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);
