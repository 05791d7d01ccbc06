/** Shared checks of the provider conformance suites: what every turn, in any dialect, must leave. */
import { streamEventSchema, type StreamEvent } from '../../src/core/events';
import type { Harness } from '../helpers/harness';
import { ofType } from '../helpers/script';

/** Every event validates against the contract, and the stream ends with exactly one terminal `done`. */
export function expectValidStream(events: StreamEvent[]): void {
  for (const e of events) {
    const parsed = streamEventSchema.safeParse(e);
    if (!parsed.success) throw new Error(`event ${e.type} fails the contract: ${parsed.error.message}`);
  }
  expect(events[events.length - 1]?.type).toBe('done');
  expect(ofType(events, 'done')).toHaveLength(1);
}

export const thinkingText = (events: StreamEvent[]): string =>
  ofType(events, 'thinking')
    .map((e) => e.data.delta)
    .join('');

/** The turn's usage records by step (one per model call). */
export async function usageRecords(h: Harness, turnId: string) {
  const records = await h.runtime.models.UsageRecord.find({ turnId }).sort({ step: 1 }).lean();
  return records as unknown as {
    step: number;
    agent: string;
    source: string;
    promptTokens: number;
    cachedPromptTokens: number;
    reasoningTokens: number;
  }[];
}

/** The session's stored assistant messages of one turn, in order. */
export async function assistantMessages(h: Harness, turnId: string): Promise<string[]> {
  const messages = await h.runtime.models.Message.find({ turnId, role: 'assistant' }).sort({ seq: 1 }).lean();
  return messages.map((m) => String(m.content));
}

/** Every message text the model was sent, across all recorded requests. */
export function everythingSent(h: Harness): string {
  return h.model.requests.map((r) => JSON.stringify(r.body.messages)).join('\n');
}

/** Files of a project, by title, with their current content and version count. */
export async function projectFiles(h: Harness, projectId: string) {
  const files = await h.runtime.models.File.find({ projectId, deletedAt: null }).lean();
  return Object.fromEntries(
    files.map((f) => [f.title, { id: String(f._id), content: f.content, versions: f.versionCount }]),
  );
}

/**
 * The turn's account is true: every save the stream reports is a version on record, every
 * file the outcome or a stored message claims is there, and the session is free again.
 */
export async function expectTrueAccount(
  h: Harness,
  r: {
    turnId: string;
    events: StreamEvent[];
    outcome: { filesWritten: { fileId: string }[] };
    turn: { sessionId: unknown };
  },
) {
  const { File, FileVersion, Message, SessionLock } = h.runtime.models;
  for (const e of ofType(r.events, 'file_updated'))
    expect(await FileVersion.countDocuments({ _id: e.data.versionId, fileId: e.data.fileId })).toBe(1);
  const messages = await Message.find({ turnId: r.turnId, role: 'assistant' }).lean();
  const claimed = [
    ...r.outcome.filesWritten.map((f) => f.fileId),
    ...messages.flatMap((m) => (m.breadcrumb as { fileId: string }[]).map((b) => b.fileId)),
  ];
  for (const fileId of claimed) expect(await File.countDocuments({ _id: fileId, deletedAt: null })).toBe(1);
  expect(await SessionLock.countDocuments({ _id: String(r.turn.sessionId), turnId: r.turnId })).toBe(0);
}
