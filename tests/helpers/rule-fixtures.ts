/** Inputs for the rule modules in unit tests: a routing decision, the previous turn's facts, a run's facts and the turn's state for decideAfterRun, each with overrides. */
import { type DecideState, freshRunFacts, type RunFacts } from '../../src/workflows/decide';
import type { RoutingDecision } from '../../src/core/plans';
import type { PreviousTurnFacts } from '../../src/core/words/routing';

export const routing = (over: Partial<RoutingDecision> = {}): RoutingDecision => ({
  current_agent: 'planner',
  workflow_plan: 'standard',
  workflow_agents: ['writer'],
  write_content: true,
  read_only: false,
  scope: 'plan then write chapter 1',
  clarify_first: false,
  source: 'llm',
  notes: [],
  ...over,
});

export const facts = (over: Partial<RunFacts> = {}): RunFacts => ({ ...freshRunFacts('planner', 'initial'), ...over });

export const state = (over: Partial<DecideState> = {}): DecideState => ({
  routing: routing(),
  remaining: ['writer'],
  runsSoFar: 1,
  maxRuns: 8,
  bodyWordsThisTurn: 0,
  bodyWordsReviewed: 0,
  reviewThreshold: 500,
  plannerRepairDone: false,
  requestAsksForPlan: false,
  wroteOutline: false,
  ...over,
});

/** The previous turn's facts for pre-routing, over a given routing decision. */
export const previousTurn = (routingOf: RoutingDecision, over: Partial<PreviousTurnFacts> = {}): PreviousTurnFacts => ({
  status: 'completed',
  stopReason: null,
  routing: routingOf,
  resume: null,
  askedQuestion: false,
  proposedChanges: 0,
  ...over,
});
