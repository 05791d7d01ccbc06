/** Multi-chapter jobs and the per-project claim that lets one run at a time. */
import { Schema } from 'mongoose';
import { JOB_STATUSES } from '../../core/domain';
import { usageRollup } from './conversation';

/** One active job per project: inserting the claim is the atomic check (like SessionLock). */
export const jobClaimSchema = new Schema(
  {
    _id: { type: String, required: true }, // projectId
    jobId: { type: String, required: true },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

export const jobSchema = new Schema(
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
    /** Cost budget in USD (null: none); the job pauses before a chapter that would exceed it. */
    maxCostUsd: { type: Number, default: null },
    /** The author's language when the job was created: its progress and closing messages use it. */
    language: { type: String, enum: ['en', 'zh'], default: 'en' },
    /** What the job does with chapters that had text before it (EXISTING_CHAPTER_MODES). */
    existing: { type: String, enum: ['skip', 'revise', 'rewrite'], default: 'skip' },
    /** Chapters left as they were because they already had text. */
    chaptersSkipped: { type: [Number], default: [] },
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
