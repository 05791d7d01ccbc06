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

function reviewDue(facts: RunFacts, s: DecideState): boolean {
  return (
    facts.agent === 'writer' &&
    s.bodyWordsThisTurn - s.bodyWordsReviewed >= s.reviewThreshold &&
    !s.routing.read_only &&
    !reviewCapReached(s)
  );
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
    return {
      action: 'stop',
      status: 'failed',
      reason: 'content_filtered',
      message,
      resume,
      errorCode: 'content_filtered',
    };
  }
  if (facts.emptyAnswer) {
    const message = zh
      ? '模型返回了空回答，没有写入任何内容。'
      : 'The model returned an empty answer; nothing was written.';
    return { action: 'stop', status: 'failed', reason: 'empty_answer', message, resume, errorCode: 'empty_answer' };
  }
  return null;
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

export function decideAfterRun(ranFacts: RunFacts, s: DecideState): DecisionWithCards {
  let blockedHandoff: DecisionWithCards['blockedHandoff'] = null;
  let droppedHandoff = false;
  const done = (decision: Decision): DecisionWithCards => ({
    decision: capped(decision, s),
    blockedHandoff,
    droppedHandoff,
  });

  if (ranFacts.circuitOpen)
    return done({
      action: 'stop',
      status: 'failed',
      reason: 'tool_failure_circuit_open',
      message: ranFacts.circuitOpen.message,
      resume: null,
      errorCode: ranFacts.circuitOpen.reason,
    });
  const early = earlyEnd(ranFacts, s);
  if (early) return done(early);

  // 0. Empty-file correction round: the agent that created the empty file writes it, once
  // per file (read-only turns roll it back instead). Whatever the run was about to do —
  // hand off, or wait for the author — is carried over and applies after the repair.
  const empty = ranFacts.emptyFile;
  if (s.emptyFileRepair && empty && !s.routing.read_only) {
    if (s.repairedFileIds?.includes(empty.fileId))
      return done({
        action: 'stop',
        status: 'failed',
        reason: 'empty_file_unwritten',
        message: emptyFileMessage(empty.title, s.language),
        resume: { agent: ranFacts.agent, remaining: s.remaining },
        errorCode: 'empty_file_unwritten',
      });
    const carriedNow = ranFacts.kind === 'empty_file_repair' ? withCarried(ranFacts, s.carried) : ranFacts;
    return done({
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
    });
  }
  const facts = withCarried(ranFacts, s.carried);

  // 1. Explicit handoff.
  if (facts.handoff) {
    if (s.routing.clarify_first) droppedHandoff = true;
    // At the review-round cap a handoff back to the reviewer would restart the writer↔reviewer loop.
    else if (facts.handoff.to === 'quality_reviewer' && reviewCapReached(s)) droppedHandoff = true;
    else if (s.routing.read_only && agentHasWriteTools(facts.handoff.to))
      blockedHandoff = {
        to: facts.handoff.to,
        message: `Handoff to ${facts.handoff.to} blocked: this turn is read-only.`,
      };
    else
      return done({
        action: 'run',
        agent: facts.handoff.to,
        kind: 'explicit',
        remaining: s.remaining.filter((a) => a !== facts.handoff!.to),
        note: facts.handoff.todo ? `${facts.handoff.reason}\nTodo: ${facts.handoff.todo}` : facts.handoff.reason,
      });
  }

  // 2. Structured clarification: the turn waits for the author.
  if (facts.clarification)
    return done({
      action: 'stop',
      status: 'awaiting_author',
      reason: 'clarification_requested',
      message: facts.clarification.question,
      resume: { agent: facts.agent, remaining: s.remaining },
    });

  // 3. A closing question to the author stops planned handoffs, with two exceptions.
  if (facts.endsWithQuestion) {
    if (reviewDue(facts, s))
      return done({
        action: 'run',
        agent: 'quality_reviewer',
        kind: 'review_gate',
        remaining: s.remaining.filter((a) => a !== 'quality_reviewer'),
        note: 'review gate',
        writerQuestion: facts.question,
      });
    if (PLANNERS.includes(facts.agent) && s.routing.write_content && s.remaining.includes('writer')) {
      const at = s.remaining.indexOf('writer');
      return done({
        action: 'run',
        agent: 'writer',
        kind: 'writer_after_question',
        remaining: s.remaining.slice(at + 1),
        note: 'The author already asked for the prose: go ahead with the recommended option and do not ask again.',
      });
    }
    return done({
      action: 'stop',
      status: 'awaiting_author',
      reason: 'question_to_author',
      message: facts.question ?? 'The agent asked the author a question.',
      resume: { agent: facts.agent, remaining: s.remaining },
    });
  }

  // 4. Planner pasted the plan into chat only: once per turn, write it into the outline.
  if (
    facts.agent === 'planner' &&
    s.requestAsksForPlan &&
    !s.plannerRepairDone &&
    facts.planUnits.length >= 5 &&
    !s.wroteOutline
  )
    return done({
      action: 'run',
      agent: 'planner',
      kind: 'planner_repair',
      remaining: s.remaining,
      note: `You posted ${facts.planUnits.length} chapter entries in chat but no outline file holds them. Save them into the outline file now.`,
    });

  // 5. The run ended right after a finished <file> block: same agent carries on.
  if (facts.createdFile && facts.endsOnFileBlock && agentHasWriteTools(facts.agent))
    return done({
      action: 'run',
      agent: facts.agent,
      kind: 'continuation',
      remaining: s.remaining,
      note: 'continuation',
    });

  // 6. Auto review gate: enough body text written by the writer in successful writes.
  if (reviewDue(facts, s))
    return done({
      action: 'run',
      agent: 'quality_reviewer',
      kind: 'review_gate',
      remaining: s.remaining.filter((a) => a !== 'quality_reviewer'),
      note: 'review gate',
      writerQuestion: null,
    });

  // 7. Next planned agent.
  const [next, ...rest] = s.remaining;
  if (next) return done({ action: 'run', agent: next, kind: 'planned', remaining: rest, note: 'planned handoff' });

  return done({ action: 'complete' });
}
