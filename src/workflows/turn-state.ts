/**
 * The state of one turn inside the workflow, and the one place it changes. Each phase of the
 * turn — routing, a run's model steps and tool calls, the decision after a run, the held text,
 * an approval, the end — says what happened as a {@link TurnChange} (turn-changes.ts), and `apply` takes it in;
 * the phases read the state through its getters and never assign to it.
 * Everything here is rebuilt by replay, so it may only change in response to activity
 * results, signals and workflow code.
 */
import { handoffText } from '../core/author-words';
import { addUsage, type Usage, zeroUsage } from '../core/usage';
import { type AnyEventDraft, draft } from '../core/events';
import type {
  AgentRunRecord,
  PendingApproval,
  PreparedTurn,
  RunKind,
  ToolOutcome,
  TurnInput,
  TurnState,
} from '../core/turn/turn-types';
import type { TurnStatus } from '../core/domain';
import { isBodyFileType } from '../core/book/file-types';
import { requestAsksForPlan } from '../core/words/routing';
import type { CarriedSignals, DecideState, Decision, RunFacts } from './decide';
import type { ChatHoldFacts } from './chat-hold';
import { buildPacket, type DeliveredFile } from './packets';
import { type BreakerTrip, FailureBreaker, recordBatch } from './failure-breaker';
import type { BodyCapture, NextRun, TurnChange } from './turn-changes';
import type { RoutingDecision, WorkAgent } from '../core/plans';

/** Default of REVIEW_MAX_ROUNDS for turns whose settings do not name it. */
const DEFAULT_REVIEW_MAX_ROUNDS = 2;

/** A file created without content, waiting for its body. */
export type EmptyFile = { fileId: string; title: string; isBody: boolean };
/** A file delivered in this turn, with the body words written into it. */
export type Delivered = DeliveredFile & { bodyWords: number };

export class TurnRunState {
  #status: TurnStatus = 'running';
  #slot = 0;
  #step = 0;
  #run = 0;
  #agent: WorkAgent | null = null;
  #routing: RoutingDecision | null = null;
  #remaining: WorkAgent[] = [];
  #runs: AgentRunRecord[] = [];
  /** Body words the writer put into draft/script files in successful writes this turn. */
  #bodyWords = 0;
  #bodyWordsReviewed = 0;
  #wroteOutline = false;
  /** Chapter units the outlines written this turn hold; null once a write did not report them. */
  #outlineUnits: number[] | null = [];
  #plannerRepairDone = false;
  #pendingFileId: string | null = null;
  #pendingFileIsBody = false;
  /** A file created without content that has no body yet (cleared when a body is saved into it). */
  #emptyFile: EmptyFile | null = null;
  /** Files that already had their one empty-file correction round. */
  #repairedFileIds: string[] = [];
  /** What the run interrupted by a correction round was about to do. */
  #carried: CarriedSignals | null = null;
  /** Review-gate runs so far (REVIEW_MAX_ROUNDS caps them). */
  #reviewRounds = 0;
  /** Kind of the run in flight: recorded if the turn fails or is interrupted mid-run. */
  #currentKind: AgentRunRecord['kind'] = 'initial';
  /** Chat text already shown to the author in this turn (the shaper separates what follows). */
  #shownText = false;
  /** Held runs produced chat text (shown if released, gone if dropped). */
  #heldText = false;
  #delivered: Delivered[] = [];
  /** Writer runs whose chat text is held until we know whether a review follows. */
  #heldRuns: number[] = [];
  /** Held runs whose text finalize publishes (the turn ended without a review). */
  #releaseAtFinalize: number[] = [];
  #steering: string[] = [];
  #interruptRequested = false;
  /** The session's reply language, once the turn is prepared. */
  #language: 'zh' | 'en' | null = null;
  /** The approval the turn waits for, and the author's answer once the update brings it. */
  #pendingApproval: PendingApproval | null = null;
  #approvalAnswer: 'approve' | 'deny' | null = null;
  #blockedHandoffs: { reason: 'read_only_handoff_blocked'; message: string }[] = [];
  #usage: Usage = zeroUsage();
  readonly #breaker = new FailureBreaker();
  /** The breaker's answer to the last tool outcome: set once three identical failures tripped it. */
  #tripped: BreakerTrip | null = null;
  /** Events to publish ahead of the next LLM step (agent switch, handoff, steering). */
  #prelude: AnyEventDraft[] = [];

  constructor(readonly input: TurnInput) {}

  // The read-only view: what the phases read. Arrays and objects are the state's own, typed read-only.
  get status(): TurnStatus {
    return this.#status;
  }
  get step(): number {
    return this.#step;
  }
  get run(): number {
    return this.#run;
  }
  get agent(): WorkAgent | null {
    return this.#agent;
  }
  get routing(): RoutingDecision | null {
    return this.#routing;
  }
  get remaining(): readonly WorkAgent[] {
    return this.#remaining;
  }
  get runs(): readonly Readonly<AgentRunRecord>[] {
    return this.#runs;
  }
  get bodyWords(): number {
    return this.#bodyWords;
  }
  get pendingFileId(): string | null {
    return this.#pendingFileId;
  }
  get pendingFileIsBody(): boolean {
    return this.#pendingFileIsBody;
  }
  get emptyFile(): Readonly<EmptyFile> | null {
    return this.#emptyFile;
  }
  get reviewRounds(): number {
    return this.#reviewRounds;
  }
  get shownText(): boolean {
    return this.#shownText;
  }
  get heldText(): boolean {
    return this.#heldText;
  }
  get delivered(): readonly Readonly<Delivered>[] {
    return this.#delivered;
  }
  get heldRuns(): readonly number[] {
    return this.#heldRuns;
  }
  get releaseAtFinalize(): readonly number[] {
    return this.#releaseAtFinalize;
  }
  get steering(): readonly string[] {
    return this.#steering;
  }
  get prelude(): readonly AnyEventDraft[] {
    return this.#prelude;
  }
  get interruptRequested(): boolean {
    return this.#interruptRequested;
  }
  get language(): 'zh' | 'en' | null {
    return this.#language;
  }
  get pendingApproval(): Readonly<PendingApproval> | null {
    return this.#pendingApproval;
  }
  get approvalAnswer(): 'approve' | 'deny' | null {
    return this.#approvalAnswer;
  }
  get blockedHandoffs(): readonly Readonly<{ reason: 'read_only_handoff_blocked'; message: string }>[] {
    return this.#blockedHandoffs;
  }
  get usage(): Readonly<Usage> {
    return this.#usage;
  }
  /** Set when the last tool outcome tripped the failure breaker. */
  get tripped(): BreakerTrip | null {
    return this.#tripped;
  }

  /**
   * Takes the next stream slot. The one change outside `apply`: its value is used where it is
   * taken, inside an activity's arguments, in the order the calls are made.
   */
  nextSlot(): number {
    return ++this.#slot;
  }

  /** The one place the turn's state changes: a phase says what happened, the state takes it in. */
  apply(change: TurnChange): void {
    switch (change.type) {
      case 'steered':
        this.#steering.push(change.message);
        return;
      case 'interruptRequested':
        this.#interruptRequested = true;
        return;
      case 'approvalAnswered':
        this.#approvalAnswer = change.decision;
        return;
      case 'prepared':
        this.#language = change.language;
        return;
      case 'routed':
        // Made once, read by every phase after: frozen so no phase can change the turn's route.
        this.#routing = freezeRouting(change.routing);
        return;
      case 'runStarted':
        return this.#runStarted(change.next, change.from);
      case 'stepStarted':
        return this.#stepStarted(change.holdChat);
      case 'modelAnswered':
        if (change.text === 'held') this.#heldText = true;
        else if (change.text === 'shown') this.#shownText = true;
        this.#usage = addUsage(this.#usage, change.usage);
        return;
      case 'bodySaved':
        return this.#bodySaved(change.agent, change.saved, change.capture);
      case 'toolFinished':
        this.#noteWrite(change.agent, change.outcome);
        this.#tripped = recordBatch(this.#breaker, change.outcome);
        return;
      case 'approvalAsked':
        this.#pendingApproval = change.approval;
        this.#approvalAnswer = null;
        this.#status = 'awaiting_approval';
        return;
      case 'approvalSettled':
        this.#pendingApproval = null;
        this.#status = 'running';
        return;
      case 'decided':
        return this.#decided(change.kind, change.decision, change.blockedHandoff);
      case 'heldText':
        return this.#heldTextMoved(change.move);
      case 'runCut':
        return this.#runCut(change.outcome);
      case 'ended':
        this.#status = change.status;
        return;
      default:
        return unknownChange(change);
    }
  }

  /**
   * Starts run `next` (after `from`'s run, if any): counts it and queues the events that
   * announce it (a handoff card, then `agent_selected`) ahead of its first model step.
   */
  #runStarted(next: NextRun, from: WorkAgent | null): void {
    const turnId = this.input.turnId;
    this.#remaining = next.remaining;
    this.#run += 1;
    this.#agent = next.agent;
    if (from && next.kind !== 'initial') {
      const handoff = {
        from,
        to: next.agent,
        kind: handoffKind(next.kind),
        reason: next.note.split('\n')[0]!.slice(0, 300),
      };
      this.#prelude.push(
        draft('handoff', { ...handoff, text: handoffText(handoff, this.#language ?? 'en') }, { turnId }),
      );
    }
    const reason = next.kind === 'initial' ? `routing: ${this.#routing!.source}` : next.kind;
    this.#prelude.push(
      draft(
        'agent_selected',
        { agent: next.agent, reason, plan: this.#routing!.workflow_plan, run: this.#run },
        { turnId, agent: next.agent },
      ),
    );
    if (next.agent === 'quality_reviewer' && next.kind === 'review_gate') this.#bodyWordsReviewed = this.#bodyWords;
    if (next.agent === 'quality_reviewer' && (next.kind === 'review_gate' || next.kind === 'explicit'))
      this.#reviewRounds += 1;
    this.#currentKind = next.kind;
  }

  /** The step took the steering and the queued events (read just before); a held run is listed once. */
  #stepStarted(holdChat: boolean): void {
    this.#step += 1;
    this.#steering = [];
    this.#prelude = [];
    if (holdChat && !this.#heldRuns.includes(this.#run)) this.#heldRuns.push(this.#run);
  }

  #bodySaved(agent: WorkAgent, saved: ToolOutcome, capture: BodyCapture): void {
    this.#noteWrite(agent, saved);
    // Body text saved into the empty file: it is written (an empty <file></file> block is not).
    // A file the author deleted or wrote into meanwhile gets no correction round: the body is kept beside it.
    const keptAside = !saved.ok && (saved.errorType === 'file_deleted' || saved.errorType === 'stale_content');
    if (this.#emptyFile?.fileId === capture.fileId && (keptAside || (saved.ok && (capture.words ?? capture.chars) > 0)))
      this.#emptyFile = null;
    if (capture.closed) {
      this.#pendingFileId = null;
      this.#pendingFileIsBody = false;
    }
  }

  /** Folds one tool/file-save outcome into the turn's bookkeeping. */
  #noteWrite(agent: WorkAgent, o: ToolOutcome): void {
    if (!o.ok) return;
    this.#noteFile(o);
    if (o.name === 'create_file' && (o.op === 'created' || o.op === 'opened') && o.pendingBody) {
      this.#pendingFileId = o.fileId ?? null;
      this.#pendingFileIsBody = isBodyFileType(o.fileType);
      if (o.fileId) this.#emptyFile = { fileId: o.fileId, title: o.title ?? '', isBody: this.#pendingFileIsBody };
    }
    if (o.name === 'edit_file' && o.op === 'edited' && this.#emptyFile?.fileId === o.fileId) this.#emptyFile = null;
    if (o.fileType === 'outline' && (o.op === 'edited' || (o.op === 'created' && !o.pendingBody)))
      this.#outlineWritten(o.outlineUnits);
    if (agent === 'writer' && o.bodyWords) this.#bodyWords += o.bodyWords;
  }

  /** An outline was written: the units its saved text holds join the turn's (unknown units cover all). */
  #outlineWritten(units: number[] | undefined): void {
    this.#wroteOutline = true;
    this.#outlineUnits = units && this.#outlineUnits ? [...new Set([...this.#outlineUnits, ...units])] : null;
  }

  #noteFile(o: ToolOutcome): void {
    if (!o.ok || !o.fileId || !o.title || !o.fileType) return;
    if (o.op !== 'created' && o.op !== 'edited' && o.op !== 'opened') return;
    const existing = this.#delivered.find((f) => f.fileId === o.fileId);
    if (existing) existing.bodyWords += o.bodyWords ?? 0;
    else this.#delivered.push({ fileId: o.fileId, title: o.title, type: o.fileType, bodyWords: o.bodyWords ?? 0 });
  }

  /** Records the ended run of `kind` and what was decided after it. */
  #decided(kind: RunKind, decision: Decision, blockedHandoff: { message: string } | null): void {
    if (kind === 'planner_repair') this.#plannerRepairDone = true;
    if (kind === 'empty_file_repair') this.#carried = null;
    if (decision.action === 'run' && decision.repair) {
      // The correction round writes into the same file: it is pending again for the body.
      this.#repairedFileIds.push(decision.repair.fileId);
      this.#carried = decision.repair.carried;
      this.#pendingFileId = decision.repair.fileId;
      this.#pendingFileIsBody = this.#emptyFile?.isBody ?? false;
    }
    if (blockedHandoff)
      this.#blockedHandoffs.push({ reason: 'read_only_handoff_blocked', message: blockedHandoff.message });
    this.#runs.push({ run: this.#run, agent: this.#agent!, kind, outcome: outcomeLabel(decision), textDropped: false });
  }

  #heldTextMoved(move: 'drop' | 'release' | 'released' | 'atTurnEnd'): void {
    if (move === 'released') {
      this.#heldRuns = [];
      return;
    }
    // Released text is text the author has seen; dropped text never was.
    if (move !== 'drop') this.#shownText ||= this.#heldText;
    this.#heldText = false;
    if (move === 'drop') {
      for (const rec of this.#runs) if (this.#heldRuns.includes(rec.run)) rec.textDropped = true;
      this.#heldRuns = [];
    } else if (move === 'atTurnEnd') this.#releaseHeldAtFinalize();
  }

  /** The turn ends next: finalize publishes the held text, saving an activity round trip. */
  #releaseHeldAtFinalize(): void {
    this.#releaseAtFinalize = [...new Set([...this.#releaseAtFinalize, ...this.#heldRuns])];
    this.#heldRuns = [];
  }

  /**
   * A turn that fails or is interrupted mid-run still records that run, so its text (held or
   * streamed) is saved in the assistant message, and publishes held writer text instead of
   * losing it: nothing follows that could replace it.
   */
  #runCut(outcome: 'interrupted' | 'failed'): void {
    if (this.#agent && this.#run > 0 && !this.#runs.some((r) => r.run === this.#run))
      this.#runs.push({ run: this.#run, agent: this.#agent, kind: this.#currentKind, outcome, textDropped: false });
    this.#releaseHeldAtFinalize();
  }

  /** The handoff packet the next agent reads; the turn's first run has none. */
  packetFor(next: NextRun, from: WorkAgent | null, prepared: PreparedTurn): string | null {
    if (next.kind === 'initial') return null;
    const review =
      next.kind === 'review_gate'
        ? {
            bodyWords: this.#bodyWords,
            lengthRequirements: prepared.lengthRequirements,
            writerQuestion: next.writerQuestion ?? null,
          }
        : undefined;
    return buildPacket({
      from: from ?? next.agent,
      to: next.agent,
      kind: next.kind,
      scope: this.#routing!.scope,
      note: next.note,
      delivered: this.#delivered,
      review,
    });
  }

  /**
   * What `decideAfterRun` reads about the turn once a run of `kind` has ended with `facts`.
   * A planner-repair run counts as done here already: its `decided` change records it.
   */
  decideState(kind: RunKind, facts: RunFacts, prepared: PreparedTurn): DecideState {
    const plannerRepairDone = this.#plannerRepairDone || kind === 'planner_repair';
    const maxReviewRounds = this.input.settings.maxReviewRounds ?? DEFAULT_REVIEW_MAX_ROUNDS;
    const routing = this.#routing!;
    return {
      routing,
      remaining: this.#remaining,
      runsSoFar: this.#run,
      maxRuns: this.input.settings.maxAgentRuns,
      bodyWordsThisTurn: this.#bodyWords,
      bodyWordsReviewed: this.#bodyWordsReviewed,
      reviewThreshold: this.input.settings.reviewWordThreshold,
      plannerRepairDone,
      requestAsksForPlan: requestAsksForPlan(this.input.message),
      wroteOutline: this.#wroteOutline,
      outlineUnits: this.#outlineUnits,
      emptyFileRepair: facts.emptyFile != null && !routing.read_only,
      repairedFileIds: this.#repairedFileIds,
      carried: this.#carried,
      reviewRounds: this.#reviewRounds,
      maxReviewRounds: this.#reviewRounds >= maxReviewRounds ? maxReviewRounds : null,
      language: prepared.language,
    };
  }

  /**
   * What the writer's chat hold reads as run `run`'s next model step starts (the rule is
   * `holdsWriterChat`). A reviewer's run already recorded makes this writer run a revision.
   */
  chatHoldFacts(agent: WorkAgent, run: number): ChatHoldFacts {
    return {
      agent,
      afterReview: this.#runs.some((r) => r.agent === 'quality_reviewer'),
      remaining: this.#remaining,
      bodyPending: this.#pendingFileId !== null && this.#pendingFileIsBody,
      runHeld: this.#heldRuns.includes(run),
      bodyWordsThisTurn: this.#bodyWords,
      bodyWordsReviewed: this.#bodyWordsReviewed,
      reviewThreshold: this.input.settings.reviewWordThreshold,
      reviewRounds: this.#reviewRounds,
      maxReviewRounds: this.input.settings.maxReviewRounds ?? DEFAULT_REVIEW_MAX_ROUNDS,
    };
  }

  snapshot(): TurnState {
    return {
      status: this.#status,
      agent: this.#agent,
      step: this.#step,
      run: this.#run,
      plan: this.#routing?.workflow_plan ?? null,
      remainingPlan: [...this.#remaining],
      filesTouched: this.#delivered.map((f) => f.fileId),
      usage: { ...this.#usage },
      routing: this.#routing,
      pendingApproval: this.#pendingApproval,
    };
  }
}

/**
 * The turn's routing as the turn keeps it: a frozen copy, its arrays frozen too, so a write
 * anywhere after routing throws (workflow code runs in strict mode) instead of changing the
 * route mid-turn. The caller's object is left as it was.
 */
export function freezeRouting(routing: RoutingDecision): RoutingDecision {
  return Object.freeze({
    ...routing,
    workflow_agents: Object.freeze([...routing.workflow_agents]),
    notes: Object.freeze([...routing.notes]),
  });
}

/** A change of a type `apply` does not know: a bug, not data. */
function unknownChange(change: never): never {
  throw new Error(`unknown turn change ${JSON.stringify(change)}`);
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
