/**
 * Deterministic pre-routing, run before any model call. When a rule fires, the router
 * model is not called. Order matters: the vague-edit check comes before inheriting the
 * previous route.
 * Pure module: runs inside the workflow.
 */
import type { TurnStatus } from '../domain';
import { findLengthMentions, findUnitRefs, formatUnitRange } from './numerals';
import { detectLanguage } from '../text';
import { stepOrderOf } from './orders';
import { VOIDS } from './order-words';
import { STEP_VERBS } from './step-verbs';
import { isHedgedClause, lastRetractionEnd, trailsOff } from './utterance';
import type { MessageReading } from './reading';
import { simplified } from './traditional';
import { type RoutingDecision, type WorkAgent } from '../plans';
import { actionsOf, isNewInstruction, isRefusal, offerReplyOf, withoutPraise } from './answers';
import {
  confirmedStepRouting,
  declinedOfferRouting,
  isConfirmation,
  isOfferQuestion,
  isUnclearAnswer,
  proposedStep,
  type ProposedStep,
} from './proposals';

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
  /** A job command the previous turn asked the author about ("Pause the job now?"): a plain yes runs it. */
  offer?: JobOffer | null;
}

/** A run-control step offered without a model; `stop` when the author must say pause or cancel. */
export interface JobOffer {
  kind: 'job';
  action: 'pause' | 'resume' | 'cancel' | 'stop';
  jobId: string;
}

const normalise = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, ' ')
    .trim();

const CONTINUE_EN =
  /^(please )?(continue|go on|keep going|carry on|resume|proceed|go ahead|continue writing|keep writing|next)( please)?$/;
const CONTINUE_ZH = /^(请)?(继续|接着|接着写|继续写|继续吧|接着来|往下写|继续下去|go on)(吧|呀|啊)?$/;

/** "continue" / "继续" and close variants, as a whole message. */
export function isContinueMessage(message: string): boolean {
  const n = normalise(message);
  return CONTINUE_EN.test(n) || CONTINUE_ZH.test(n.replace(/ /g, ''));
}

import { isVagueEditRequest } from './vague-edits';

export { isVagueEditRequest };

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

/**
 * Noise: a message with no letter or digit in it ("???", "…", "。。。", empty) is not a
 * request. A thumbs-up is agreement, not noise.
 */
export function isNoiseMessage(message: string): boolean {
  if (isConfirmation(message)) return false;
  return !/[\p{L}\p{N}]/u.test(message);
}

const PLAN_NOUN =
  /\b(?:outline|outlines|plan|plot|beat sheet|beats|synopsis|structure|chapter breakdown|breakdown|story arc|plot arc|roadmap)\b|大纲|细纲|章纲|提纲|规划|框架|结构|梗概|故事线|走向|情节安排|(?:章节|分章|写作|创作)计划/iu;
const MAKE_PLAN =
  /\b(?:plan|outline|map out|sketch|draft|make|create|write|give me|come up with|build|design|put together|redo|rework|restructure|need|want|do)\b|列|做|写|出|搭|排|给我|规划|设计|制定|安排|梳理|拟|定|重做|弄|来/iu;
/** The plan itself is the request: "plan a 30-chapter mystery", "break it down into chapters", "分章", "章纲". */
const PLAN_ITSELF =
  /\bplan (?:out |the |a |an |my |our )|\boutline (?:the|a|an|my|our)\b|break (?:it )?down into (?:chapters|episodes)|break (?:the |this |that |my |our )?(?:next |first |second |third |last |final )?(?:arc|act|part|volume|vol|book|season|story|plot|half)\b[^.?!]{0,12}? into (?:\S+ )?(?:chapters|episodes|chs|eps|scenes|beats)|chapter[- ]by[- ]chapter|分章|分集|章纲|(?:重新|帮我|给我|先)规划|规划(?:一下|下)|(?:^|[.!。！]\s*)(?:(?:please|pls|ok|now|so)\s+)?(?:plan|outline|map out)\s+(?:out\s+)?(?:part|vol(?:ume)?|arc|act|book|season|chs?|chapters?|episodes?|eps?|the next|next)\b/iu;
/** A plan noun with the number of chapters it should cover ("新卷大纲 二十章左右", "an outline, about 20 chapters"): the plan is asked for. */
const PLAN_SIZE =
  /[一二三四五六七八九十百两\d]+\s*(?:章|集|回)(?:左右|上下|以内|出头)|\b(?:about|around|roughly|like|some)\s+\d+\s*(?:ish\s+)?(?:chapters|chs|episodes|eps)\b/iu;
/** Talking about a plan, following it, saying it is done or leaving it alone is not asking for one. */
const NOT_A_PLAN_REQUEST =
  /大纲(?:[^，。！？,.!?]{0,6}?(?:已经|早就|早|都|自己)[^，。！？,.!?]{0,3}?)?(?:写|列|做|定|弄|改|排|搞)(?:好|完)了?|不用你管|\b(?:outline|plan)(?:'s| is| has been) (?:done|fixed|ready|finished)\b|不需要大纲|不用大纲|不要大纲|大纲(?:挺好|很好|不错|没问题)|\b(?:no need for (?:a |an |one|the )|don'?t need (?:a |an |the )?(?:outline|plan)|(?:outline|plan) (?:looks|was|is) (?:good|great|excellent|fine)|already (?:drafted|have|wrote|written) (?:my |an? )?(?:own )?(?:outline|plan))|聊聊|聊一聊|讨论|谈谈|怎么看|你觉得|觉得|看看|看一下|检查|对不上|有没有问题|满意|(?:按照?|根据|照着|依照)(?:原来的|之前的|现在的|现有的|我的)?(?:大纲|规划|计划|章纲|细纲|提纲)|大纲里|大纲上|不用改|不要改|别动|不用动|不改|挺好|\b(?:what do you think|thoughts on|opinion|feedback|is my|does my|are my|review|check|against|look at|printed|talk about|discuss|make sense|(?:does|do|is|are) (?:the|my|our|this) (?:outline|plan|structure|plot)|follow(?:ing)?|according to|based on|per the|says|said|don'?t touch|leave the|ignore|older|newer)\b/iu;

/** Whether the author asked for a plan (outline, chapter breakdown) to be made or remade, not a chat about one. */
export function requestAsksForPlan(raw: string): boolean {
  const message = simplified(raw);
  if (NOT_A_PLAN_REQUEST.test(message)) return false;
  return (
    PLAN_ITSELF.test(message) ||
    (PLAN_NOUN.test(message) && (MAKE_PLAN.test(message.replace(PLAN_NOUN, ' ')) || PLAN_SIZE.test(message)))
  );
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
export function preRoute(reading: MessageReading, previous: PreviousTurnFacts | null): RoutingDecision | null {
  const message = reading.text;
  const prevRouting = previous?.routing ?? null;

  if (isVagueEditRequest(reading)) {
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

  if (previous?.askedQuestion && isOfferQuestion(previous.question)) {
    // An offered next step is not a follow-up question: a plain "yes" routes to the step,
    // anything else goes to the router (never the whole previous route).
    const step = proposedStep(previous.question, previous.deliveredUnits ?? []);
    // "不用了" / "no thanks": nothing is written. Nor on "ok?", "嗯……" or "maybe".
    if (isRefusal(message) || refusalWithReasons(reading))
      return declinedOfferRouting(detectLanguage(previous.question ?? message));
    // Anything that puts the step off, takes the yes back, jokes, hedges or asks back is no yes (nothing written).
    if (answerHolds(reading)) return declinedOfferRouting(detectLanguage(previous.question ?? message), true);
    // Before the yes: "yes but" is a yes cut off by its own "but".
    if (isUnclearAnswer(message)) return declinedOfferRouting(detectLanguage(previous.question ?? message), true);
    if (step && (isConfirmation(message) || ordersStep(reading, step)))
      return confirmedStepRouting(step, detectLanguage(step.question));
    return null;
  }

  // An answer keeps the route; a new instruction, however short, goes to the router.
  const newInstruction =
    prevRouting &&
    isNewInstruction(message, {
      agent: prevRouting.current_agent,
      readOnly: prevRouting.read_only,
      question: previous?.question ?? null,
    });
  if (
    previous?.status === 'awaiting_author' &&
    previous.askedQuestion &&
    prevRouting &&
    (isShortAnswer(message) || answerWithReasons(reading)) &&
    !newInstruction
  ) {
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
 * A plain yes or a plain order for exactly the offered step ("写", "write it", "改第二章吧" after
 * "要我改第二章吗？", "可以，排吧" after "要我把大纲排出来吗？"): every clause a yes, courtesy, the offer's own
 * words again, or an order of the grammar for the same kind of step on no other unit than the offer's.
 */
function ordersStep(reading: MessageReading, step: ProposedStep): boolean {
  const clauses = reading.sentences.flatMap((s) => s.clauses);
  if (!clauses.length || reading.sentences.some((s) => /[?？]/.test(s.end) || endsOnConjunction(s))) return false;
  // Courtesy alone agrees to nothing: at least one clause says yes or orders the step.
  let ordered = false;
  for (const clause of clauses) {
    // After the yes, a clause that only comments ("Every one of them is fair.") is the author's reason.
    if (ordered && isReason(clause.text, step)) continue;
    const reply = offerReplyOf(clause.text, step);
    if (reply) {
      ordered ||= reply !== 'courtesy';
      continue;
    }
    const order = stepOrderOf(clause);
    if (!order || order.action !== step.action) return false;
    const sameUnits = order.targets.every(
      (t) =>
        t.kind === 'pointer' ||
        (t.kind === 'unit' &&
          !!step.units &&
          t.unit.kind === step.units.kind &&
          t.unit.from === step.units.from &&
          t.unit.to === step.units.to),
    );
    if (!sameUnits) return false;
    ordered = true;
  }
  return ordered;
}

/**
 * A clause beside a yes or an answer that gives a reason or a detail, not another request: no work
 * of another kind, no unit but the offer's, nothing that narrows or negates ("but", "only", "not"),
 * and no fresh request opening it ("also …", "please …").
 */
function isReason(text: string, step: ProposedStep | null): boolean {
  if (actionsOf(text).some((a) => !step || a !== step.action)) return false;
  if (findUnitRefs(text).some((u) => !step?.units || u.from !== step.units.from || u.to !== step.units.to))
    return false;
  // "…, and Lin's view would give it away" gives a reason; "and add a scene" gives an order.
  const opening = /^[\s\p{P}]*(?:and\s+)?([\p{L}']+)/u.exec(text)?.[1]?.toLowerCase() ?? '';
  return !NARROWS.test(text) && !ANOTHER_REQUEST.test(text) && !IMPERATIVE_OPENERS.has(opening);
}
/** A clause that opens on a verb is an order of its own ("add an entry for the fire to the timeline"), not a reason. */
const IMPERATIVE_OPENERS = new Set<string>([
  ...Object.values(STEP_VERBS).flat(),
  ...['add', 'rename', 'make', 'move', 'swap', 'put', 'give', 'use', "let's", 'go', 'write', 'delete', 'remove'],
  ...['rewrite', 'cut', 'replace', 'insert', 'drop', 'keep', 'leave', 'set', 'call', 'turn', 'switch', 'create'],
]);
const NARROWS =
  /\b(?:but|only|just|except|not|no|never|without|instead|though|however|unless|too|also|as well)\b|n't\b|不|别|没|只|但|除|先|也|还/iu;
const ANOTHER_REQUEST = /^\s*(?:and\s+)?(?:also|please|pls|plus|then|now|另外|还有|再|顺便|请|帮我)/iu;

/** The first sentence of a reply, and whether every clause after it is a reason (see {@link isReason}). */
function firstAndReasons(reading: MessageReading, step: ProposedStep | null): string | null {
  const [first, ...rest] = reading.sentences;
  if (!first || !rest.length) return null;
  if (rest.some((s) => /[?？]/u.test(s.end) || s.clauses.some((c) => !isReason(c.text, step)))) return null;
  return first.text + first.end;
}

/** "No, leave it. The looseness is deliberate — …": a plain no, then only its reasons. */
function refusalWithReasons(reading: MessageReading): boolean {
  const first = firstAndReasons(reading, null);
  return !!first && isRefusal(first);
}

/**
 * "1931. Far enough on that the war is a memory.", "Maud, I think — she's the one with the most to
 * lose": a short answer (its first sentence, or that sentence's first clause), then only reasons.
 */
function answerWithReasons(reading: MessageReading): boolean {
  const first = reading.sentences[0];
  if (!first || reading.sentences.some((s) => /[?？]/u.test(s.end))) return false;
  const [head, ...tail] = first.clauses;
  if (!head || !isShortAnswer(head.text) || head.text.trim().split(/\s+/).length > 4) return false;
  if (tail.some((c) => !isReason(c.text, null))) return false;
  return reading.sentences.slice(1).every((s) => s.clauses.every((c) => isReason(c.text, null)));
}

/** A sentence that stops on a conjunction ("yeah swap it but"): the rest is still to come. A closing "then" ("go on then") is no conjunction. */
function endsOnConjunction(s: MessageReading['sentences'][number]): boolean {
  const last = s.clauses[s.clauses.length - 1];
  const rest = last ? s.text.slice(last.start - s.start + last.text.length).trim() : '';
  return /\p{L}/u.test(rest) && !/^then$/iu.test(rest);
}

/**
 * An answer to an offer that holds the step back: puts it off ("do it tomorrow", "明天再说",
 * "等我看完第七章再说"), takes a yes back ("改吧……算了先别", "Yes — actually, no"), jokes ("sure lol
 * jk"), hedges ("I suppose so?", "idk") or asks back ("你觉得呢？"). "Why not?" agrees.
 */
function answerHolds(reading: MessageReading): boolean {
  const text = withoutPraise(reading.text).replace(/\bwhy\s*not\s*[?？!！]*/giu, 'ok');
  if (/[?？]/.test(text) || lastRetractionEnd(text) >= 0 || VOIDS.test(text)) return true;
  if (reading.sentences.some((s) => trailsOff(s))) return true;
  return reading.sentences.some((s) => s.clauses.some((c) => isHedgedClause(c.text) || HOLD.test(c.text)));
}
/** Not now: later, a day, a condition on something else first. */
const HOLD =
  /\b(?:tomorrow|later|tonight|next week|not (?:just )?yet|not now|first|until|once|after|before|idk|dunno|i suppose|i guess)\b|明天|晚点|回头|以后|再说|等(?:我|你|到|一下|等)|先别|先不|不过|但是|先看|先等/iu;

/**
 * After the LLM router: confirming a next step the previous turn proposed must not inherit
 * that turn's read_only=true, its write_content=false, or the scope it already delivered.
 */
export function applyConfirmationGuard(
  decision: RoutingDecision,
  message: string,
  previous: PreviousTurnFacts | null,
): RoutingDecision {
  if (!previous || !previous.askedQuestion || !isConfirmation(message)) return decision;
  if (decision.source === 'confirm_proposal' || !isOfferQuestion(previous.question)) return decision;
  const step = proposedStep(previous.question, previous.deliveredUnits ?? []);
  const inheritedScope = !!step?.units && !!previous.routing && decision.scope === previous.routing.scope;
  const inheritedReadOnly = decision.read_only && previous.routing?.read_only === true;
  const inheritedNoContent = !decision.write_content && previous.routing?.write_content === false;
  if (!inheritedReadOnly && !inheritedNoContent && !inheritedScope) return decision;
  return {
    ...decision,
    read_only: inheritedReadOnly ? false : decision.read_only,
    write_content: inheritedNoContent ? true : decision.write_content,
    scope: inheritedScope ? formatUnitRange(step!.units!, detectLanguage(step!.question)) : decision.scope,
    notes: [
      ...decision.notes,
      'confirmation of a proposed step: read_only / write_content=false / the delivered scope not inherited',
    ],
  };
}
