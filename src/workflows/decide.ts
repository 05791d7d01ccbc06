/**
 * What happens after an agent run, in this order:
 * empty-file correction round → explicit handoff → request_clarification → a closing
 * question to the author → planner repair → file-stream continuation round → auto review
 * gate → next planned agent → complete. MAX_AGENT_RUNS bounds every path that starts
 * another run; REVIEW_MAX_ROUNDS bounds the review gate.
 * Pure module: runs inside the workflow.
 */
import type { TurnStatus } from '../core/domain';
import type { RunKind } from '../core/turn/turn-types';
import { agentHasWriteTools } from '../core/model/tool-schemas';
import type { RoutingDecision, WorkAgent } from '../core/plans';

/** Facts about the run that just ended, gathered by the agent-run loop. */
export interface RunFacts {
  agent: WorkAgent;
  kind: RunKind;
  handoff: { to: WorkAgent; reason: string; todo?: string } | null;
  clarification: { question: string } | null;
  endsWithQuestion: boolean;
  question: string | null;
  /** create_file succeeded in this run. */
  createdFile: boolean;
  /** The run's last text ends on a finished `</file>` block. */
  endsOnFileBlock: boolean;
  circuitOpen: { reason: 'repeated_unavailable_tool_call' | 'tool_failure_circuit_open'; message: string } | null;
  /** "chapter N" units the run pasted into chat. */
  planUnits: number[];
  /** A file this run created without content and left with no body. */
  emptyFile?: { fileId: string; title: string } | null;
  /**
   * The provider ended the run's last answer early — at its output limit or by its content
   * filter — with the `<file>` body it left unfinished (saved as far as it went), if any.
   */
  cutShort?: { reason: 'length' | 'content_filter'; unfinished: { title: string; words: number } | null } | null;
  /** The run's first answer had no text and no tool call. */
  emptyAnswer?: boolean;
}

/** The facts of a run before anything has happened in it; the agent-run loop fills them in. */
export const freshRunFacts = (agent: WorkAgent, kind: RunKind): RunFacts => ({
  agent,
  kind,
  handoff: null,
  clarification: null,
  endsWithQuestion: false,
  question: null,
  createdFile: false,
  endsOnFileBlock: false,
  circuitOpen: null,
  planUnits: [],
});

/** What the run interrupted by an empty-file correction round was about to do. */
export type CarriedSignals = Pick<RunFacts, 'handoff' | 'clarification' | 'endsWithQuestion' | 'question'>;

export interface DecideState {
  routing: RoutingDecision;
  remaining: WorkAgent[];
  runsSoFar: number;
  maxRuns: number;
  bodyWordsThisTurn: number;
  bodyWordsReviewed: number;
  reviewThreshold: number;
  plannerRepairDone: boolean;
  requestAsksForPlan: boolean;
  /** An outline file was written (created with body or edited) in this turn. */
  wroteOutline: boolean;
  /**
   * The chapter units the outline files written this turn hold, as saved. Absent with
   * `wroteOutline` when a write did not report them (steps recorded before they did): such an
   * outline counts as holding the whole plan, as it always did.
   */
  outlineUnits?: readonly number[] | null;
  /** Empty-file correction rounds are on (off on read-only turns). */
  emptyFileRepair?: boolean;
  /** Files that already had their one correction round in this turn. */
  repairedFileIds?: string[];
  /** Signals of the run a correction round interrupted; they apply once the repair is done. */
  carried?: CarriedSignals | null;
  /** Review-gate rounds already run in this turn, and the cap (null: no cap). */
  reviewRounds?: number;
  maxReviewRounds?: number | null;
  language?: 'zh' | 'en';
}

export type StopReason =
  | 'clarification_requested'
  | 'question_to_author'
  | 'max_agent_runs'
  | 'tool_failure_circuit_open'
  | 'invalid_handoff'
  | 'empty_file_unwritten'
  | 'output_truncated'
  | 'content_filtered'
  | 'empty_answer';

export type Decision =
  | {
      action: 'run';
      agent: WorkAgent;
      kind: RunKind;
      remaining: WorkAgent[];
      note: string;
      writerQuestion?: string | null;
      /** Correction round: the file to write, and what the interrupted run was about to do. */
      repair?: { fileId: string; title: string; carried: CarriedSignals };
    }
  | {
      action: 'stop';
      status: TurnStatus;
      reason: StopReason;
      message: string;
      resume: { agent: WorkAgent; remaining: WorkAgent[] } | null;
      errorCode?: string;
    }
  | { action: 'complete' };

export interface DecisionWithCards {
  decision: Decision;
  /** Non-terminal card to send just before the terminal event. */
  blockedHandoff: { to: WorkAgent; message: string } | null;
  /** Explicit handoff dropped (clarify_first turn): recorded, not an error. */
  droppedHandoff: boolean;
}

const PLANNERS: readonly WorkAgent[] = ['planner', 'hook_designer'];

/** The review-round cap is reached: no more review gates this turn. */
export function reviewCapReached(s: Pick<DecideState, 'reviewRounds' | 'maxReviewRounds'>): boolean {
  return s.maxReviewRounds != null && (s.reviewRounds ?? 0) >= s.maxReviewRounds;
}

/** A review threshold no turn reaches: the review gate is off (a job told not to review its chapters). */
export const REVIEW_GATE_OFF = 1_000_000_000;

export function reviewGateOff(s: Pick<DecideState, 'reviewThreshold'>): boolean {
  return s.reviewThreshold >= REVIEW_GATE_OFF;
}

/** The writer's body words not yet reviewed reach the review threshold. */
export function unreviewedWordsReachThreshold(
  s: Pick<DecideState, 'bodyWordsThisTurn' | 'bodyWordsReviewed' | 'reviewThreshold'>,
): boolean {
  return s.bodyWordsThisTurn - s.bodyWordsReviewed >= s.reviewThreshold;
}

function reviewDue(facts: RunFacts, s: DecideState): boolean {
  return facts.agent === 'writer' && unreviewedWordsReachThreshold(s) && !s.routing.read_only && !reviewCapReached(s);
}

/** The correction round's own signals win; without any, the interrupted run's apply. */
function withCarried(facts: RunFacts, carried: CarriedSignals | null | undefined): RunFacts {
  if (facts.kind !== 'empty_file_repair' || !carried) return facts;
  if (facts.handoff || facts.clarification || facts.endsWithQuestion) return facts;
  return { ...facts, ...carried };
}

function emptyFileMessage(title: string, language: 'zh' | 'en' | undefined): string {
  return language === 'zh'
    ? `《${title}》没有写成：纠偏一轮后它仍是空的，已移除，没有保存任何正文。`
    : `"${title}" was not written: it was still empty after a correction round, so it was removed and nothing was saved in it.`;
}

function repairNote(title: string, fileId: string): string {
  return `"${title}" (id=${fileId}) was created but is still empty: nothing was saved in it. Write its body now as a line <file>, the text, then a line </file>. Do not create another file and do not say it was saved before it is.`;
}

/**
 * A provider that ended the answer early, or gave none, ends the turn with that said: another
 * run would be cut or filtered the same way, and a continuation round would write over the
 * unfinished body. What was written stays saved; a cut-off answer is resumable ("continue").
 */
function earlyEnd(facts: RunFacts, s: DecideState): Decision | null {
  const zh = s.language === 'zh';
  const resume = { agent: facts.agent, remaining: s.remaining };
  const cut = facts.cutShort;
  if (cut?.reason === 'length') {
    const file = cut.unfinished;
    const message = zh
      ? `模型的回答在输出上限处被截断${file ? `：《${file.title}》没有写完，已写的 ${file.words} 字已保存` : ''}。说"继续"接着写。`
      : `The model's answer was cut off at its output limit${file ? `: "${file.title}" is unfinished; the ${file.words} words written so far are saved` : ''}. Say "continue" to go on.`;
    return { action: 'stop', status: 'exhausted', reason: 'output_truncated', message, resume };
  }
  if (cut?.reason === 'content_filter') {
    const file = cut.unfinished;
    const message = zh
      ? `模型服务的内容过滤中止了回答${file ? `：《${file.title}》没有写完，已写的 ${file.words} 字已保存` : ''}。`
      : `The model provider's content filter stopped the answer${file ? `: "${file.title}" is unfinished; the ${file.words} words written so far are saved` : ''}.`;
    return failed('content_filtered', message, resume);
  }
  if (facts.emptyAnswer) {
    const message = zh
      ? '模型返回了空回答，没有写入任何内容。'
      : 'The model returned an empty answer; nothing was written.';
    return failed('empty_answer', message, resume);
  }
  return null;
}

type Stop = Extract<Decision, { action: 'stop' }>;

/** The turn fails; the client sees `errorCode`, which is the reason itself unless it says more. */
function failed(reason: StopReason, message: string, resume: Stop['resume'], errorCode: string = reason): Stop {
  return { action: 'stop', status: 'failed', reason, message, resume, errorCode };
}

/** The turn waits for the author; when the author answers, the agent that asked picks up. */
function awaitAuthor(reason: StopReason, message: string, facts: RunFacts, s: DecideState): Stop {
  return {
    action: 'stop',
    status: 'awaiting_author',
    reason,
    message,
    resume: { agent: facts.agent, remaining: s.remaining },
  };
}

/** Caps another run at MAX_AGENT_RUNS; exhaustion is resumable ("continue"). */
function capped(d: Decision, s: DecideState): Decision {
  if (d.action !== 'run' || s.runsSoFar < s.maxRuns) return d;
  return {
    action: 'stop',
    status: 'exhausted',
    reason: 'max_agent_runs',
    message: `Stopped after ${s.maxRuns} agent runs; say "continue" to pick up with ${d.agent}.`,
    resume: { agent: d.agent, remaining: d.remaining },
  };
}

/**
 * What follows the run that ended with `ranFacts`. The rules, in the order the header gives,
 * are the steps below: each answers with a decision or passes (null) to the next. Whatever is
 * decided, another run is capped at MAX_AGENT_RUNS.
 */
export function decideAfterRun(ranFacts: RunFacts, s: DecideState): DecisionWithCards {
  const first = breakerStop(ranFacts) ?? earlyEnd(ranFacts, s) ?? emptyFileRound(ranFacts, s);
  if (first) return { decision: capped(first, s), blockedHandoff: null, droppedHandoff: false };
  // Past the correction round, the signals it carried apply.
  const facts = withCarried(ranFacts, s.carried);
  const handoff = explicitHandoff(facts, s);
  const decision =
    handoff.decision ??
    clarificationStop(facts, s) ??
    closingQuestion(facts, s) ??
    plannerRepair(facts, s) ??
    continuation(facts, s) ??
    reviewGate(facts, s) ??
    nextPlanned(s);
  return {
    decision: capped(decision, s),
    blockedHandoff: handoff.blockedHandoff,
    droppedHandoff: handoff.droppedHandoff,
  };
}

/** The failure breaker tripped (three identical tool failures in a row): the turn fails. */
function breakerStop(facts: RunFacts): Decision | null {
  if (!facts.circuitOpen) return null;
  return failed('tool_failure_circuit_open', facts.circuitOpen.message, null, facts.circuitOpen.reason);
}

/**
 * 0. Empty-file correction round: the agent that created the empty file writes it, once
 * per file (read-only turns roll it back instead). Whatever the run was about to do —
 * hand off, or wait for the author — is carried over and applies after the repair.
 */
function emptyFileRound(ranFacts: RunFacts, s: DecideState): Decision | null {
  const empty = ranFacts.emptyFile;
  if (!s.emptyFileRepair || !empty || s.routing.read_only) return null;
  if (s.repairedFileIds?.includes(empty.fileId))
    return failed('empty_file_unwritten', emptyFileMessage(empty.title, s.language), {
      agent: ranFacts.agent,
      remaining: s.remaining,
    });
  const carriedNow = ranFacts.kind === 'empty_file_repair' ? withCarried(ranFacts, s.carried) : ranFacts;
  return {
    action: 'run',
    agent: ranFacts.agent,
    kind: 'empty_file_repair',
    remaining: s.remaining,
    note: repairNote(empty.title, empty.fileId),
    repair: {
      fileId: empty.fileId,
      title: empty.title,
      carried: {
        handoff: carriedNow.handoff,
        clarification: carriedNow.clarification,
        endsWithQuestion: carriedNow.endsWithQuestion,
        question: carriedNow.question,
      },
    },
  };
}

/** An explicit handoff's answer: the run it starts, or the card it leaves (blocked) or its being dropped. */
type HandoffAnswer = Pick<DecisionWithCards, 'blockedHandoff' | 'droppedHandoff'> & { decision: Decision | null };

/** 1. Explicit handoff. */
function explicitHandoff(facts: RunFacts, s: DecideState): HandoffAnswer {
  const passed: HandoffAnswer = { decision: null, blockedHandoff: null, droppedHandoff: false };
  const handoff = facts.handoff;
  if (!handoff) return passed;
  if (s.routing.clarify_first) return { ...passed, droppedHandoff: true };
  // At the review-round cap a handoff back to the reviewer would restart the writer↔reviewer loop.
  if (handoff.to === 'quality_reviewer' && reviewCapReached(s)) return { ...passed, droppedHandoff: true };
  if (s.routing.read_only && agentHasWriteTools(handoff.to))
    return {
      ...passed,
      blockedHandoff: { to: handoff.to, message: `Handoff to ${handoff.to} blocked: this turn is read-only.` },
    };
  return {
    ...passed,
    decision: {
      action: 'run',
      agent: handoff.to,
      kind: 'explicit',
      remaining: s.remaining.filter((a) => a !== handoff.to),
      note: handoff.todo ? `${handoff.reason}\nTodo: ${handoff.todo}` : handoff.reason,
    },
  };
}

/** 2. Structured clarification: the turn waits for the author. */
function clarificationStop(facts: RunFacts, s: DecideState): Decision | null {
  if (!facts.clarification) return null;
  return awaitAuthor('clarification_requested', facts.clarification.question, facts, s);
}

/** 3. A closing question to the author stops planned handoffs, with two exceptions. */
function closingQuestion(facts: RunFacts, s: DecideState): Decision | null {
  if (!facts.endsWithQuestion) return null;
  if (reviewDue(facts, s)) return reviewRun(s, facts.question);
  if (PLANNERS.includes(facts.agent) && s.routing.write_content && s.remaining.includes('writer')) {
    const at = s.remaining.indexOf('writer');
    return {
      action: 'run',
      agent: 'writer',
      kind: 'writer_after_question',
      remaining: s.remaining.slice(at + 1),
      note: 'The author already asked for the prose: go ahead with the recommended option and do not ask again.',
    };
  }
  return awaitAuthor('question_to_author', facts.question ?? 'The agent asked the author a question.', facts, s);
}

/** The units the planner posted in chat that no outline written this turn holds. */
function unitsInChatOnly(facts: RunFacts, s: DecideState): number[] {
  if (!s.wroteOutline) return facts.planUnits;
  if (!s.outlineUnits) return [];
  const saved = new Set(s.outlineUnits);
  return facts.planUnits.filter((u) => !saved.has(u));
}

/**
 * 4. Planner pasted the plan into chat only: once per turn, write it into the outline. An
 * outline saved this turn with only part of the plan (chapters 1–3 of ten) does not stop it:
 * what counts is the entries that are in chat only.
 */
function plannerRepair(facts: RunFacts, s: DecideState): Decision | null {
  if (facts.agent !== 'planner' || !s.requestAsksForPlan || s.plannerRepairDone) return null;
  const missing = unitsInChatOnly(facts, s);
  if (missing.length < 5) return null;
  const posted = facts.planUnits.length;
  const note =
    missing.length === posted
      ? `You posted ${posted} chapter entries in chat but no outline file holds them. Save them into the outline file now.`
      : `You posted ${posted} chapter entries in chat, but the outline saved in this turn lacks ${missing.length} of them (chapters ${missing.join(', ')}). Save them into the outline file now.`;
  return { action: 'run', agent: 'planner', kind: 'planner_repair', remaining: s.remaining, note };
}

/** 5. The run ended right after a finished <file> block: same agent carries on. */
function continuation(facts: RunFacts, s: DecideState): Decision | null {
  if (!facts.createdFile || !facts.endsOnFileBlock || !agentHasWriteTools(facts.agent)) return null;
  return { action: 'run', agent: facts.agent, kind: 'continuation', remaining: s.remaining, note: 'continuation' };
}

/** 6. Auto review gate: enough body text written by the writer in successful writes. */
function reviewGate(facts: RunFacts, s: DecideState): Decision | null {
  if (!reviewDue(facts, s)) return null;
  return reviewRun(s, null);
}

/** The reviewer's run at the review gate; a question the writer closed on goes with it. */
function reviewRun(s: DecideState, writerQuestion: string | null): Decision {
  return {
    action: 'run',
    agent: 'quality_reviewer',
    kind: 'review_gate',
    remaining: s.remaining.filter((a) => a !== 'quality_reviewer'),
    note: 'review gate',
    writerQuestion,
  };
}

/** 7. Next planned agent; with none left, the turn is complete. */
function nextPlanned(s: DecideState): Decision {
  const [next, ...rest] = s.remaining;
  if (next) return { action: 'run', agent: next, kind: 'planned', remaining: rest, note: 'planned handoff' };
  return { action: 'complete' };
}
