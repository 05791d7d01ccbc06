/** Sessions, turns and what a turn records on its way: steps, tool executions, usage, reads, context, stream ledger. */
import { Schema } from 'mongoose';
import { TURN_STATUSES } from '../../core/domain';

export const sessionSchema = new Schema(
  {
    projectId: { type: String, required: true, index: true },
    ownerId: { type: String, required: true, index: true },
    /** Given at creation, or the author's first message (core/session-names.ts). */
    title: { type: String, default: '' },
    /** `chat`: the author's conversation; `job`: the session a job writes in (clients list it apart). */
    kind: { type: String, enum: ['chat', 'job'], default: 'chat' },
    /** A job's session: the job, and the chapters it writes. */
    jobId: { type: String, default: null },
    jobChapters: { type: Schema.Types.Mixed, default: null },
    /** Next message sequence number: strict order within the session. */
    messageSeq: { type: Number, default: 0 },
    /** The author's interface language when the session was opened (the reply language until a message sets one). */
    uiLanguage: { type: String, default: null },
  },
  { timestamps: true },
);

export const messageSchema = new Schema(
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

export const usageRollup = {
  promptTokens: { type: Number, default: 0 },
  completionTokens: { type: Number, default: 0 },
  totalTokens: { type: Number, default: 0 },
  estimated: { type: Boolean, default: false },
};

export const turnSchema = new Schema(
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
    /** The author's interface language as the request said it, or the session's. */
    uiLanguage: { type: String, default: null },
    /** A step the turn offered the author without a model (a job command it asked about): a plain yes runs it. */
    offer: { type: Schema.Types.Mixed, default: null },
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
    /** While status is `awaiting_approval`: what the author is asked to approve, until `expiresAt`. */
    pendingApproval: { type: Schema.Types.Mixed, default: null },
    /** Reads the turn's preparation went on without when its time budget ran out (empty: none). */
    prepNotes: { type: [String], default: [] },
  },
  { timestamps: true },
);

// Hot path: the session's previous turn (prepareTurn), newest first without an in-memory sort.
turnSchema.index({ sessionId: 1, createdAt: -1, _id: -1 });

/**
 * One running turn per session. The lock is its own document keyed by session id because
 * FerretDB v1 has no partial indexes; inserting it is the atomic "acquire".
 */
export const sessionLockSchema = new Schema(
  {
    _id: { type: String, required: true }, // sessionId
    turnId: { type: String, required: true },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

export const usageRecordSchema = new Schema(
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
    /** Prompt tokens the provider served from its prefix cache. */
    cachedPromptTokens: { type: Number, default: 0 },
    reasoningTokens: { type: Number, default: 0 },
    /** USD by the price table when the call was made; null when its model had no price. */
    costUsd: { type: Number, default: null },
    priced: { type: Boolean, default: false },
    source: { type: String, enum: ['provider', 'estimate'], required: true },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

export const toolExecutionSchema = new Schema(
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
export const agentStepSchema = new Schema(
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
    /**
     * A step that runs its own tool calls records its answer's facts and
     * where its tool cards start in its stream slot before running them: a retry goes on
     * from here instead of asking the model again (src/activities/step/step-tools.ts).
     */
    result: { type: Schema.Types.Mixed, default: null },
    toolEventsFrom: { type: Number, default: null },
  },
  { timestamps: true },
);

// Hot path: a turn's earlier steps in order (every LLM step, releaseHeldText, finalize).
agentStepSchema.index({ turnId: 1, step: 1 });

/**
 * A version of a file the model saw in full during a turn (for `stale_content`): the
 * `[full]` context at request start (`turnId:fileId`, kind `context`), or a query_files read
 * (`turnId:fileId:read:step`, kind `read`), which counts only from the next model call of
 * the same agent run.
 */
export const readSnapshotSchema = new Schema(
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
 * later step and retry: the `[full]` items really are the text
 * as of the start of the request, and a step costs one read instead of a rebuild.
 */
export const turnContextSchema = new Schema(
  {
    _id: { type: String, required: true }, // turnId
    sessionId: { type: String, required: true },
    projectId: { type: String, required: true },
    ownerId: { type: String, required: true },
    jobId: { type: String, default: null },
    message: { type: String, required: true },
    /** The Turn's focus file (its tool calls need it with the fields above); absent in contexts stored before it was kept. */
    focusFileId: { type: String, default: null },
    /** The enabled skills' catalog (skills L1), appended to every agent's system prompt. */
    skillCatalog: { type: String, default: '' },
    /**
     * The rendered project context and its tokens (both parts): `context` is the standing part
     * (the project's outline, settings and characters shown whole), sent before the history;
     * `contextMoving` what changes from turn to turn (the file list, quotes, chapters,
     * snippets), sent after it — what stays the same comes first, for prefix caches.
     */
    context: { type: String, default: '' },
    contextMoving: { type: String, default: '' },
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

/**
 * How many events each publishing slot of a stream wrote to Redis (slot → count), so a
 * reader can tell events Redis lost in a crash (AOF) from events never written.
 */
export const streamLedgerSchema = new Schema(
  {
    _id: { type: String, required: true }, // the stream's Redis key
    slots: { type: Schema.Types.Mixed, default: {} },
  },
  { minimize: false },
);
