/**
 * Whether a writer's chat text is held, decided as each of its model steps starts: pure, over
 * the facts the turn's state gives (`TurnRunState.chatHoldFacts`). What then becomes of held
 * text is held-text.ts's.
 */
import type { WorkAgent } from '../core/plans';
import { type DecideState, reviewCapReached, reviewGateOff, unreviewedWordsReachThreshold } from './decide';

/** What decides, as a writer's model step starts, whether its chat text is held. */
export interface ChatHoldFacts extends Pick<
  DecideState,
  'bodyWordsThisTurn' | 'bodyWordsReviewed' | 'reviewThreshold' | 'reviewRounds' | 'maxReviewRounds'
> {
  agent: WorkAgent;
  /** A quality reviewer already ran in this turn: this writer run is a revision. */
  afterReview: boolean;
  /** The planned agents still to come. */
  remaining: readonly WorkAgent[];
  /** A body file is open and its body not streamed yet: what it brings may reach the threshold. */
  bodyPending: boolean;
  /** An earlier step of this run was held: a run's text is released or dropped as a whole. */
  runHeld: boolean;
}

/**
 * The writer's chat is held only while a reviewer may replace it with the one summary the
 * author reads: never in a revision after the reviewer (its text is the summary) nor at the
 * review cap; always when a review is planned for this turn (or an earlier step of the run was
 * held: a run's text goes as a whole); otherwise only while the review gate is on (a job told
 * not to review turns it off) and a review is likely — the unreviewed body words reach the
 * threshold, or a body is about to stream — so a short edit's reply shows live. The quick plan
 * holds too: its review gate sends a long chapter to the reviewer like any other plan's.
 */
export function holdsWriterChat(h: ChatHoldFacts): boolean {
  if (h.agent !== 'writer' || h.afterReview || reviewCapReached(h)) return false;
  if (h.runHeld || h.remaining.includes('quality_reviewer')) return true;
  if (reviewGateOff(h)) return false;
  return h.bodyPending || unreviewedWordsReachThreshold(h);
}
