/**
 * What the API answers, as zod schemas of the JSON on the wire (ids and times as strings),
 * one per shape the presenters in present.ts (and the routes' own answers) make. The OpenAPI
 * document lists them as named components, and Studio's REST types are generated from that
 * document (`npm run gen:api-types` → studio/src/generated/api.d.ts): a route whose answer
 * changes here changes Studio's types, and Studio's typecheck fails where it relied on the
 * old shape. tests/api/response-schemas.test.ts holds the real answers to these schemas
 * (no field missing, none extra), so the document cannot drift from the routes.
 *
 * A route takes its answer's schema from `RouteSpec.response`, or from {@link RESPONSES} by
 * `method path` (so routes listed elsewhere need not change to be described).
 */
import { z } from 'zod';
import { AUTHORS, FILE_TYPES, IMPORTANCE_LEVELS, JOB_STATUSES, PROJECT_TYPES, TURN_STATUSES } from '../core/domain';

const when = z.iso.datetime({ offset: true });
const id = z.string();

export const projectTaskResponse = z
  .object({
    id: z.string(),
    title: z.string(),
    status: z.enum(['todo', 'in_progress', 'done']),
    artifact: z.string().optional(),
    doneUnits: z.array(z.number()).optional(),
    progress: z.string().optional(),
  })
  .meta({ id: 'ProjectTask' });

export const projectResponse = z
  .object({
    id,
    title: z.string(),
    type: z.enum(PROJECT_TYPES),
    summary: z.string(),
    author: z.string(),
    style: z.string(),
    notes: z.string(),
    tasks: z.array(projectTaskResponse),
    /** Words the author aims for, for the whole book and for each chapter (null: none set). */
    wordGoal: z.number().int().nullable(),
    chapterWordGoal: z.number().int().nullable(),
    createdAt: when,
    updatedAt: when,
  })
  .meta({ id: 'Project' });

export const sessionResponse = z
  .object({
    id,
    projectId: id,
    title: z.string(),
    /** `job`: the session a job runs its chapters in, kept apart from the author's conversations. */
    kind: z.enum(['chat', 'job']),
    jobChapters: z.object({ from: z.number().int(), to: z.number().int() }).nullable(),
    jobId: id.nullable(),
    createdAt: when,
  })
  .meta({ id: 'Session' });

export const messageResponse = z
  .object({
    id,
    turnId: id,
    role: z.enum(['user', 'assistant']),
    agent: z.string().nullable(),
    content: z.string(),
    /** The tool operations of an agent's message, in words the history replays. */
    breadcrumb: z.array(
      z.object({ op: z.string().optional(), fileId: z.string().optional(), title: z.string().optional() }),
    ),
    seq: z.number().int(),
    createdAt: when,
  })
  .meta({ id: 'Message' });

export const fileSummaryResponse = z
  .object({
    id,
    projectId: id,
    type: z.enum(FILE_TYPES),
    title: z.string(),
    parentId: id.nullable(),
    order: z.number(),
    words: z.number().int(),
    /** The head version's number. */
    version: z.number().int(),
    latestAuthor: z.enum(AUTHORS),
    importance: z.enum(IMPORTANCE_LEVELS).nullable(),
    /** The chapter's own word goal (null: the project's chapter goal applies). */
    wordGoal: z.number().int().nullable(),
    createdAt: when,
    updatedAt: when,
  })
  .meta({ id: 'FileSummary' });

export const versionResponse = z
  .object({
    version: z.number().int(),
    author: z.enum(AUTHORS),
    agent: z.string().nullable(),
    words: z.number().int(),
    /** What made it: create, stream, edit:replace, restore, author_edit … */
    operation: z.string(),
    turnId: id.nullable(),
    /** How many of the author's saves this version stands for (an autosave burst folds many into one). */
    saves: z.number().int(),
    /** The version a restore brought back (null: not a restore). */
    restoredFrom: z.number().int().nullable(),
    createdAt: when,
    /** Only when one version is asked for. */
    content: z.string().optional(),
  })
  .meta({ id: 'VersionInfo' });

export const fileResponse = fileSummaryResponse
  .extend({ content: z.string(), versions: z.array(versionResponse) })
  .meta({ id: 'FileDoc' });

export const trashedFileResponse = fileSummaryResponse
  .extend({
    deletedAt: when,
    /** The folder whose delete took this file along (null: deleted on its own). */
    deletedWith: id.nullable(),
    /** When the trash lets it go for good (null: kept). */
    purgeAt: when.nullable(),
  })
  .meta({ id: 'TrashedFile' });

/** Tokens used; `estimated` when a provider gave no counts and they were estimated (a job's total does not say). */
const tokenUsage = z
  .object({
    promptTokens: z.number(),
    completionTokens: z.number(),
    totalTokens: z.number(),
    estimated: z.boolean().optional(),
  })
  .meta({ id: 'TokenUsage' });

export const turnResponse = z
  .object({
    id,
    sessionId: id,
    projectId: id,
    workflowId: z.string(),
    status: z.enum(TURN_STATUSES),
    stopReason: z.string().nullable(),
    message: z.string(),
    routing: z.record(z.string(), z.unknown()).nullable(),
    agentRuns: z.array(z.object({ agent: z.string().optional(), outcome: z.string().optional() })),
    filesTouched: z.array(id),
    usage: tokenUsage,
    jobId: id.nullable(),
    skills: z.array(id),
    suggestions: z.array(z.string()),
    /** While the turn waits for the author: what it asks to approve. */
    pendingApproval: z.record(z.string(), z.unknown()).nullable(),
    createdAt: when,
    endedAt: when.nullable(),
  })
  .meta({ id: 'Turn' });

/** A running turn's or job's live state, as its workflow reports it (null once it is over). */
const liveState = z.record(z.string(), z.unknown()).nullable();

export const jobResponse = z
  .object({
    id,
    projectId: id,
    sessionId: id,
    workflowId: z.string(),
    status: z.enum(JOB_STATUSES),
    chapters: z.object({ from: z.number().int(), to: z.number().int() }),
    chaptersDone: z.array(z.number().int()),
    chaptersSkipped: z.array(z.number().int()),
    existing: z.enum(['skip', 'revise', 'rewrite']),
    failedChapter: z.number().int().nullable(),
    failure: z.string().nullable(),
    words: z.number().int(),
    usage: tokenUsage,
    review: z.boolean(),
    wordsPerChapter: z.number().int().nullable(),
    maxTokens: z.number().nullable(),
    maxCostUsd: z.number().nullable(),
    instructions: z.string(),
    /** USD so far by the price table; `unpricedCalls` went to a model with no price and are not in it. */
    costUsd: z.number(),
    unpricedCalls: z.number().int(),
    /** The language of the job's messages. */
    language: z.enum(['en', 'zh']),
    createdAt: when,
    updatedAt: when,
  })
  .meta({ id: 'Job' });

/** A job as `GET /jobs/{jobId}` answers: with its progress while it runs (the chapter in flight and its turn). */
export const jobStateResponse = jobResponse
  .extend({
    live: z.looseObject({ chapter: z.number().int().optional(), turnId: id.nullable().optional() }).nullable(),
  })
  .meta({ id: 'JobState' });

const streamToken = z.object({ token: z.string(), expiresAt: when }).meta({ id: 'StreamToken' });

export const startedTurnResponse = z
  .object({
    turnId: id,
    workflowId: z.string(),
    streamUrl: z.string(),
    streamToken: z.string(),
    /** A plain yes or no answered the approval the running turn waited for: no new turn started. */
    approval: z.object({ approvalId: z.string(), decision: z.enum(['approve', 'deny']) }).optional(),
  })
  .meta({ id: 'StartedTurn' });

export const startedJobResponse = z
  .object({ jobId: id, workflowId: z.string(), sessionId: id, streamUrl: z.string(), streamToken: z.string() })
  .meta({ id: 'StartedJob' });

const list = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });

/** The named answers (each has its `meta` id), listed in the document's components even where a route extends them. */
export const RESPONSE_COMPONENTS: z.ZodType[] = [
  projectResponse,
  sessionResponse,
  messageResponse,
  fileSummaryResponse,
  fileResponse,
  versionResponse,
  trashedFileResponse,
  turnResponse,
  jobResponse,
  jobStateResponse,
  startedTurnResponse,
  startedJobResponse,
  streamToken,
];

/** A page of files: live ones with the whole list's `total` and per-type `counts`, or the trash. */
const fileListResponse = list(z.union([trashedFileResponse, fileSummaryResponse])).extend({
  total: z.number().int().optional(),
  counts: z.record(z.string(), z.number().int()).optional(),
  offset: z.number().int().optional(),
  nextOffset: z.number().int().nullable().optional(),
});

const v1 = (p: string): string => `/api/v1${p}`;
/** Answers by `method path` (OpenAPI paths), for routes whose spec does not carry its own. */
export const RESPONSES: Record<string, z.ZodType> = {
  [`post ${v1('/projects')}`]: projectResponse,
  [`get ${v1('/projects')}`]: list(projectResponse),
  [`get ${v1('/projects/{projectId}')}`]: projectResponse,

  [`post ${v1('/sessions')}`]: sessionResponse,
  [`get ${v1('/sessions')}`]: list(sessionResponse),
  [`get ${v1('/sessions/{sessionId}')}`]: sessionResponse,
  [`get ${v1('/sessions/{sessionId}/messages')}`]: list(messageResponse),
  [`get ${v1('/sessions/{sessionId}/turns')}`]: list(turnResponse.extend({ streamUrl: z.string() })),
  [`post ${v1('/sessions/{sessionId}/stream-token')}`]: streamToken,

  [`post ${v1('/sessions/{sessionId}/turns')}`]: startedTurnResponse,
  [`get ${v1('/turns/{turnId}')}`]: turnResponse.extend({ live: liveState }),
  [`post ${v1('/turns/{turnId}/stream-token')}`]: streamToken,
  [`post ${v1('/turns/{turnId}/interrupt')}`]: z.object({ turnId: id, interrupted: z.literal(true) }),
  [`post ${v1('/turns/{turnId}/steer')}`]: z.object({ turnId: id, steered: z.literal(true) }),

  /** Live files a page at a time in the manuscript's order: `total` and `counts` (per type) describe the whole list (the trash answers one page). */
  [`get ${v1('/projects/{projectId}/files')}`]: fileListResponse,
  [`get ${v1('/files')}`]: fileListResponse,
  [`post ${v1('/files')}`]: fileResponse,
  [`get ${v1('/files/{fileId}')}`]: fileResponse,
  /** `folded`: an autosave went into the burst's head version instead of adding one. */
  [`put ${v1('/files/{fileId}')}`]: fileResponse.extend({ changed: z.boolean(), folded: z.boolean() }),
  [`post ${v1('/files/{fileId}/restore')}`]: fileResponse.extend({ restoredFrom: z.number().int() }),
  [`post ${v1('/files/{fileId}/undelete')}`]: fileResponse.extend({
    /** What came back: the file, and a folder's contents, each renamed "… (restored)" when its title was taken meanwhile. */
    restored: z.array(
      z.object({
        id,
        title: z.string(),
        type: z.enum(FILE_TYPES),
        renamedFrom: z.string().optional(),
        movedToTop: z.literal(true).optional(),
      }),
    ),
  }),
  [`get ${v1('/files/{fileId}/versions')}`]: z.object({
    fileId: id,
    title: z.string(),
    headVersion: z.number().int(),
    items: z.array(versionResponse),
  }),
  [`get ${v1('/files/{fileId}/versions/{version}')}`]: versionResponse.extend({ fileId: id, content: z.string() }),

  [`post ${v1('/jobs')}`]: startedJobResponse,
  [`get ${v1('/jobs')}`]: list(jobResponse),
  [`get ${v1('/jobs/{jobId}')}`]: jobStateResponse,
  [`post ${v1('/jobs/{jobId}/stream-token')}`]: streamToken,
};
