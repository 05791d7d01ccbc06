/**
 * The durable record of what the author saw in a turn: at its end, the turn's whole stream
 * (read from Redis in one round trip) and the events its end is about to publish are folded
 * by the same fold Studio applies live (src/core/turn/turn-view.ts), and stored by turn id. A retry
 * of the end folds the same events and replaces the record with the same one.
 *
 * It runs inside the turn's finalize, beside the writes that are there already, never on the
 * way to the first token; bench/turn-view.ts and tests/workflows/turn-view-record.test.ts
 * print what it costs per turn.
 */
import type { Redis } from 'ioredis';
import { type AnyEventDraft, makeEvent, type StreamEvent } from '../../core/events';
import { foldTurn, newTurnView, settledView, type TurnView } from '../../core/turn/turn-view';
import type { Models } from '../../db/models';
import { STREAM_FIELD, parseStreamId } from '../../streams/redis-streams';

/** A turn's stream as it stands: its events in order, and whether its oldest were trimmed away. */
export interface TurnStream {
  events: StreamEvent[];
  /** Ids (`slot-index`) beside the events, in the same order. */
  ids: string[];
  partial: boolean;
}

/**
 * The whole stream in one round trip. Events are our own JSON,
 * validated when they were published: parsed, not validated again (a 400-event turn would
 * spend more time in the schema than in Redis).
 */
export async function readTurnStream(redis: Redis, key: string): Promise<TurnStream> {
  const raw = await redis.xrange(key, '-', '+');
  const events: StreamEvent[] = [];
  const ids: string[] = [];
  for (const [id, fields] of raw) {
    const at = fields.indexOf(STREAM_FIELD);
    if (at < 0) continue;
    events.push(JSON.parse(fields[at + 1] ?? 'null') as StreamEvent);
    ids.push(id);
  }
  // A stream trimmed at STREAM_MAXLEN holds its newest entries only: the first entry of a
  // turn's stream is always its slot-1 announcement, index 0.
  const first = ids[0] ? parseStreamId(ids[0]) : null;
  const partial = !!first && (first.slot !== 1 || first.index !== 0);
  return { events, ids, partial };
}

/**
 * The turn's view at its end: the stream's events, then the end's own (`finalEvents`, which
 * the end publishes in `finalSlot`). Events of that slot already on the stream (an earlier
 * attempt of the end published them) are left out of the stream's part, so a retry folds
 * each of them once.
 */
export function viewAtEnd(
  turnId: string,
  userText: string,
  stream: Pick<TurnStream, 'events' | 'ids'>,
  finalSlot: number,
  finalEvents: AnyEventDraft[],
): TurnView {
  const before = stream.events.filter((_, i) => parseStreamId(stream.ids[i] ?? '')?.slot !== finalSlot);
  // Stamped as the publisher stamps them; the fold reads neither seq nor ts.
  const closing = finalEvents.map((d, i) => makeEvent({ ...d, turnId }, i, ''));
  return settledView(foldTurn(foldTurn(newTurnView(turnId, userText), before), closing));
}

export interface TurnViewOwner {
  turnId: string;
  sessionId: string;
  projectId: string;
  ownerId: string;
  jobId: string | null;
}

/** Stores the view under the turn's id: a second write of the same turn replaces the first. */
export async function storeTurnView(
  models: Models,
  owner: TurnViewOwner,
  view: TurnView,
  facts: { events: number; partial: boolean },
): Promise<void> {
  await models.TurnView.replaceOne(
    { _id: owner.turnId },
    {
      _id: owner.turnId,
      sessionId: owner.sessionId,
      projectId: owner.projectId,
      ownerId: owner.ownerId,
      jobId: owner.jobId,
      view,
      ...facts,
    },
    { upsert: true },
  ).exec();
}
