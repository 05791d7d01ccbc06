/**
 * Domain vocabulary shared by workflows, activities and the API. Pure module.
 */
import { z } from 'zod';
import { OBJECT_ID } from './ids';

export const PROJECT_TYPES = ['novel', 'short_story', 'screenplay'] as const;
export const projectTypeSchema = z.enum(PROJECT_TYPES);
export type ProjectType = z.infer<typeof projectTypeSchema>;

export const FILE_TYPES = ['outline', 'character', 'setting', 'draft', 'script', 'folder'] as const;
export const fileTypeSchema = z.enum(FILE_TYPES);
export type FileType = z.infer<typeof fileTypeSchema>;
export { BODY_FILE_TYPES, type BodyFileType, isBodyFileType } from './book/file-types';
import { BODY_FILE_TYPES as BODY } from './book/file-types';
// Every body-text type is a file type: this fails to compile otherwise (file-types.ts cannot
// import the type from here without a circle).
void (BODY satisfies readonly FileType[]);

/** How much a character or setting matters to the book; drives its context priority. */
export const IMPORTANCE_LEVELS = ['high', 'medium', 'low'] as const;
export const importanceSchema = z.enum(IMPORTANCE_LEVELS);
export type Importance = z.infer<typeof importanceSchema>;

export const AUTHORS = ['ai', 'author'] as const;
export type VersionAuthor = (typeof AUTHORS)[number];

export const TURN_STATUSES = [
  'queued',
  'running',
  /** Running, and waiting for the author to approve or deny deleting or rewriting a file they wrote. */
  'awaiting_approval',
  'completed',
  'awaiting_author',
  'exhausted',
  'interrupted',
  'failed',
] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];
export const ACTIVE_TURN_STATUSES: readonly TurnStatus[] = ['queued', 'running', 'awaiting_approval'];

export const JOB_STATUSES = ['queued', 'running', 'pausing', 'paused', 'failed', 'cancelled', 'completed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** 24-hex ObjectId strings: every id we hand out. */
export const objectIdSchema = z.string().regex(OBJECT_ID, 'must be a 24-character hex id');

export const turnWorkflowId = (turnId: string): string => `turn-${turnId}`;
export const jobWorkflowId = (jobId: string): string => `job-${jobId}`;
