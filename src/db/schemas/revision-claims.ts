/** Claims that make compare-and-set atomic on FerretDB v1 (src/db/revision-claims.ts). */
import { Schema } from 'mongoose';

/**
 * Revision claims (src/db/revision-claims.ts). Inserting `_id` is the one atomic step of a
 * compare-and-set on FerretDB v1: `<Model>:<docId>:<rev>` claims a revision and holds the
 * document's full new value; `<Model>:<docId>:del:<incarnation>` claims the deletion of one
 * incarnation of a lock-like document.
 */
export const revisionClaimSchema = new Schema(
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
