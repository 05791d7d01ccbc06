/**
 * Whether a turn's rules leave its routing to the router model (turn-routing.ts, in the
 * workflow): the message gives no job command or question (those are answered without a model)
 * and the rule-based pre-route does not decide it. The preparation asks this of the same
 * recorded words to call the router at once (turn-prepare.ts), one local activity less on the
 * way to the first agent; the workflow takes that answer only where its own rules reach the
 * router, so a disagreement between builds costs a router call, never a wrong route.
 */
import type { PreparedTurn } from './turn-types';
import { answerToJobOffer, jobCommandOf, jobQuestionOf } from '../words/job-commands';
import { readMessage, recordedSegmenter } from '../words/reading';
import { preRoute } from '../words/routing';

export function leavesRoutingToRouter(message: string, prepared: Pick<PreparedTurn, 'wordEnds' | 'previous'>): boolean {
  const reading = readMessage(message, recordedSegmenter(prepared.wordEnds ?? []));
  const offer = prepared.previous?.offer;
  if (jobCommandOf(reading) || (offer && answerToJobOffer(offer, reading)) || jobQuestionOf(reading)) return false;
  return preRoute(reading, prepared.previous) === null;
}
