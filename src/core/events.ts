/**
 * The stream contract: every event a client can receive on a turn or job stream.
 *
 * This is the only module that declares event field names. Publishers build events with
 * {@link makeEvent}; the SSE route serialises them with {@link toSseFrame}. Adding a field
 * is safe; renaming or removing one breaks front ends silently, and
 * `tests/unit/event-contract.test.ts` pins the names.
 *
 * Pure module: imported by workflows, activities and the API alike.
 */
import { z } from 'zod';

export const AGENTS = ['router', 'planner', 'hook_designer', 'writer', 'quality_reviewer'] as const;
export const agentSchema = z.enum(AGENTS);
export type AgentName = z.infer<typeof agentSchema>;

const usageData = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  /** `provider` when the model reported usage; `estimate` when we had to count. */
  source: z.enum(['provider', 'estimate']),
  model: z.string(),
  /** Prompt tokens the provider served from its prefix cache (billed at the cached price). */
  cachedPromptTokens: z.number().int().nonnegative().optional(),
  reasoningTokens: z.number().int().nonnegative().optional(),
  /** USD of the call by the price table (MODEL_PRICES); null when the model has no price. */
  costUsd: z.number().nonnegative().nullable().optional(),
});
export type UsageData = z.infer<typeof usageData>;

/** Why a turn (or a part of it) stopped. `read_only_handoff_blocked` is the one non-terminal reason. */
export const STOP_REASONS = [
  'interrupted',
  'clarification_requested',
  'question_to_author',
  'max_agent_runs',
  'read_only_handoff_blocked',
  'invalid_handoff',
  'tool_failure_circuit_open',
  'paused',
  'cancelled',
  'empty_file_unwritten',
  /** The provider ended the answer at its output limit (`finish_reason: "length"`). */
  'output_truncated',
  /** The provider's content filter ended the answer (`finish_reason: "content_filter"`). */
  'content_filtered',
  /** The model answered with nothing: no text, no tool call. */
  'empty_answer',
] as const;
export const NON_TERMINAL_STOP_REASONS: readonly string[] = ['read_only_handoff_blocked'];
/**
 * Stops that say what became of the answer's own text (cut off, filtered, empty): their
 * message also ends the stored reply and goes out as its last text, so a client reading the
 * chat, live or later, learns it as the card says it.
 */
export const TOLD_IN_REPLY_STOP_REASONS: readonly string[] = ['output_truncated', 'content_filtered', 'empty_answer'];

/**
 * Refusals that are a tool doing its job, not a failure: clients show them as "kept your
 * edits" (author protection, the author edited meanwhile), "asking first" (the request was
 * too vague to edit), or "read-only turn" (the author asked for no changes).
 */
export const INTENTIONAL_REFUSALS = {
  author_edit_protected: 'kept_your_edits',
  stale_content: 'kept_your_edits',
  file_deleted: 'kept_your_edits',
  author_declined: 'kept_your_edits',
  approval_timeout: 'kept_your_edits',
  clarify_first: 'asking_first',
  read_only_request: 'read_only',
} as const;
export const REFUSAL_KINDS = ['kept_your_edits', 'asking_first', 'read_only'] as const;
export type RefusalKind = (typeof REFUSAL_KINDS)[number];

/** The refusal kind of a tool error, or undefined when the error is a real failure. */
export const refusalOf = (errorType: string | undefined): RefusalKind | undefined =>
  errorType && Object.hasOwn(INTENTIONAL_REFUSALS, errorType)
    ? INTENTIONAL_REFUSALS[errorType as keyof typeof INTENTIONAL_REFUSALS]
    : undefined;

/** What a `job_progress` event reports (its `kind`). */
export const JOB_PROGRESS_KINDS = ['status', 'turn', 'chapter', 'skipped', 'note'] as const;
export type JobProgressKind = (typeof JOB_PROGRESS_KINDS)[number];

/** Payload of each event type, keyed by `type`. */
export const eventDataSchemas = {
  /** First event of a turn, sent before any model call, so a client never waits in silence. */
  turn_started: z.object({ sessionId: z.string() }),
  agent_selected: z.object({
    agent: agentSchema,
    reason: z.string(),
    plan: z.string().optional(),
    run: z.number().int(),
  }),
  thinking: z.object({ delta: z.string() }),
  content: z.object({ delta: z.string() }),
  tool_call: z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()), summary: z.string() }),
  tool_result: z.object({
    name: z.string(),
    ok: z.boolean(),
    errorType: z.string().optional(),
    message: z.string().optional(),
    result: z.record(z.string(), z.unknown()).optional(),
    /** Set when `ok` is false on purpose (see {@link INTENTIONAL_REFUSALS}): show it as such, not as "failed". */
    refusal: z.enum(REFUSAL_KINDS).optional(),
  }),
  /** `version`: the file's version number this write made (absent for an empty file and in events from before it was sent). */
  file_created: z.object({
    fileId: z.string(),
    title: z.string(),
    fileType: z.string(),
    versionId: z.string().optional(),
    words: z.number().int(),
    version: z.number().int().optional(),
  }),
  file_updated: z.object({
    fileId: z.string(),
    title: z.string(),
    fileType: z.string(),
    versionId: z.string(),
    words: z.number().int(),
    operation: z.string(),
    version: z.number().int().optional(),
  }),
  file_content: z.object({ fileId: z.string(), delta: z.string() }),
  handoff: z.object({
    from: agentSchema,
    to: agentSchema,
    kind: z.enum(['explicit', 'planned', 'review_gate', 'continuation', 'planner_repair', 'empty_file_repair']),
    reason: z.string(),
    /** The handoff as one sentence in the author's language, for people; `kind` and `reason` are for programs. */
    text: z.string().optional(),
  }),
  workflow_stopped: z.object({ reason: z.enum(STOP_REASONS), message: z.string(), terminal: z.boolean() }),
  steering_received: z.object({ message: z.string() }),
  usage: usageData,
  /** A retried step starts over: what it published before voids as {@link STEP_RETRY_VOIDS} says, the rest stands. */
  step_retry: z.object({ attempt: z.number().int(), message: z.string() }),
  /** A retried step goes on from the text its earlier attempt streamed: clients keep that step's text and append. */
  step_resumed: z.object({
    step: z.number().int(),
    attempt: z.number().int(),
    keptChars: z.number().int().nonnegative(),
    message: z.string(),
  }),
  /**
   * An agent asks to delete or wholly rewrite files the author wrote, which the author's
   * message did not authorise: the turn waits (TurnStatus awaiting_approval) for
   * `POST /turns/:turnId/approvals/:approvalId {decision}` until `expiresAt`.
   */
  approval_requested: z.object({
    approvalId: z.string(),
    fileId: z.string(),
    title: z.string(),
    action: z.enum(['delete', 'rewrite']),
    files: z.array(z.object({ id: z.string(), title: z.string() })),
    preview: z.string(),
    expiresAt: z.string(),
    /** A rewrite: lines that would go and come, and the start of the text that would go (for clients to word; `preview` says it in English). */
    change: z.object({ removed: z.number().int(), added: z.number().int() }).optional(),
    excerpt: z.string().optional(),
  }),
  /** The author's decision (`timeout` when none came in time, `deny` too when the turn was interrupted). */
  approval_decided: z.object({ approvalId: z.string(), decision: z.enum(['approve', 'deny', 'timeout']) }),
  job_progress: z.object({
    chapter: z.number().int(),
    of: z.number().int(),
    from: z.number().int(),
    to: z.number().int(),
    chaptersDone: z.number().int(),
    status: z.string(),
    words: z.number().int(),
    usage: z.object({
      promptTokens: z.number().int(),
      completionTokens: z.number().int(),
      totalTokens: z.number().int(),
    }),
    turnId: z.string().optional(),
    message: z.string().optional(),
    /**
     * What happened: `status` (the job's status changed), `turn` (a child turn began: `turnId`
     * is the chapter's turn in flight, whose own stream carries the chapter's words as they are
     * written), `chapter` (chapter `chapter` was written and checked), `skipped` (it already had
     * text), `note` (anything else worth telling). Absent on streams older than this field.
     */
    kind: z.enum(JOB_PROGRESS_KINDS).optional(),
    /** On `turn` events: what the turn is for (the outline, a chapter's first draft, a revision) and its revision round (0: the first). */
    turnKind: z.enum(['outline', 'chapter', 'revision']).optional(),
    round: z.number().int().nonnegative().optional(),
    /** The job's cost so far in USD by the price table (every priced call of its turns). */
    costUsd: z.number().nonnegative().optional(),
    /** Calls of the job to a model with no price: their cost is not in `costUsd`. */
    unpricedCalls: z.number().int().nonnegative().optional(),
  }),
  reset: z.object({ reason: z.string(), stateUrl: z.string(), lastAvailableId: z.string().nullable() }),
  error: z.object({ code: z.string(), message: z.string(), retryable: z.boolean() }),
  /** 2–4 short next steps for the author, in their language; sent just before `done` (kept on the turn too). */
  suggestions: z.object({ items: z.array(z.string()), language: z.enum(['zh', 'en']) }),
  done: z.object({ status: z.string() }),
  // The session feed (GET /sessions/:id/events) also carries turn_started, approval_requested,
  // approval_decided and job_progress, with `sessionId` in the envelope; the three below are
  // its own. None is terminal: the feed lives as long as the session.
  /** A turn of the session ended (the turn's own stream ends with `done` at the same moment). */
  turn_finished: z.object({ status: z.string(), stopReason: z.string().nullable() }),
  /** A job writing into the session started (its first job_progress follows on the job's stream and here). */
  job_started: z.object({ from: z.number().int(), to: z.number().int() }),
  /** A job of the session ended: completed, cancelled or failed (the job's own stream ends with `done`). */
  job_finished: z.object({ status: z.string() }),
  /** A job of the session posted its closing message (what was written, what is left): the message's text, already stored. */
  job_summary: z.object({ status: z.string(), message: z.string() }),
} as const;

export type EventType = keyof typeof eventDataSchemas;
export const EVENT_TYPES = Object.keys(eventDataSchemas) as EventType[];
export type EventData<T extends EventType> = z.infer<(typeof eventDataSchemas)[T]>;

/** Fields every event carries, whatever its type. */
const envelopeBase = {
  /** Turn the event belongs to; on job streams, the chapter's turn when there is one. */
  turnId: z.string().optional(),
  jobId: z.string().optional(),
  /** Set on session-feed events: the session they happened in. */
  sessionId: z.string().optional(),
  agent: agentSchema.optional(),
  /** LLM step within the turn (1-based), when the event comes from one. */
  step: z.number().int().optional(),
  /** Activity attempt that produced the event (Temporal's attempt number). */
  attempt: z.number().int().optional(),
  /** Strictly increasing within a stream (not contiguous); the SSE `id:` carries the same order. */
  seq: z.number().int().nonnegative(),
  /** ISO-8601 with milliseconds. */
  ts: z.string(),
};

/** Tool events are keyed by the model's tool-call id so cards never get mixed up. */
export const TOOL_EVENT_TYPES = ['tool_call', 'tool_result'] as const;
type ToolEventType = (typeof TOOL_EVENT_TYPES)[number];

function envelopeOf<T extends Exclude<EventType, ToolEventType>>(type: T) {
  return z.object({
    type: z.literal(type),
    ...envelopeBase,
    toolCallId: z.string().optional(),
    data: eventDataSchemas[type],
  });
}

// A separate builder (not a conditional spread) so the inferred type says `toolCallId: string`.
function toolEnvelopeOf<T extends ToolEventType>(type: T) {
  return z.object({
    type: z.literal(type),
    ...envelopeBase,
    toolCallId: z.string().min(1),
    data: eventDataSchemas[type],
  });
}

export const streamEventSchema = z.discriminatedUnion('type', [
  envelopeOf('turn_started'),
  envelopeOf('agent_selected'),
  envelopeOf('thinking'),
  envelopeOf('content'),
  toolEnvelopeOf('tool_call'),
  toolEnvelopeOf('tool_result'),
  envelopeOf('file_created'),
  envelopeOf('file_updated'),
  envelopeOf('file_content'),
  envelopeOf('handoff'),
  envelopeOf('workflow_stopped'),
  envelopeOf('steering_received'),
  envelopeOf('usage'),
  envelopeOf('step_retry'),
  envelopeOf('step_resumed'),
  envelopeOf('approval_requested'),
  envelopeOf('approval_decided'),
  envelopeOf('job_progress'),
  envelopeOf('reset'),
  envelopeOf('error'),
  envelopeOf('suggestions'),
  envelopeOf('done'),
  envelopeOf('turn_finished'),
  envelopeOf('job_started'),
  envelopeOf('job_finished'),
  envelopeOf('job_summary'),
]);

export type StreamEvent = z.infer<typeof streamEventSchema>;
export type StreamEventOf<T extends EventType> = Extract<StreamEvent, { type: T }>;

/** The envelope fields a publisher supplies; `seq` and `ts` are stamped at publish time. */
export type EventDraft<T extends EventType = EventType> = {
  type: T;
  data: EventData<T>;
  turnId?: string;
  jobId?: string;
  sessionId?: string;
  agent?: AgentName;
  step?: number;
  attempt?: number;
  toolCallId?: string;
};

/** Draft of any event type (a union, so `type` and `data` stay tied together). */
export type AnyEventDraft = { [T in EventType]: EventDraft<T> }[EventType];

export function draft<T extends EventType>(
  type: T,
  data: EventData<T>,
  extra: Omit<EventDraft<T>, 'type' | 'data'> = {},
): EventDraft<T> {
  return { type, data, ...extra };
}

/** Validates a draft and stamps it. Throws on a contract violation: a bad event is a bug, not data. */
export function makeEvent(d: AnyEventDraft, seq: number, ts: string): StreamEvent {
  return streamEventSchema.parse({ ...d, seq, ts });
}

/** Events after which a client should stop reading (the stream is over). */
export function isTerminal(event: Pick<StreamEvent, 'type'>): boolean {
  return event.type === 'done';
}

/** One SSE frame. The only function that writes `id:` / `event:` / `data:` lines. */
export function toSseFrame(id: string, event: StreamEvent): string {
  return `id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** A `reset` frame has no stream id of its own: it tells the client to reload persisted state. */
export function toSseResetFrame(event: StreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
