/** Projects, their files and every version of a file. */
import { Schema } from 'mongoose';
import { AUTHORS, FILE_TYPES, IMPORTANCE_LEVELS, PROJECT_TYPES } from '../../core/domain';

export const taskSchema = new Schema(
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

export const projectSchema = new Schema(
  {
    ownerId: { type: String, required: true, index: true },
    title: { type: String, required: true },
    type: { type: String, enum: PROJECT_TYPES, required: true },
    summary: { type: String, default: '' },
    /** The author's name as it goes on an exported book's title page; empty: none. */
    author: { type: String, default: '' },
    style: { type: String, default: '' },
    notes: { type: String, default: '' },
    tasks: { type: [taskSchema], default: [] },
    /** Revision of summary, style, notes and tasks, written only through src/db/project-state.ts (revision claims). */
    rev: { type: Number, default: 0 },
    /** The author's word goals: for the whole book, and for each chapter (a chapter's own `wordGoal` wins). Null: none. */
    wordGoal: { type: Number, default: null },
    chapterWordGoal: { type: Number, default: null },
    /** Deleted by the author: hidden everywhere, files and conversations kept, until restored. */
    deletedAt: { type: Date, default: null },
  },
  { timestamps: true },
);

export const fileSchema = new Schema(
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
    /** A file made to keep a streamed body that could not be saved into `fileId` (the author deleted or edited it meanwhile). */
    keptFrom: { type: Schema.Types.Mixed, default: null },
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
    /** The author's word goal for this chapter (null: the project's `chapterWordGoal`, if any). */
    wordGoal: { type: Number, default: null },
  },
  { timestamps: true },
);
fileSchema.index({ projectId: 1, type: 1, order: 1 });
fileSchema.index({ projectId: 1, parentId: 1, order: 1 });
// Hot path (bench/turn-kit/explain.ts): the pending empty file of a turn (create_file, finalize's rollback).
fileSchema.index({ pendingTurnId: 1 });

export const fileVersionSchema = new Schema(
  {
    fileId: { type: String, required: true },
    projectId: { type: String, required: true },
    version: { type: Number, required: true },
    content: { type: String, default: '' },
    words: { type: Number, default: 0 },
    author: { type: String, enum: AUTHORS, required: true },
    agent: { type: String, default: null },
    turnId: { type: String, default: null },
    /** What produced it: create, stream, edit:replace, restore, author_edit, author_autosave … */
    operation: { type: String, required: true },
    /** The author's saves this version stands for: an autosave burst folds many into one (src/db/author-saves.ts). */
    saves: { type: Number, default: undefined },
    /** While set, the author's next autosave may fold into this version: whose burst it is and when it began. */
    burst: { type: new Schema({ userId: String, startedAt: Date }, { _id: false }), default: undefined },
    /** A burst's earlier version, replaced by this later one: hidden from the history, kept only while a turn may still compare with it. */
    foldedInto: { type: Number, default: undefined },
    /** For a restore: the version whose text it brought back. */
    restoredFrom: { type: Number, default: undefined },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);
// A retried write computes the same version number, so this index is what stops a duplicate.
fileVersionSchema.index({ fileId: 1, version: 1 }, { unique: true });
// What a turn wrote: the task board at finalize and the reviewer's evidence look versions up by
// turn (without it, every version of every file is read on each of those turns).
fileVersionSchema.index({ turnId: 1 });
