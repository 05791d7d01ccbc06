/**
 * A finished turn as the author saw it (src/core/turn/turn-view.ts, folded from the turn's whole
 * stream when it ended): what clients show after a reload and after the stream expired.
 * Keyed by turn id, so the end of a turn written twice (a retried activity) is one record.
 */
import { Schema } from 'mongoose';

export const turnViewSchema = new Schema(
  {
    _id: { type: String, required: true }, // turnId
    sessionId: { type: String, required: true },
    projectId: { type: String, required: true },
    ownerId: { type: String, required: true },
    jobId: { type: String, default: null },
    /** The folded view (TurnView, without file bodies). */
    view: { type: Schema.Types.Mixed, required: true },
    /** Stream events folded into it. */
    events: { type: Number, default: 0 },
    /** The stream had lost its oldest events (trimmed at STREAM_MAXLEN) when it was folded. */
    partial: { type: Boolean, default: false },
  },
  { timestamps: true, minimize: false },
);
