/**
 * What each activity accepts, checked where it starts (input-check.ts) rather than trusted.
 *
 * An activity's input is written by a workflow that may be of another build: a job that moved
 * builds at a chapter boundary, a worker of the last deploy still draining, a history replayed
 * on new code. So every schema here is loose in one way and strict in another:
 * - **Tolerant of additions.** Objects are `looseObject`: a field an older build does not know
 *   passes through untouched (the activity gets its input as sent, never a stripped copy).
 * - **Strict on what the activity reads.** A field the activity needs that is missing or of
 *   the wrong kind fails the call at once with the field named, instead of an `undefined`
 *   deep inside a MongoDB query or a half-published event.
 *
 * The rule this enforces is the one in docs/operations.md: an activity input only ever gains
 * optional fields; none is removed or renamed within one deploy. The type check at the bottom
 * makes every input a workflow of this build can send one its schema accepts, and gives every
 * registered activity a schema (a new activity without one does not compile).
 *
 * Event drafts are checked here only as far as their type; their data is checked against the
 * stream contract when they are published (makeEvent), where a bad event is a bug.
 */
import { z } from 'zod';
import { EVENT_TYPES, agentSchema } from '../core/events';
import { JOB_STATUSES, TURN_STATUSES } from '../core/domain';
import { PLANS, workAgentSchema } from '../core/plans';
import type { Activities } from './index';

const id = z.string().min(1);
const count = z.number().int().nonnegative();
const slot = count;
const language = z.enum(['zh', 'en']).optional();

const usage = z.looseObject({ promptTokens: count, completionTokens: count, totalTokens: count });
const eventDraft = z.looseObject({
  type: z.enum(EVENT_TYPES),
  data: z.unknown(),
  agent: agentSchema.optional(),
});
const routing = z.looseObject({
  current_agent: workAgentSchema,
  workflow_plan: z.enum(PLANS),
  workflow_agents: z.array(workAgentSchema),
  write_content: z.boolean(),
  read_only: z.boolean(),
  scope: z.string(),
  clarify_first: z.boolean(),
  source: z.string(),
  notes: z.array(z.string()),
});
const toolFlags = z.looseObject({ readOnly: z.boolean(), clarifyFirst: z.boolean() });
const verdict = z.enum(['approve', 'deny', 'timeout']);
const toolInput = z.looseObject({
  turnId: id,
  run: count,
  step: count,
  agent: workAgentSchema,
  toolCallId: id,
  slot,
  flags: toolFlags,
  approval: z.looseObject({ approvalId: id, decision: verdict }).optional(),
});
const jobOffer = z.looseObject({
  kind: z.literal('job'),
  action: z.enum(['pause', 'resume', 'cancel', 'stop']),
  jobId: id,
});
const jobStatus = z.enum(JOB_STATUSES);
const jobTurnKind = z.enum(['outline', 'chapter', 'revision']);

export const activityInputs = {
  prepareTurn: z.looseObject({
    turnId: id,
    sessionId: id.optional(),
    projectId: id.optional(),
    openingSeq: count.optional(),
    prefetch: z.looseObject({ context: z.boolean(), router: z.boolean() }),
  }),
  releaseHeldText: z.looseObject({ turnId: id, runs: z.array(count), slot, agent: workAgentSchema }),
  finalizeTurn: z.looseObject({
    turnId: id,
    slot,
    status: z.enum(TURN_STATUSES),
    stopReason: z.string().nullable(),
    stopMessage: z.string().nullable(),
    routing: routing.nullable(),
    runs: z.array(
      z.looseObject({
        run: count,
        agent: workAgentSchema,
        kind: z.string(),
        outcome: z.string(),
        textDropped: z.boolean(),
      }),
    ),
    resume: z.looseObject({ agent: workAgentSchema, remaining: z.array(workAgentSchema) }).nullable(),
    deferredStops: z.array(z.looseObject({ reason: z.literal('read_only_handoff_blocked'), message: z.string() })),
    error: z.looseObject({ code: z.string(), message: z.string() }).nullable(),
    releaseHeldRuns: z.array(count).optional(),
    lastStep: count,
    sessionId: id,
    language,
  }),
  announceTurn: z.looseObject({ turnId: id, sessionId: id, slot, jobId: id.nullable().optional() }),
  answerNoise: z.looseObject({
    turnId: id,
    slot,
    kind: z.enum(['noise', 'declined', 'direct']).optional(),
    text: z.string().optional(),
    offer: jobOffer.optional(),
  }),
  routeTurn: z.looseObject({ turnId: id }),
  llmStep: z.looseObject({
    turnId: id,
    run: count,
    step: count,
    agent: workAgentSchema,
    slot,
    runKind: z.string(),
    packet: z.string().nullable(),
    language,
    scope: z.looseObject({
      scope: z.string(),
      writeContent: z.boolean(),
      readOnly: z.boolean(),
      clarifyFirst: z.boolean(),
      remainingPlan: z.array(workAgentSchema),
    }),
    pendingFileId: id.nullable(),
    holdChat: z.boolean(),
    textBefore: z.boolean().optional(),
    afterToolCalls: z.boolean().optional(),
    steering: z.array(z.string()),
    prelude: z.array(eventDraft),
    runTools: z.looseObject({ flags: toolFlags }),
  }),
  executeTool: toolInput,
  prepareParallel: toolInput,
  runParallelTask: toolInput.extend({ index: count }),
  finishParallel: toolInput,
  suggestNextSteps: z.looseObject({ turnId: id, status: z.string(), language }),
  publishEvents: z.looseObject({
    streamKind: z.enum(['turn', 'job']),
    streamId: id,
    slot,
    events: z.array(eventDraft),
    final: z.boolean().optional(),
  }),
  openJobTurn: z.looseObject({
    jobId: id,
    kind: jobTurnKind,
    reviseExisting: z.boolean().optional(),
    chapter: count,
    attempt: count,
    round: count,
    reviewTurnId: id.optional(),
    failWhenBusy: z.boolean().optional(),
    sessionId: id.optional(),
    projectId: id.optional(),
  }),
  abandonJobTurn: z.looseObject({ turnId: id }),
  existingChapters: z.looseObject({ jobId: id }),
  jobCost: z.looseObject({ jobId: id }),
  jobOutlineStatus: z.looseObject({ jobId: id }),
  reviewVerdict: z.looseObject({ turnId: id }),
  finishChapter: z.looseObject({
    jobId: id,
    chapter: count,
    turnIds: z.array(id),
    slot,
    status: jobStatus,
    usage,
    projectId: id.optional(),
  }),
  recordJob: z.looseObject({
    jobId: id,
    slot,
    status: jobStatus.optional(),
    failure: z
      .looseObject({ chapter: count.nullable(), message: z.string(), reason: z.string().optional() })
      .nullable()
      .optional(),
    usage: usage.optional(),
    progress: z
      .looseObject({
        chapter: count,
        chaptersDone: count,
        words: count,
        usage,
        status: jobStatus,
        turnId: id.optional(),
        message: z.string().optional(),
        turn: z.looseObject({ kind: jobTurnKind, round: count }).optional(),
      })
      .optional(),
    skippedChapter: count.optional(),
    done: z.boolean().optional(),
    summary: z.looseObject({ revisions: count, next: count }).optional(),
  }),
  requestApproval: z.looseObject({
    turnId: id,
    approval: z.looseObject({
      approvalId: id,
      toolCallId: id,
      step: count,
      action: z.enum(['delete', 'rewrite']),
      fileId: id,
      title: z.string(),
    }),
    waitSeconds: z.number().nonnegative(),
    slot,
  }),
  approvalDecided: z.looseObject({ turnId: id, approvalId: id, decision: verdict, slot }),
  findJobForCommand: z.looseObject({ turnId: id, jobId: id.nullable() }),
} satisfies { [K in keyof Activities]: z.ZodType };

type ActivityName = keyof typeof activityInputs;

/** The input a workflow of this build sends to activity K (read-only parts as plain data: a schema checks values, not mutability). */
type SentInput<K extends keyof Activities> = Writable<Parameters<Activities[K]>[0]>;
type Writable<T> = T extends readonly (infer U)[]
  ? Writable<U>[]
  : T extends object
    ? { -readonly [P in keyof T]: Writable<T[P]> }
    : T;

/**
 * Every input this build can send is one its schema accepts: a schema stricter than the type
 * (a field made required here but optional in the code) is a compile error, not a failed turn.
 */
type Rejected = {
  [K in ActivityName]: [SentInput<K>] extends [z.input<(typeof activityInputs)[K]>] ? never : K;
}[ActivityName];
const everySentInputAccepted: [Rejected] extends [never] ? true : Rejected = true;
void everySentInputAccepted;
