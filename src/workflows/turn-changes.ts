/**
 * What can happen in a turn, as the workflow's phases say it ({@link TurnChange}), and the run
 * a turn starts next ({@link NextRun}). turn-state.ts takes each change in; nothing else here
 * holds state.
 */
import type { UsageData } from '../core/events';
import type { LlmStepResult, PendingApproval, RunKind, ToolOutcome } from '../core/turn/turn-types';
import type { TurnStatus } from '../core/domain';
import type { Decision } from './decide';
import type { RoutingDecision, WorkAgent } from '../core/plans';

/** The run the turn starts next, as a decision (or the routing, for the first) names it, and the plan after it. */
export interface NextRun {
  agent: WorkAgent;
  kind: RunKind;
  note: string;
  writerQuestion?: string | null;
  /** The planned agents still to come once this run has started. */
  remaining: WorkAgent[];
}

/** The `<file>` body a model step captured (and saved itself). */
export type BodyCapture = NonNullable<LlmStepResult['capture']>;

/**
 * What happened in a turn, said by the phase it happened in; `TurnRunState.apply` (turn-state.ts) takes
 * it in. A phase applies its change where it happens — between the same activity calls as
 * always — so the commands the turn sends, and what the state query shows between them, do not
 * depend on how the code is cut into phases.
 */
export type TurnChange =
  // Messages from outside (turn-handlers.ts): the loop reads them at its next step.
  /** Steering from the author: shown, and sent to the model, with the next model step. */
  | { type: 'steered'; message: string }
  /** The author asked to stop: the run leaves at its next check (the model call is cancelled meanwhile). */
  | { type: 'interruptRequested' }
  /** The author's answer to the pending approval. */
  | { type: 'approvalAnswered'; decision: 'approve' | 'deny' }

  // Before the first run (turn.ts, turn-routing.ts).
  /** prepareTurn answered: the session's reply language. */
  | { type: 'prepared'; language: 'zh' | 'en' }
  /** The turn's routing, once chosen (before any run, and also when no run follows). */
  | { type: 'routed'; routing: RoutingDecision }

  // One agent run (turn.ts, agent-run.ts, approvals.ts).
  /** Run `next` starts after `from`'s: counted, announced (handoff card, agent_selected), the plan moved on. */
  | { type: 'runStarted'; next: NextRun; from: WorkAgent | null }
  /**
   * A model step starts: it takes the steering and the queued events with it. `holdChat`: the
   * writer's chat text of this run is held until we know whether a review follows.
   */
  | { type: 'stepStarted'; holdChat: boolean }
  /** The model step answered: whether its chat text was held or shown (null: it had none), and its usage. */
  | { type: 'modelAnswered'; text: 'held' | 'shown' | null; usage: UsageData }
  /** The model step saved the `<file>` body it captured, with this outcome. */
  | { type: 'bodySaved'; agent: WorkAgent; saved: ToolOutcome; capture: BodyCapture }
  /** A tool call of the step ended with `outcome`: the files it wrote, and the failure breaker's count. */
  | { type: 'toolFinished'; agent: WorkAgent; outcome: ToolOutcome }
  /** A call waits for the author's approval (status `awaiting_approval`). */
  | { type: 'approvalAsked'; approval: PendingApproval }
  /** The wait is over (answered, interrupted or timed out): the turn runs again. */
  | { type: 'approvalSettled' }

  // After a run (turn.ts, held-text.ts).
  /** The run of `kind` ended and `decideAfterRun` chose what follows (with a handoff it blocked, if any). */
  | { type: 'decided'; kind: RunKind; decision: Decision; blockedHandoff: { message: string } | null }
  /**
   * What becomes of the held writer text (held-text.ts says when which): `drop` (a reviewer
   * takes over), `release` (another agent runs: it counts as shown, and its runs stay held until
   * the releasing activity has run — `released` — so a turn that fails meanwhile still
   * publishes them at finalize), `atTurnEnd` (finalize publishes it).
   */
  | { type: 'heldText'; move: 'drop' | 'release' | 'released' | 'atTurnEnd' }

  // The end (turn-end.ts).
  /** The turn fails or is interrupted mid-run: that run is still recorded, its held text published at finalize. */
  | { type: 'runCut'; outcome: 'interrupted' | 'failed' }
  /** The turn ends with `status`. */
  | { type: 'ended'; status: TurnStatus };

/** The plan's next run, as a `run` decision names it. */
export function nextRunOf(decision: Extract<Decision, { action: 'run' }>): NextRun {
  return {
    agent: decision.agent,
    kind: decision.kind,
    note: decision.note,
    writerQuestion: decision.writerQuestion,
    remaining: decision.remaining,
  };
}
