/**
 * Mutable state of one turn inside the workflow. Everything here is rebuilt by replay,
 * so it may only change in response to activity results, signals and workflow code.
 */
import { handoffText } from '../core/author-words';
import { type Usage, zeroUsage } from '../core/usage';
import type { AnyEventDraft } from '../core/events';
import type { AgentRunRecord, PendingApproval, ToolOutcome, TurnInput, TurnState } from '../core/turn/turn-types';
import type { TurnStatus } from '../core/domain';
import { draft } from '../core/events';
import type { PreparedTurn, RunKind } from '../core/turn/turn-types';
import { requestAsksForPlan } from '../core/words/routing';
import type { CarriedSignals, DecideState, Decision, RunFacts } from './decide';
import { buildPacket, type DeliveredFile } from './packets';
import type { RoutingDecision, WorkAgent } from '../core/plans';

/** The run the turn starts next, as a decision (or the routing, for the first) names it. */
export interface NextRun {
  agent: WorkAgent;
  kind: RunKind;
  note: string;
  writerQuestion?: string | null;
}

/** Default of REVIEW_MAX_ROUNDS for turns whose settings do not name it. */
const DEFAULT_REVIEW_MAX_ROUNDS = 2;

/** Three identical consecutive tool failures stop the run. */
export class FailureBreaker {
  private signature = '';
  private count = 0;

  record(
    o: ToolOutcome,
  ): { reason: 'repeated_unavailable_tool_call' | 'tool_failure_circuit_open'; message: string } | null {
    if (o.ok) {
      this.signature = '';
      this.count = 0;
      return null;
    }
    const sig = `${o.name}:${o.errorType ?? ''}`;
    this.count = sig === this.signature ? this.count + 1 : 1;
    this.signature = sig;
    if (this.count < 3) return null;
    const reason =
      o.errorType === 'tool_not_found' || o.errorType === 'tool_not_permitted'
        ? 'repeated_unavailable_tool_call'
        : 'tool_failure_circuit_open';
    return { reason, message: `${o.name} failed 3 times in a row (${o.errorType}): ${o.message ?? ''}`.trim() };
  }
}

export class TurnRunState {
  status: TurnStatus = 'running';
  slot = 0;
  step = 0;
  run = 0;
  agent: WorkAgent | null = null;
  routing: RoutingDecision | null = null;
  remaining: WorkAgent[] = [];
  runs: AgentRunRecord[] = [];
  /** Body words the writer put into draft/script files in successful writes this turn. */
  bodyWords = 0;
  bodyWordsReviewed = 0;
  wroteOutline = false;
  plannerRepairDone = false;
  pendingFileId: string | null = null;
  pendingFileIsBody = false;
  /** A file created without content that has no body yet (cleared when a body is saved into it). */
  emptyFile: { fileId: string; title: string; isBody: boolean } | null = null;
  /** Files that already had their one empty-file correction round. */
  repairedFileIds: string[] = [];
  /** What the run interrupted by a correction round was about to do. */
  carried: CarriedSignals | null = null;
  /** Review-gate runs so far (REVIEW_MAX_ROUNDS caps them). */
  reviewRounds = 0;
  /** Kind of the run in flight: recorded if the turn fails or is interrupted mid-run. */
  currentKind: AgentRunRecord['kind'] = 'initial';
  /** Chat text already shown to the author in this turn (the shaper separates what follows). */
  shownText = false;
  /** Held runs produced chat text (shown if released, gone if dropped). */
  heldText = false;
  delivered: (DeliveredFile & { bodyWords: number })[] = [];
  /** Writer runs whose chat text is held until we know whether a review follows. */
  heldRuns: number[] = [];
  /** Held runs whose text finalize publishes (the turn ended without a review). */
  releaseAtFinalize: number[] = [];
  steering: string[] = [];
  interruptRequested = false;
  /** The session's reply language, once the turn is prepared. */
  language: 'zh' | 'en' | null = null;
  /** The approval the turn waits for, and the author's answer once the update brings it. */
  pendingApproval: PendingApproval | null = null;
  approvalAnswer: 'approve' | 'deny' | null = null;
  blockedHandoffs: { reason: 'read_only_handoff_blocked'; message: string }[] = [];
  usage: Usage = zeroUsage();
  readonly breaker = new FailureBreaker();
  /** Events to publish ahead of the next LLM step (agent switch, handoff, steering). */
  prelude: AnyEventDraft[] = [];

  constructor(readonly input: TurnInput) {}

  nextSlot(): number {
    return ++this.slot;
  }

  /**
   * Starts run `next` (after `from`'s run, if any): counts it and queues the events that
   * announce it (a handoff card, then `agent_selected`) ahead of its first model step.
   */
  beginRun(next: NextRun, from: WorkAgent | null): void {
    const turnId = this.input.turnId;
    this.run += 1;
    this.agent = next.agent;
    if (from && next.kind !== 'initial') {
      const handoff = {
        from,
        to: next.agent,
        kind: handoffKind(next.kind),
        reason: next.note.split('\n')[0]!.slice(0, 300),
      };
      this.prelude.push(
        draft('handoff', { ...handoff, text: handoffText(handoff, this.language ?? 'en') }, { turnId }),
      );
    }
    const reason = next.kind === 'initial' ? `routing: ${this.routing!.source}` : next.kind;
    this.prelude.push(
      draft(
        'agent_selected',
        { agent: next.agent, reason, plan: this.routing!.workflow_plan, run: this.run },
        { turnId, agent: next.agent },
      ),
    );
    if (next.agent === 'quality_reviewer' && next.kind === 'review_gate') this.bodyWordsReviewed = this.bodyWords;
    if (next.agent === 'quality_reviewer' && (next.kind === 'review_gate' || next.kind === 'explicit'))
      this.reviewRounds += 1;
    this.currentKind = next.kind;
  }

  /** The handoff packet the next agent reads; the turn's first run has none. */
  packetFor(next: NextRun, from: WorkAgent | null, prepared: PreparedTurn): string | null {
    if (next.kind === 'initial') return null;
    const review =
      next.kind === 'review_gate'
        ? {
            bodyWords: this.bodyWords,
            lengthRequirements: prepared.lengthRequirements,
            writerQuestion: next.writerQuestion ?? null,
          }
        : undefined;
    return buildPacket({
      from: from ?? next.agent,
      to: next.agent,
      kind: next.kind,
      scope: this.routing!.scope,
      note: next.note,
      delivered: this.delivered,
      review,
    });
  }

  /** What `decideAfterRun` reads about the turn once a run of `kind` has ended with `facts`. */
  decideState(kind: RunKind, facts: RunFacts, prepared: PreparedTurn): DecideState {
    if (kind === 'planner_repair') this.plannerRepairDone = true;
    const maxReviewRounds = this.input.settings.maxReviewRounds ?? DEFAULT_REVIEW_MAX_ROUNDS;
    const routing = this.routing!;
    return {
      routing,
      remaining: this.remaining,
      runsSoFar: this.run,
      maxRuns: this.input.settings.maxAgentRuns,
      bodyWordsThisTurn: this.bodyWords,
      bodyWordsReviewed: this.bodyWordsReviewed,
      reviewThreshold: this.input.settings.reviewWordThreshold,
      plannerRepairDone: this.plannerRepairDone,
      requestAsksForPlan: requestAsksForPlan(this.input.message),
      wroteOutline: this.wroteOutline,
      emptyFileRepair: facts.emptyFile != null && !routing.read_only,
      repairedFileIds: this.repairedFileIds,
      carried: this.carried,
      reviewRounds: this.reviewRounds,
      maxReviewRounds: this.reviewRounds >= maxReviewRounds ? maxReviewRounds : null,
      language: prepared.language,
    };
  }

  /** Moves the plan on to the run `decision` starts (after its held text is settled). */
  nextRun(decision: Extract<Decision, { action: 'run' }>): NextRun {
    this.remaining = decision.remaining;
    return { agent: decision.agent, kind: decision.kind, note: decision.note, writerQuestion: decision.writerQuestion };
  }

  /** Records the ended run of `kind` and what was decided after it. */
  applyDecision(kind: RunKind, decision: Decision, blockedHandoff: { message: string } | null): void {
    if (kind === 'empty_file_repair') this.carried = null;
    if (decision.action === 'run' && decision.repair) {
      // The correction round writes into the same file: it is pending again for the body.
      this.repairedFileIds.push(decision.repair.fileId);
      this.carried = decision.repair.carried;
      this.pendingFileId = decision.repair.fileId;
      this.pendingFileIsBody = this.emptyFile?.isBody ?? false;
    }
    if (blockedHandoff)
      this.blockedHandoffs.push({ reason: 'read_only_handoff_blocked', message: blockedHandoff.message });
    this.runs.push({ run: this.run, agent: this.agent!, kind, outcome: outcomeLabel(decision), textDropped: false });
  }

  noteFile(o: ToolOutcome): void {
    if (!o.ok || !o.fileId || !o.title || !o.fileType) return;
    if (o.op !== 'created' && o.op !== 'edited' && o.op !== 'opened') return;
    const existing = this.delivered.find((f) => f.fileId === o.fileId);
    if (existing) existing.bodyWords += o.bodyWords ?? 0;
    else this.delivered.push({ fileId: o.fileId, title: o.title, type: o.fileType, bodyWords: o.bodyWords ?? 0 });
  }

  snapshot(): TurnState {
    return {
      status: this.status,
      agent: this.agent,
      step: this.step,
      run: this.run,
      plan: this.routing?.workflow_plan ?? null,
      remainingPlan: [...this.remaining],
      filesTouched: this.delivered.map((f) => f.fileId),
      usage: { ...this.usage },
      routing: this.routing,
      pendingApproval: this.pendingApproval,
    };
  }
}

function handoffKind(
  kind: RunKind,
): 'explicit' | 'planned' | 'review_gate' | 'continuation' | 'planner_repair' | 'empty_file_repair' {
  if (kind === 'writer_after_question' || kind === 'initial') return 'planned';
  return kind;
}

function outcomeLabel(d: Decision): string {
  if (d.action === 'run') return `→ ${d.agent} (${d.kind})`;
  if (d.action === 'complete') return 'complete';
  return d.reason;
}
