/**
 * Whether a turn's rules leave its routing to the router model (turn-routing.ts, in the
 * workflow): the message gives no job command or question (those are answered without a model)
 * and the rule-based pre-route does not decide it. The preparation asks this of the same
 * recorded words to call the router at once (turn-prepare.ts), one local activity less on the
 * way to the first agent; the workflow takes that answer only where its own rules reach the
 * router, so a disagreement between builds costs a router call, never a wrong route.
 */
import type { PreparedTurn } from './turn-types';
import { answerToJobOffer, type JobCommand, jobCommandOf, jobQuestionOf } from '../words/job-commands';
import { type MessageReading, readMessage, recordedSegmenter } from '../words/reading';
import { preRoute, type PreviousTurnFacts } from '../words/routing';

/** The job command a message gives: an order of its own, or a yes to the one the previous turn asked about. */
export function jobCommandFor(reading: MessageReading, previous: PreviousTurnFacts | null): JobCommand | null {
  const offer = previous?.offer;
  return jobCommandOf(reading) ?? (offer ? answerToJobOffer(offer, reading) : null);
}

export function leavesRoutingToRouter(message: string, prepared: Pick<PreparedTurn, 'wordEnds' | 'previous'>): boolean {
  const reading = readMessage(message, recordedSegmenter(prepared.wordEnds ?? []));
  if (jobCommandFor(reading, prepared.previous) || jobQuestionOf(reading)) return false;
  return preRoute(reading, prepared.previous) === null;
}
