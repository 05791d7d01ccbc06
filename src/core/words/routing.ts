/**
 * Deterministic pre-routing, run before any model call. When a rule fires, the router
 * model is not called. Order matters: the vague-edit check comes before inheriting the
 * previous route.
 * Pure module: runs inside the workflow.
 */
import type { TurnStatus } from '../domain';
import { findLengthMentions, formatUnitRange } from './numerals';
import { detectLanguage } from '../text';
import { accountFor, stepOrderOf } from './orders';
import { VOIDS } from './order-words';
import { isHedgedClause, lastRetractionEnd, trailsOff } from './utterance';
import type { MessageReading } from './reading';
import { type RoutingDecision, type WorkAgent } from '../plans';
import { isNewInstruction, isRefusal, offerReplyOf, withoutPraise } from './answers';
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

/** Verbs of an edit that may say nothing of what to change. */
const VAGUE_VERBS = [
  'polish',
  'improve',
  'edit',
  'fix',
  'refine',
  'tweak',
  'rework',
  'revise',
  'enhance',
  'optimise',
  'optimize',
  'touch up',
  'clean up',
  'spruce up',
  'spice up',
  'jazz up',
  'punch up',
  'make',
  'give',
  'work on',
  'better',
  'clean',
  'touch',
  'spice',
  'spruce',
  'jazz',
  'smooth out',
  '让它',
  '优化',
  '润色',
  '修改',
  '完善',
  '调整',
  '打磨',
  '提升',
  '改进',
  '美化',
  '精修',
  '修一修',
  '修修',
  '改一改',
  '改改',
  '改',
  '修',
  '弄',
  '搞',
  '润',
  '改善',
  '加工',
  '弄弄',
  '润润',
];
/** Which text: pointing, a unit, the chapter or the whole — never what in it. */
const VAGUE_OBJECTS = [
  'it',
  'this',
  'that',
  'the text',
  'the chapter',
  'this chapter',
  'that chapter',
  'the draft',
  'the story',
  'the writing',
  'the prose',
  'things',
  'everything',
  'the whole thing',
  'the whole chapter',
  'the book',
  'this part',
  'this bit',
  'the piece',
  'the scene',
  'this scene',
  'prologue',
  'epilogue',
  'the prologue',
  'the epilogue',
  'chapter',
  '序章',
  '尾声',
  '楔子',
  '番外',
  '开篇',
  '这章',
  '这一章',
  '本章',
  '这段',
  '这一段',
  '这部分',
  '全文',
  '整体',
  '整篇',
  '全篇',
  '稿子',
  '文章',
  '文字',
  '内容',
  '它',
  '这个',
  '这篇',
  '这一版',
  '这版',
  '这',
  '文笔',
];
/**
 * How much and how good, courtesy, particles, interjections, and a feeling or complaint about the
 * text ("感觉怪怪的", "it's just off", "不太满意"): they say how it feels, not what to change.
 */
const VAGUE_FILLER = [
  '宝',
  '宝宝',
  '亲',
  '感觉',
  '怪怪的',
  '不对',
  '不太对',
  '不对劲',
  '不满意',
  '不太满意',
  '别扭',
  '不顺',
  '没感觉',
  '好看点',
  '更好看点',
  "it's",
  'its',
  'off',
  'just off',
  'weird',
  'not working',
  "isn't working",
  'needs work',
  'needs some work',
  'needs a little work',
  'needs love',
  'needs some love',
  'needs attention',
  'needs help',
  'better',
  'nicer',
  'good',
  'great',
  'stronger',
  'more polished',
  'polished',
  'a bit',
  'a little bit',
  'a little',
  'somewhat',
  'some',
  'slightly',
  'more',
  'again',
  'up',
  'overall',
  'please',
  'pls',
  'plz',
  'for me',
  'can you',
  'could you',
  'would you',
  'help me',
  'just',
  'maybe',
  'kinda',
  'sort of',
  'thanks',
  'thank you',
  'quality',
  'the quality',
  'of',
  'a',
  'an',
  'the',
  'one more time',
  'once more',
  'flow',
  'flows',
  'punch',
  'punchier',
  'pop',
  'engaging',
  'compelling',
  'interesting',
  'readable',
  'hmm',
  'hm',
  'um',
  'uh',
  'ok',
  'okay',
  'so',
  'well',
  'u',
  'can u',
  'could u',
  'would u',
  'pretty',
  'real',
  'really',
  'lol',
  'ty',
  'thx',
  'ta',
  'eh',
  'meh',
  'another pass',
  'a pass',
  'another go',
  'a go',
  'have another go',
  'another look',
  'take another pass at',
  'have',
  'not quite there yet',
  'feels off',
  'not great',
  'could be stronger',
  'would you mind',
  'it could be',
  '重新',
  '不太行',
  '不行',
  '差点意思',
  '还差点意思',
  '不够好',
  '一般般',
  '总觉得',
  '吸引人',
  '高级',
  '流畅',
  '出彩',
  '有意思',
  '好读',
  '更好看',
  '更好',
  '好一点',
  '好一些',
  '好些',
  '好点',
  '好看',
  '精彩',
  '漂亮',
  '完美',
  '一点',
  '一些',
  '一下',
  '一遍',
  '一番',
  '再',
  '更',
  '好好',
  '请',
  '帮我',
  '帮忙',
  '麻烦',
  '你',
  '吧',
  '呢',
  '哈',
  '啊',
  '呀',
  '好吗',
  '可以吗',
  '嗯',
  '下',
  '得',
  '的',
  '把',
  '给',
  '让',
  '质量',
  '水平',
  '地',
  '些',
  '点',
  '呗',
  '哦',
  '嘛',
  '好',
  '呃',
  '额',
  '唔',
  '能',
  '能不能',
  '可以',
  '帮',
  '我',
];

/**
 * A request to edit that does not say what to change ("polish it", "改得更好一点", "帮忙润色下呗",
 * "hmm. improve it", "make chapter 2 better"), read by its structure: every word is an edit
 * verb, the text it is about (pointing, a unit, "the chapter") or how much / how good, and at
 * least one is the verb. A word that names a part or a direction ("tighten the dialogue in
 * chapter 2", "把第三章改短") makes it specific: any word the structure does not know does.
 */
export function isVagueEditRequest(reading: MessageReading): boolean {
  if (reading.text.trim().length === 0 || Array.from(reading.text.trim()).length > 60) return false;
  let verbs = 0;
  for (const clause of reading.sentences.flatMap((s) => s.clauses)) {
    const counts = accountFor(
      { ...clause, words: clause.words.filter((w) => w.kind !== 'unit') },
      { verb: VAGUE_VERBS, object: VAGUE_OBJECTS, filler: VAGUE_FILLER },
    );
    if (!counts) return false;
    verbs += counts.verb!;
  }
  return verbs > 0;
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

/**
 * Noise: a message with no letter or digit in it ("???", "…", "。。。", empty) is not a
 * request. A thumbs-up is agreement, not noise.
 */
export function isNoiseMessage(message: string): boolean {
  if (isConfirmation(message)) return false;
  return !/[\p{L}\p{N}]/u.test(message);
}

const PLAN_NOUN =
  /\b(?:outline|outlines|plan|plot|beat sheet|synopsis|structure|chapter breakdown|breakdown|story arc|plot arc|roadmap)\b|大纲|细纲|章纲|提纲|规划|框架|结构|梗概|故事线|走向|情节安排/iu;
const MAKE_PLAN =
  /\b(?:plan|outline|map out|sketch|draft|make|create|write|give me|come up with|build|design|put together|redo|rework|restructure|need|want|do)\b|列|做|写|出|搭|排|给我|规划|设计|制定|安排|梳理|拟|定|重做|弄|来/iu;
/** The plan itself is the request: "plan a 30-chapter mystery", "break it down into chapters", "分章", "章纲". */
const PLAN_ITSELF =
  /\bplan (?:out |the |a |an |my |our )|\boutline (?:the|a|an|my|our)\b|break (?:it )?down into (?:chapters|episodes)|chapter[- ]by[- ]chapter|分章|分集|章纲|(?:重新|帮我|给我|先)规划|规划(?:一下|下)/iu;
/** Talking about a plan, following it, saying it is done or leaving it alone is not asking for one. */
const NOT_A_PLAN_REQUEST =
  /大纲(?:已经|早就|都)?(?:写|列|做|定|弄|改|排|搞)(?:好|完)了?|\b(?:outline|plan)(?:'s| is| has been) (?:done|fixed|ready|finished)\b|不需要大纲|不用大纲|不要大纲|大纲(?:挺好|很好|不错|没问题)|\b(?:no need for (?:a |an |one|the )|don'?t need (?:a |an |the )?(?:outline|plan)|(?:outline|plan) (?:looks|was|is) (?:good|great|excellent|fine)|already (?:drafted|have|wrote|written) (?:my |an? )?(?:own )?(?:outline|plan))|聊聊|聊一聊|讨论|谈谈|怎么看|你觉得|觉得|看看|看一下|检查|对不上|有没有问题|满意|(?:按照?|根据|照着|依照)(?:原来的|之前的|现在的|现有的|我的)?(?:大纲|规划|计划|章纲|细纲|提纲)|大纲里|大纲上|不用改|不要改|别动|不用动|不改|挺好|\b(?:what do you think|thoughts on|opinion|feedback|is my|does my|are my|review|check|against|look at|printed|talk about|discuss|make sense|(?:does|do|is|are) (?:the|my|our|this) (?:outline|plan|structure|plot)|follow(?:ing)?|according to|based on|per the|says|said|don'?t touch|leave the|ignore|older|newer)\b/iu;

/** Whether the author asked for a plan (outline, chapter breakdown) to be made or remade, not a chat about one. */
export function requestAsksForPlan(message: string): boolean {
  if (NOT_A_PLAN_REQUEST.test(message)) return false;
  return PLAN_ITSELF.test(message) || (PLAN_NOUN.test(message) && MAKE_PLAN.test(message.replace(PLAN_NOUN, ' ')));
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
    if (isRefusal(message)) return declinedOfferRouting(detectLanguage(previous.question ?? message));
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
    isShortAnswer(message) &&
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
