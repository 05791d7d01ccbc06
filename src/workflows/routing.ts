/**
 * Deterministic pre-routing, run before any model call (seeds 000/001 "Router",
 * 004 "L1"). When a rule fires, the router model is not called. Order matters:
 * the vague-edit check comes before inheriting the previous route (seed 001).
 * Pure module: runs inside the workflow.
 */
import type { TurnStatus } from '../shared/domain';
import { findLengthMentions, formatUnitRange } from '../shared/numerals';
import { detectLanguage } from '../shared/text';
import { type RoutingDecision, type WorkAgent } from './plans';
import { confirmedStepRouting, isConfirmation, isOfferQuestion, proposedStep } from './proposals';

/** What the workflow knows about the session's previous turn (loaded by an activity). */
export interface PreviousTurnFacts {
  status: TurnStatus | null;
  stopReason: string | null;
  routing: RoutingDecision | null;
  /** Where to pick up: saved when the turn stopped before its plan was done. */
  resume: { agent: WorkAgent; remaining: WorkAgent[] } | null;
  /** The previous turn ended asking the author something (question or request_clarification). */
  askedQuestion: boolean;
  /** Concrete changes the previous answer proposed (the author may be agreeing to one). */
  proposedChanges: number;
  /** The question the previous answer ended on, verbatim (absent in turns recorded before it was kept). */
  question?: string | null;
  /** Chapter / episode numbers of the files the previous turn wrote ("the next chapter" follows them). */
  deliveredUnits?: number[];
}

/** Rule switches, so turns recorded before a rule existed replay the way they ran. */
export interface PreRouteOptions {
  /** Confirming an offered next step routes to that step (issue 9 item 1). */
  confirmProposals?: boolean;
}

const normalise = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, ' ')
    .trim();

const CONTINUE_EN = /^(please )?(continue|go on|keep going|carry on|resume|proceed|go ahead|continue writing|keep writing|next)( please)?$/;
const CONTINUE_ZH = /^(请)?(继续|接着|接着写|继续写|继续吧|接着来|往下写|继续下去|go on)(吧|呀|啊)?$/;

/** "continue" / "继续" and close variants, as a whole message. */
export function isContinueMessage(message: string): boolean {
  const n = normalise(message);
  return CONTINUE_EN.test(n) || CONTINUE_ZH.test(n.replace(/ /g, ''));
}

const VAGUE_EN =
  /^(please |pls |can you |could you |would you |help me |just )*(polish|improve|edit|fix|refine|tweak|rework|revise|enhance|optimi[sz]e|touch up|clean up|make)( it| this| that| the text| the chapter| the draft| things)?( up)?( better| nicer| more polished)?( a bit| a little| somewhat)?( please| for me)?$/;
const VAGUE_ZH =
  /^(请|请你|帮我|帮忙|麻烦|麻烦你|你)*(再)?(优化|润色|修改|改|改改|完善|调整|打磨|提升|改进|美化|修一修|改一改|精修)(一下|下|一遍|一番)?(吧|呢|哈|啊|呀|好吗|可以吗)?$/;

/**
 * A whole-sentence edit request that does not say what to change ("polish it", "帮我优化一下").
 * Anything naming a target or a direction ("tighten the dialogue in chapter 2") is not vague.
 */
export function isVagueEditRequest(message: string): boolean {
  const n = normalise(message);
  if (n.length === 0 || n.length > 60) return false;
  return VAGUE_EN.test(n) || VAGUE_ZH.test(n.replace(/ /g, ''));
}

/**
 * A short reply that reads as an answer to a question just asked ("the second one", "B",
 * "yes", "第二个", "用方案A"), rather than a new request.
 */
export function isShortAnswer(message: string): boolean {
  const t = message.trim();
  if (t.length === 0 || /\n/.test(t)) return false;
  const cjk = t.match(/[\u4e00-\u9fff]/g)?.length ?? 0;
  if (cjk > 0) return Array.from(t).length <= 20;
  return t.split(/\s+/).length <= 8 && t.length <= 60;
}

export { isConfirmation };

/** The agreement words turns recorded before 'h1-confirm-proposal' were routed with (kept for replay). */
function legacyIsConfirmation(message: string): boolean {
  return /^(yes|yeah|yep|sure|ok|okay|please do|go ahead|do it|sounds good|yes please|好|好的|好啊|可以|行|行吧|嗯|是的|对|没问题|就这样|来吧|写吧)( please| 吧)?$/.test(normalise(message));
}

/**
 * Seed 004 L1 `_is_empty_or_noise`: a message with no letter or digit in it ("???", "…",
 * "。。。", empty) is not a request. A thumbs-up is agreement, not noise.
 */
export function isNoiseMessage(message: string): boolean {
  if (isConfirmation(message)) return false;
  return !/[\p{L}\p{N}]/u.test(message);
}

/** Whether the author asked for a plan (outline, chapter breakdown), not just a chat about one. */
export function requestAsksForPlan(message: string): boolean {
  return /(outline|chapter[- ]by[- ]chapter|plan (the|a|my|out)|break (it )?down into (chapters|episodes)|大纲|分章|分集|规划|章纲)/i.test(message);
}

/** Sentence ends for length clauses; a dot between digits ("1.5万字") is a decimal point. */
const SENTENCE_END = /[。！？!?\n]|\.(?!\d)/g;

/**
 * Length requirements the author stated in this message, each as its sentence ("写第三章，两千字左右",
 * "about 2,000 words", "3k words"): Arabic, full-width and Chinese numerals alike.
 */
export function findLengthRequirements(message: string): string[] {
  const ends = [...message.matchAll(SENTENCE_END)].map((m) => m.index);
  const out: string[] = [];
  for (const m of findLengthMentions(message)) {
    const before = ends.filter((e) => e < m.start);
    const start = before.length ? before[before.length - 1]! + 1 : 0;
    const end = ends.find((e) => e >= m.end) ?? message.length;
    const sentence = message.slice(start, end).trim();
    if (!out.includes(sentence)) out.push(sentence);
  }
  return out;
}

/**
 * Runs the deterministic rules in order; returns a decision when one fires, else null
 * (then the LLM router decides).
 */
export function preRoute(message: string, previous: PreviousTurnFacts | null, opts: PreRouteOptions = {}): RoutingDecision | null {
  const prevRouting = previous?.routing ?? null;

  if (isVagueEditRequest(message)) {
    const alreadyAsked = prevRouting?.clarify_first === true;
    const agreeingToOneProposal = (previous?.proposedChanges ?? 0) === 1;
    if (!alreadyAsked && !agreeingToOneProposal) {
      return {
        current_agent: 'writer',
        workflow_plan: 'quick',
        workflow_agents: [],
        write_content: false,
        read_only: false,
        scope: 'ask what to change',
        clarify_first: true,
        source: 'clarify_first',
        notes: ['whole-sentence vague edit request: ask what to change first'],
      };
    }
  }

  if (previous?.status === 'exhausted' && previous.resume && prevRouting && isContinueMessage(message)) {
    return {
      ...prevRouting,
      current_agent: previous.resume.agent,
      workflow_agents: [...previous.resume.remaining],
      clarify_first: false,
      source: 'resume_after_exhaustion',
      notes: ['"continue" after an exhausted turn resumes its route'],
    };
  }

  if (opts.confirmProposals && previous?.askedQuestion && isOfferQuestion(previous.question)) {
    // An offered next step is not a follow-up question: a plain "yes" routes to the step,
    // anything else goes to the router (never the whole previous route, seed 001 Router).
    const step = proposedStep(previous.question, previous.deliveredUnits ?? []);
    if (step && isConfirmation(message)) return confirmedStepRouting(step, detectLanguage(step.question));
    return null;
  }

  if (previous?.status === 'awaiting_author' && previous.askedQuestion && prevRouting && isShortAnswer(message)) {
    const resume = previous.resume ?? { agent: prevRouting.current_agent, remaining: prevRouting.workflow_agents };
    return {
      ...prevRouting,
      current_agent: resume.agent,
      workflow_agents: [...resume.remaining],
      clarify_first: false,
      source: 'inherit_after_question',
      notes: ['short answer to the previous question inherits its routing'],
    };
  }
  return null;
}

/**
 * After the LLM router: confirming a next step the previous turn proposed must not inherit
 * that turn's read-only scope (seed 001: "不沿用 read_only=true / write_content=false / 已交付的 scope").
 */
export function applyConfirmationGuard(decision: RoutingDecision, message: string, previous: PreviousTurnFacts | null, opts: PreRouteOptions = {}): RoutingDecision {
  if (!previous || !previous.askedQuestion || !(opts.confirmProposals ? isConfirmation : legacyIsConfirmation)(message)) return decision;
  if (opts.confirmProposals ? decision.source === 'confirm_proposal' || !isOfferQuestion(previous.question) : previous.status !== 'completed') return decision;
  const step = opts.confirmProposals ? proposedStep(previous.question, previous.deliveredUnits ?? []) : null;
  const inheritedScope = !!step?.units && !!previous.routing && decision.scope === previous.routing.scope;
  const inheritedReadOnly = decision.read_only && previous.routing?.read_only === true;
  const inheritedNoContent = !decision.write_content && previous.routing?.write_content === false;
  if (!inheritedReadOnly && !inheritedNoContent && !inheritedScope) return decision;
  return {
    ...decision,
    read_only: inheritedReadOnly ? false : decision.read_only,
    write_content: inheritedNoContent ? true : decision.write_content,
    scope: inheritedScope ? formatUnitRange(step!.units!, detectLanguage(step!.question)) : decision.scope,
    notes: [...decision.notes, 'confirmation of a proposed step: read_only / write_content=false / the delivered scope not inherited'],
  };
}
