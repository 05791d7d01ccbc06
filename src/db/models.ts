/**
 * MongoDB models. Only features MongoDB and FerretDB v1 both support are used: no
 * multi-document transactions, no change streams; unique indexes carry idempotency.
 * Every timestamp is a Date (millisecond precision) and everything that must keep its
 * order also has an integer sequence (same-second writes must not reorder).
 */
import { createHash } from 'node:crypto';
import { type FlattenMaps, type Connection, type InferSchemaType, type Model, Types } from 'mongoose';
import {
  agentStepSchema,
  messageSchema,
  readSnapshotSchema,
  sessionLockSchema,
  sessionSchema,
  streamLedgerSchema,
  toolExecutionSchema,
  turnContextSchema,
  turnSchema,
  usageRecordSchema,
} from './schemas/conversation';
import { fileSchema, fileVersionSchema, projectSchema } from './schemas/content';
import { jobClaimSchema, jobSchema } from './schemas/jobs';
import { revisionClaimSchema } from './schemas/revision-claims';
import { turnViewSchema } from './schemas/turn-views';
import { skillBudgetSchema, skillLockSchema, skillSchema, skillUseSchema } from './schemas/skills';

/** Plain document shapes, as `.lean()` returns them. */
export type ProjectDoc = FlattenMaps<InferSchemaType<typeof projectSchema>> & { _id: unknown };
export type FileDoc = FlattenMaps<InferSchemaType<typeof fileSchema>> & { _id: unknown };
export type FileVersionDoc = FlattenMaps<InferSchemaType<typeof fileVersionSchema>> & { _id: unknown };
export type SessionDoc = FlattenMaps<InferSchemaType<typeof sessionSchema>> & { _id: unknown };
export type MessageDoc = FlattenMaps<InferSchemaType<typeof messageSchema>> & { _id: unknown };
export type TurnDoc = FlattenMaps<InferSchemaType<typeof turnSchema>> & { _id: unknown };
export type UsageRecordDoc = InferSchemaType<typeof usageRecordSchema>;
export type ToolExecutionDoc = InferSchemaType<typeof toolExecutionSchema>;
export type AgentStepDoc = InferSchemaType<typeof agentStepSchema>;
export type SessionLockDoc = InferSchemaType<typeof sessionLockSchema>;
export type JobClaimDoc = InferSchemaType<typeof jobClaimSchema>;
export type ReadSnapshotDoc = InferSchemaType<typeof readSnapshotSchema>;
export type JobDoc = FlattenMaps<InferSchemaType<typeof jobSchema>> & { _id: unknown };
export type TurnContextDoc = FlattenMaps<InferSchemaType<typeof turnContextSchema>>;
export type TurnViewDoc = FlattenMaps<InferSchemaType<typeof turnViewSchema>>;
export type SkillDoc = FlattenMaps<InferSchemaType<typeof skillSchema>> & { _id: unknown };

/** Binds every model to one connection. */
export function createModels(conn: Connection) {
  return {
    Project: conn.model('Project', projectSchema),
    File: conn.model('File', fileSchema),
    FileVersion: conn.model('FileVersion', fileVersionSchema),
    Session: conn.model('Session', sessionSchema),
    Message: conn.model('Message', messageSchema),
    Turn: conn.model('Turn', turnSchema),
    SessionLock: conn.model('SessionLock', sessionLockSchema),
    UsageRecord: conn.model('UsageRecord', usageRecordSchema),
    ToolExecution: conn.model('ToolExecution', toolExecutionSchema),
    AgentStep: conn.model('AgentStep', agentStepSchema),
    ReadSnapshot: conn.model('ReadSnapshot', readSnapshotSchema),
    Job: conn.model('Job', jobSchema),
    JobClaim: conn.model('JobClaim', jobClaimSchema),
    TurnContext: conn.model('TurnContext', turnContextSchema),
    Skill: conn.model('Skill', skillSchema),
    SkillUse: conn.model('SkillUse', skillUseSchema),
    SkillBudget: conn.model('SkillBudget', skillBudgetSchema),
    SkillLock: conn.model('SkillLock', skillLockSchema),
    StreamLedger: conn.model('StreamLedger', streamLedgerSchema),
    RevisionClaim: conn.model('RevisionClaim', revisionClaimSchema),
    TurnView: conn.model('TurnView', turnViewSchema),
  };
}

export type Models = ReturnType<typeof createModels>;

/** Creates declared indexes (idempotent); call once at start-up. */
export async function syncIndexes(models: Models): Promise<void> {
  await Promise.all(Object.values(models).map((m) => m.createIndexes()));
}

export const newId = (): string => new Types.ObjectId().toHexString();

/**
 * A stable ObjectId derived from an idempotency key: a retried activity inserts the same
 * _id, so the unique _id index turns a duplicate write into a no-op.
 */
export function idFromKey(key: string): string {
  return createHash('sha1').update(key).digest('hex').slice(0, 24);
}

/** Duplicate-key error from MongoDB or FerretDB. */
export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: number }).code === 11000;
}

/**
 * Inserts one document unless a unique index says it is there already (a retry, or another
 * writer first): true when this call inserted it, false on a duplicate key. Any other error
 * is thrown.
 */
export async function insertOnce(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the models have unrelated schema types
  model: Model<any>,
  doc: object,
): Promise<boolean> {
  try {
    await model.create(doc);
    return true;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return false;
  }
}
