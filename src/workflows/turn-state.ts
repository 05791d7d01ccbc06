/**
 * Mutable state of one turn inside the workflow. Everything here is rebuilt by replay,
 * so it may only change in response to activity results, signals and workflow code.
 */
import { type Usage, zeroUsage } from '../core/usage';
import type { AnyEventDraft } from '../core/events';
import type { AgentRunRecord, PendingApproval, ToolOutcome, TurnInput, TurnState } from '../core/turn-types';
import type { TurnStatus } from '../core/domain';
import type { CarriedSignals } from './decide';
import type { DeliveredFile } from './packets';
import type { RoutingDecision, WorkAgent } from '../core/plans';

/** Three identical consecutive tool failures stop the run (seed 001 failure breaker). */
export class FailureBreaker {
  private signature = '';
  private count = 0;

  record(o: ToolOutcome): { reason: 'repeated_unavailable_tool_call' | 'tool_failure_circuit_open'; message: string } | null {
    if (o.ok) {
      this.signature = '';
      this.count = 0;
      return null;
    }
    const sig = `${o.name}:${o.errorType ?? ''}`;
    this.count = sig === this.signature ? this.count + 1 : 1;
    this.signature = sig;
    if (this.count < 3) return null;
    const reason = o.errorType === 'tool_not_found' ? 'repeated_unavailable_tool_call' : 'tool_failure_circuit_open';
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
  /** What the run interrupted by a correction round was about to do (seed A52). */
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
