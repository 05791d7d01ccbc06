/**
 * One zod schema per request shape. Strict (unknown keys are errors) and capped, so a
 * request either means exactly one thing or is refused with field errors. The OpenAPI
 * document is generated from these same schemas.
 */
import { EXISTING_CHAPTER_MODES } from '../core/job/job-messages';
import { z } from 'zod';
import { fileTypeSchema, importanceSchema, objectIdSchema, projectTypeSchema } from '../core/domain';

const text = (max: number) => z.string().max(max);

export const createProjectBody = z
  .object({
    title: text(200).min(1),
    type: projectTypeSchema,
    summary: text(4000).optional(),
    style: text(4000).optional(),
    notes: text(4000).optional(),
    /** The author's name, for an exported book's front matter. */
    author: text(200).optional(),
  })
  .strict();

/** A word goal: a whole number of words (characters in Chinese), or null to clear it. */
const wordGoal = z.number().int().min(1).max(10_000_000).nullable();

/** An author's edit of a project: any of its fields, at least one; summary and style are kept under the project's revision. */
export const updateProjectBody = z
  .object({
    title: text(200).min(1).optional(),
    type: projectTypeSchema.optional(),
    summary: text(4000).optional(),
    style: text(4000).optional(),
    author: text(200).optional(),
    wordGoal: wordGoal.optional(),
    chapterWordGoal: wordGoal.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'nothing to change' });

/** `GET /projects`: `deleted=true` lists the projects the author deleted (restorable). */
export const projectListQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    deleted: z.enum(['true', 'false']).optional(),
  })
  .strict();

/** The author's interface language: a session with no substantive message yet answers in it. */
export const uiLanguageSchema = z.enum(['zh', 'en']);
export const createSessionBody = z
  .object({ projectId: objectIdSchema, title: text(200).optional(), uiLanguage: uiLanguageSchema.optional() })
  .strict();

export const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    projectId: objectIdSchema.optional(),
    type: fileTypeSchema.optional(),
    token: z.string().max(2000).optional(),
  })
  .strict();

export const startTurnBody = (maxMessageChars: number) =>
  z
    .object({
      message: z
        .string()
        .trim()
        .min(1, 'message is empty')
        .max(maxMessageChars, `message is longer than ${maxMessageChars} characters`),
      focusFileId: objectIdSchema.optional(),
      attachedFileIds: z.array(objectIdSchema).max(20).optional(),
      quotes: z.array(text(4000)).max(10).optional(),
      /** Skills (names or ids of the author's enabled skills) to use in this turn; at most SKILLS_PER_REQUEST. */
      skills: z.array(z.string().trim().min(1).max(100)).max(10).optional(),
      /** The author's interface language (Studio sends it): the reply language until a message says otherwise. */
      uiLanguage: uiLanguageSchema.optional(),
    })
    .strict();

export const steerBody = z.object({ message: z.string().trim().min(1).max(4000) }).strict();
export const approvalBody = z.object({ decision: z.enum(['approve', 'deny']) }).strict();
/** Approval ids are the workflow's own (`s<step>-<toolCallId>`): short, URL-safe. */
export const approvalIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'approvalId must be 1-64 letters, digits, "_" or "-"');
export const interruptBody = z.object({ reason: text(500).optional() }).strict();

export const createFileBody = z
  .object({
    projectId: objectIdSchema,
    type: fileTypeSchema,
    title: text(200).min(1),
    content: text(500_000).optional(),
    parentId: objectIdSchema.optional(),
    order: z.number().int().min(0).max(100_000).optional(),
    /** Characters and settings: how much they matter to the book (context priority). */
    importance: importanceSchema.optional(),
  })
  .strict();

export const editFileBody = z
  .object({
    content: text(500_000),
    /** The version the author edited; a newer head means someone else wrote meanwhile (409). */
    baseVersion: z.number().int().min(0).optional(),
    /**
     * An editor's autosave (needs `baseVersion`): while the head is the author's own burst of
     * autosaves, begun less than AUTOSAVE_BURST_MINUTES ago, the save takes its place as the next
     * version number, so the history shows one entry per burst. A save without it closes the burst.
     */
    autosave: z.boolean().optional(),
    title: text(200).min(1).optional(),
    importance: importanceSchema.optional(),
  })
  .strict();

const fileListFields = {
  type: fileTypeSchema.optional(),
  /** `true`: the project's trash (files deleted within the retention period) instead of its live files. */
  deleted: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
  /** Where the page starts in the manuscript's order (the previous page's `nextOffset`). */
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
};

export const listFilesQuery = z.object(fileListFields).strict();

/** `GET /files?projectId=…`: the same listing addressed by query. */
export const fileListQuery = z.object({ projectId: objectIdSchema, ...fileListFields }).strict();

/** An author's change to a file that is not its text: its title (a rename, not a new version), its word goal. */
export const patchFileBody = z
  .object({
    title: text(200).min(1).optional(),
    wordGoal: wordGoal.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'nothing to change' });

/** Moves a chapter to `to` (0-based) in the manuscript's chapter order; numbered titles are renumbered to match. */
export const moveChapterBody = z.object({ fileId: objectIdSchema, to: z.number().int().min(0).max(100_000) }).strict();

export const searchQuery = z
  .object({
    q: z.string().trim().min(1, 'q is empty').max(200),
    /** At most this many files in the results (each with its first hits and their count). */
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();

export const deleteFileQuery = z.object({ recursive: z.enum(['true', 'false']).optional() }).strict();

/** Path segment of a version number: digits only, so `1e3`, `0x10` or `-1` are 400s. */
export const versionParam = z
  .string()
  .regex(/^[1-9]\d{0,8}$/, 'version must be a positive integer')
  .transform((v) => Number(v));

export const restoreVersionBody = z.object({ version: z.number().int().min(1) }).strict();

export const createJobBody = z
  .object({
    projectId: objectIdSchema,
    sessionId: objectIdSchema.optional(),
    chapters: z
      .object({ from: z.number().int().min(1).max(10_000), to: z.number().int().min(1).max(10_000) })
      .strict()
      .refine((c) => c.to >= c.from, { message: 'chapters.to must be >= chapters.from' })
      .refine((c) => c.to - c.from < 1000, { message: 'at most 1000 chapters per job' }),
    instructions: text(4000).optional(),
    review: z.boolean().optional(),
    wordsPerChapter: z.number().int().min(100).max(50_000).optional(),
    /** Token budget of the whole job: it pauses (resumably) before a chapter that would exceed it. */
    maxTokens: z.number().int().min(1).max(1_000_000_000).optional(),
    /** Cost budget in USD by the price table (MODEL_PRICES): it pauses (resumably) before a chapter that would exceed it. */
    maxCostUsd: z.number().positive().max(1_000_000).optional(),
    /** Chapters of the range that already have text: skip (default), revise, or rewrite. */
    existing: z.enum(EXISTING_CHAPTER_MODES).optional(),
    /** The language of the job's messages to the author (absent: the project's and the session's). */
    language: z.enum(['en', 'zh']).optional(),
  })
  .strict();

/** Resume may raise the job's token budget, or lift it with null. */
export const resumeJobBody = z
  .object({
    maxTokens: z.number().int().min(1).max(1_000_000_000).nullable().optional(),
    maxCostUsd: z.number().positive().max(1_000_000).nullable().optional(),
  })
  .strict();

export const eventsQuery = z
  .object({
    after: z
      .string()
      .regex(/^\d+-\d+$/, 'after must be a stream id like 12-3')
      .optional(),
    token: z.string().max(2000).optional(),
  })
  .strict();
