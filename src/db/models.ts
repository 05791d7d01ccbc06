/**
 * MongoDB models. Only features MongoDB and FerretDB v1 both support are used: no
 * multi-document transactions, no change streams; unique indexes carry idempotency.
 * Every timestamp is a Date (millisecond precision) and everything that must keep its
 * order also has an integer sequence (seed 002, pit 8: same-second writes must not reorder).
 */
import { createHash } from 'node:crypto';
import { type FlattenMaps, Schema, type Connection, type InferSchemaType, Types } from 'mongoose';
import { AUTHORS, FILE_TYPES, IMPORTANCE_LEVELS, JOB_STATUSES, PROJECT_TYPES, TURN_STATUSES } from '../shared/domain';

const taskSchema = new Schema(
  {
    id: { type: String, required: true },
    title: { type: String, required: true },
    status: { type: String, enum: ['todo', 'in_progress', 'done'], default: 'todo' },
    artifact: { type: String },
    doneUnits: { type: [Number], default: undefined },
    progress: { type: String },
  },
  { _id: false },
);

const projectSchema = new Schema(
  {
    ownerId: { type: String, required: true, index: true },
    title: { type: String, required: true },
    type: { type: String, enum: PROJECT_TYPES, required: true },
    summary: { type: String, default: '' },
    style: { type: String, default: '' },
    notes: { type: String, default: '' },
    tasks: { type: [taskSchema], default: [] },
    /** Revision of summary, style, notes and tasks, written only through src/db/project-state.ts (revision claims). */
    rev: { type: Number, default: 0 },
  },
  { timestamps: true },
);

const fileSchema = new Schema(
  {
    projectId: { type: String, required: true },
    ownerId: { type: String, required: true },
    type: { type: String, enum: FILE_TYPES, required: true },
    title: { type: String, required: true },
    parentId: { type: String, default: null },
    order: { type: Number, default: 0 },
    content: { type: String, default: '' },
    words: { type: Number, default: 0 },
    versionCount: { type: Number, default: 0 },
    latestAuthor: { type: String, enum: AUTHORS, default: 'ai' },
    /** Set by create_file without content: the body is expected as a `<file>` block next. */
    pendingTurnId: { type: String, default: null },
    /** Turn that created the file (lets a read-only turn roll back its empty file). */
    createdByTurnId: { type: String, default: null },
    deletedAt: { type: Date, default: null },
    /** Idempotency key of the delete_file call that deleted it: a retry recognises its own delete. */
    deletedByKey: { type: String, default: null },
    /** Characters and settings: how much they matter (null = not set, read as medium). */
    importance: { type: String, enum: [...IMPORTANCE_LEVELS, null], default: null },
    /** Who set the importance: an agent does not override the author's choice. */
    importanceSetBy: { type: String, enum: [...AUTHORS, null], default: null },
    /** One id per delete: a folder's recursive delete trashes its contents under the folder's batch, and undelete restores the batch. */
    deletedBatch: { type: String, default: null },
    /** The file the delete was aimed at (the folder, for files trashed with it). */
    deletedWith: { type: String, default: null },
  },
  { timestamps: true },
);
fileSchema.index({ projectId: 1, type: 1, order: 1 });
fileSchema.index({ projectId: 1, parentId: 1, order: 1 });
// Hot path (bench/turn-kit/explain.ts): the pending empty file of a turn (create_file, finalize's rollback).
fileSchema.index({ pendingTurnId: 1 });

const fileVersionSchema = new Schema(
  {
    fileId: { type: String, required: true },
    projectId: { type: String, required: true },
    version: { type: Number, required: true },
    content: { type: String, default: '' },
    words: { type: Number, default: 0 },
    author: { type: String, enum: AUTHORS, required: true },
    agent: { type: String, default: null },
    turnId: { type: String, default: null },
    /** What produced it: create, stream, edit:replace, restore, author_edit … */
    operation: { type: String, required: true },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);
// A retried write computes the same version number, so this index is what stops a duplicate.
fileVersionSchema.index({ fileId: 1, version: 1 }, { unique: true });

const sessionSchema = new Schema(
  {
    projectId: { type: String, required: true, index: true },
    ownerId: { type: String, required: true, index: true },
    title: { type: String, default: '' },
    /** Next message sequence number: strict order within the session. */
    messageSeq: { type: Number, default: 0 },
  },
  { timestamps: true },
);

const messageSchema = new Schema(
  {
    sessionId: { type: String, required: true },
    projectId: { type: String, required: true },
    turnId: { type: String, required: true },
    role: { type: String, enum: ['user', 'assistant'], required: true },
    agent: { type: String, default: null },
    content: { type: String, default: '' },
    /** Tool operations of this message, replayed as "[earlier tool operations]" in history. */
    breadcrumb: { type: [{ op: String, fileId: String, title: String, _id: false }], default: [] },
    seq: { type: Number, required: true },
    /** Idempotency: one message per (turn, slot) even when finalize is retried. */
    key: { type: String, required: true },
  },
  { timestamps: true },
);
messageSchema.index({ sessionId: 1, seq: 1 });
messageSchema.index({ key: 1 }, { unique: true });
// Hot path: the previous turn's last assistant message (prepareTurn).
messageSchema.index({ turnId: 1, seq: 1 });

const usageRollup = {
  promptTokens: { type: Number, default: 0 },
  completionTokens: { type: Number, default: 0 },
  totalTokens: { type: Number, default: 0 },
  estimated: { type: Boolean, default: false },
};

const turnSchema = new Schema(
  {
    sessionId: { type: String, required: true, index: true },
    projectId: { type: String, required: true, index: true },
    ownerId: { type: String, required: true, index: true },
    message: { type: String, required: true },
    focusFileId: { type: String, default: null },
    attachedFileIds: { type: [String], default: [] },
    quotes: { type: [String], default: [] },
    status: { type: String, enum: TURN_STATUSES, default: 'queued' },
    stopReason: { type: String, default: null },
    /** Routing decision as the workflow used it (also read by the next turn's router). */
    routing: { type: Schema.Types.Mixed, default: null },
    agentRuns: { type: [{ agent: String, outcome: String, _id: false }], default: [] },
    /** Where "continue" picks up when the turn stopped before its plan was done. */
    resume: { type: Schema.Types.Mixed, default: null },
    filesTouched: { type: [String], default: [] },
    usage: usageRollup,
    workflowId: { type: String, required: true },
    jobId: { type: String, default: null },
    endedAt: { type: Date, default: null },
    /** Id of the HTTP request that started the turn (X-Request-Id): joins API logs to the turn. */
    requestId: { type: String, default: null },
    /** Skills the author named for this turn (ids of their enabled skills). */
    skills: { type: [String], default: [] },
    /** Next steps offered to the author when the turn ended (empty when none were made). */
    suggestions: { type: [String], default: [] },
  },
  { timestamps: true },
);

// Hot path: the session's previous turn (prepareTurn), newest first without an in-memory sort.
turnSchema.index({ sessionId: 1, createdAt: -1, _id: -1 });

/**
 * One running turn per session. The lock is its own document keyed by session id because
 * FerretDB v1 has no partial indexes; inserting it is the atomic "acquire".
 */
const sessionLockSchema = new Schema(
  {
    _id: { type: String, required: true }, // sessionId
    turnId: { type: String, required: true },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

const usageRecordSchema = new Schema(
  {
    _id: { type: String, required: true }, // idempotency key: turnId:run:step
    turnId: { type: String, required: true, index: true },
    sessionId: { type: String, required: true, index: true },
    projectId: { type: String, required: true, index: true },
    ownerId: { type: String, required: true, index: true },
    jobId: { type: String, default: null },
    agent: { type: String, required: true },
    step: { type: Number, required: true },
    model: { type: String, required: true },
    promptTokens: { type: Number, required: true },
    completionTokens: { type: Number, required: true },
    totalTokens: { type: Number, required: true },
    source: { type: String, enum: ['provider', 'estimate'], required: true },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

const toolExecutionSchema = new Schema(
  {
    key: { type: String, required: true }, // turnId:step:toolCallId
    turnId: { type: String, required: true, index: true },
    name: { type: String, required: true },
    result: { type: Schema.Types.Mixed, required: true },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);
toolExecutionSchema.index({ key: 1 }, { unique: true });

/** The model transcript of one LLM step; kept out of workflow history on purpose. */
const agentStepSchema = new Schema(
  {
    _id: { type: String, required: true }, // turnId:step
    turnId: { type: String, required: true, index: true },
    run: { type: Number, required: true },
    step: { type: Number, required: true },
    agent: { type: String, required: true },
    /** Chat text shown to the author (file blocks removed). */
    text: { type: String, default: '' },
    /** The text was held back (writer summary hold), not streamed live. */
    held: { type: Boolean, default: false },
    /** Raw assistant content as the model wrote it (sent back to the model). */
    rawContent: { type: String, default: '' },
    toolCalls: { type: [{ id: String, name: String, arguments: String, _id: false }], default: [] },
    toolResults: { type: [{ toolCallId: String, content: String, _id: false }], default: [] },
    /** Handoff packet of the run as the model saw it (review content expanded); later steps reuse it. */
    packet: { type: String, default: null },
    /** Body captured from a `<file>` block, saved by the file tool activity. */
    captured: { type: [{ fileId: String, body: String, closed: Boolean, _id: false }], default: [] },
    attempt: { type: Number, default: 1 },
  },
  { timestamps: true },
);

// Hot path: a turn's earlier steps in order (every LLM step, releaseHeldText, finalize).
agentStepSchema.index({ turnId: 1, step: 1 });

/** One active job per project: inserting the claim is the atomic check (like SessionLock). */
const jobClaimSchema = new Schema(
  {
    _id: { type: String, required: true }, // projectId
    jobId: { type: String, required: true },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

/**
 * How many events each publishing slot of a stream wrote to Redis (slot → count), so a
 * reader can tell events Redis lost in a crash (AOF) from events never written.
 */
const streamLedgerSchema = new Schema(
  {
    _id: { type: String, required: true }, // the stream's Redis key
    slots: { type: Schema.Types.Mixed, default: {} },
  },
  { minimize: false },
);

/**
 * A version of a file the model saw in full during a turn (for `stale_content`): the
 * `[full]` context at request start (`turnId:fileId`, kind `context`), or a query_files read
 * (`turnId:fileId:read:step`, kind `read`), which counts only from the next model call of
 * the same agent run.
 */
const readSnapshotSchema = new Schema(
  {
    _id: { type: String, required: true },
    turnId: { type: String, required: true, index: true },
    fileId: { type: String, required: true },
    version: { type: Number, required: true },
    kind: { type: String, enum: ['context', 'read'], default: 'context' },
    run: { type: Number, default: null },
    step: { type: Number, default: null },
  },
  { timestamps: true },
);

/**
 * The context of one turn, assembled once by its first model step and reused by every
 * later step and retry (seed 001 ContextAssembler): the `[full]` items really are the text
 * as of the start of the request, and a step costs one read instead of a rebuild.
 */
const turnContextSchema = new Schema(
  {
    _id: { type: String, required: true }, // turnId
    sessionId: { type: String, required: true },
    projectId: { type: String, required: true },
    ownerId: { type: String, required: true },
    jobId: { type: String, default: null },
    message: { type: String, required: true },
    /** The enabled skills' catalog (skills L1), appended to every agent's system prompt. */
    skillCatalog: { type: String, default: '' },
    /** The rendered project-context block and its tokens. */
    context: { type: String, default: '' },
    contextTokens: { type: Number, default: 0 },
    /** The author's message as the model gets it: working set + label + message. */
    userContent: { type: String, default: '' },
    userTokens: { type: Number, default: 0 },
    /** Files shown whole (context `[full]` items and working-set files) with the version shown. */
    shown: { type: [{ fileId: String, version: Number, _id: false }], default: [] },
    /** Session history before this turn, newest first, already cut to the history budget. */
    history: { type: [{ role: String, content: String, tokens: Number, _id: false }], default: [] },
    /** What the assembly chose, for benchmarks and operators. */
    stats: { type: Schema.Types.Mixed, default: null },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

const jobSchema = new Schema(
  {
    ownerId: { type: String, required: true, index: true },
    projectId: { type: String, required: true, index: true },
    sessionId: { type: String, required: true },
    from: { type: Number, required: true },
    to: { type: Number, required: true },
    instructions: { type: String, default: '' },
    review: { type: Boolean, default: false },
    wordsPerChapter: { type: Number, default: null },
    /** Token budget (null: none); the job pauses before a chapter that would exceed it. */
    maxTokens: { type: Number, default: null },
    status: { type: String, enum: JOB_STATUSES, default: 'queued' },
    chaptersDone: { type: [Number], default: [] },
    failedChapter: { type: Number, default: null },
    failure: { type: String, default: null },
    words: { type: Number, default: 0 },
    usage: usageRollup,
    workflowId: { type: String, required: true },
  },
  { timestamps: true },
);

/**
 * A user's skill (standard SKILL.md package). Its text is data shown to the model on
 * request, never instructions that widen what an agent may do; its scripts are never run.
 */
const skillSchema = new Schema(
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
const skillUseSchema = new Schema(
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
const skillBudgetSchema = new Schema(
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
const skillLockSchema = new Schema(
  {
    _id: { type: String, required: true }, // turnId
    holder: { type: String, required: true },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

/**
 * Revision claims (src/db/revision-claims.ts). Inserting `_id` is the one atomic step of a
 * compare-and-set on FerretDB v1: `<Model>:<docId>:<rev>` claims a revision and holds the
 * document's full new value; `<Model>:<docId>:del:<incarnation>` claims the deletion of one
 * incarnation of a lock-like document.
 */
const revisionClaimSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** `<Model>:<docId>` for revisions, `<Model>:<docId>:del` for deletions. */
    target: { type: String, required: true },
    rev: { type: Number, required: true },
    value: { type: Schema.Types.Mixed, default: null },
  },
  { timestamps: { createdAt: true, updatedAt: false }, minimize: false },
);
revisionClaimSchema.index({ target: 1, rev: -1 });

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
