/**
 * Confirming a proposed next step. A short reply to the previous turn's question is one of
 * two things: an answer to a follow-up question (the task is not done) keeps every routing
 * field of the previous turn; a yes to a next step the previous turn offered
 * (「要我继续写第二章吗？」, 「要我帮你改吗？」) is routed as that step, without the previous
 * turn's read_only=true, write_content=false or delivered scope.
 * This module recognises an offer of a next step in the previous answer's closing question,
 * a plain confirmation of it, and the step itself (what to do, on which unit).
 * Pure module: runs inside the workflow.
 */
import { findUnitRefs, formatUnitRange, type UnitKind } from './numerals';
import { straightQuotes } from '../text';
import { TRAILING_OFF } from './utterance';
import { closingWords, endsWithQuestion } from '../model/file-stream';
import { type RoutingDecision, cutScope } from '../plans';

const OFFER_ZH =
  /要不要我|需不需要我|需要我|要我|我可以|我来|是否需要|是否要|可以让我|让我|我帮你|我再|接下来|继续.*吗|开始.*吗/u;
const OFFER_EN =
  /\b(?:shall i|should i|do you want me to|would you like me to|want me to|may i|can i|i can|i could|shall we|should we|ready for me to|how about i|let me know if you(?:'d)? (?:like|want) me to|would you like (?:the|chapter|episode|a|an))\b/iu;
/** Questions that offer a change by themselves ("要这样改吗？", "Apply these fixes?", "Ready for chapter 2?"). */
const OFFER_TAIL =
  /(?:要|需要)(?:这样|这么)?(?:修?改|调整|动手|处理)吗|这样改(?:行|可以|好)?吗|要(?:我)?(?:继续|接着写|写)吗|\b(?:apply (?:these|the|this|those|them|it|that)|ready for|want (?:chapter|the next|me|more|it)|okay to proceed|ok to proceed|good to go)\b/iu;
/** Questions that ask for a yes to a proposal made before them ("建议…。你觉得呢？", "I'd cut it. Sound good?"). */
const AGREE_TAIL =
  /你觉得呢|你看呢|你觉得(?:怎么样|如何|可以吗|行吗|好吗)|怎么样|如何|可以吗|行吗|好吗|好不好|行不行|可不可以|同意吗|合适吗|\b(?:sounds? good|what do you think|thoughts|how does that sound|does that (?:work|sound)|ok(?:ay)? with (?:that|you)|okay|agree|go ahead)\b/iu;
/** Choices and open questions are follow-ups about the current task, not offers ("A还是B？", "which POV?"). */
const CHOICE =
  /还是|或者|或是|哪|什么|怎么(?!样)|如何(?=.)|为什么|多少|\b(?:or|which|whether)\b|^\s*(?:what|how|why|who|where|when)\b(?! do you think| does that)/iu;

/** A thing offered by itself, at the start of the question ("Want a cliffhanger at the end of chapter 6?", "Do you want an epilogue?"). */
const WANT_THING = /^(?:so |then |and )?(?:do you )?want (?:a|an|some)\b/iu;

/** A change put forward in the reply ("建议…", "I'd…", "I suggest…"): agreeing to it is agreeing to an edit. */
const PROPOSAL =
  /建议|我想|我打算|我觉得可以|我可以|可以把|不如|改成|换成|\b(?:i'?d|i would|i suggest|i propose|i recommend|i could|i can|how about|let me|we could|maybe we)\b/iu;

/** The last sentence of the agent's own closing words (the question itself, without the proposal before it, quotations or asides). */
function lastSentence(text: string): string {
  const parts = closingWords(text)
    .split(/(?<=[.!?。！？\n])\s*/u)
    .filter((p) => /[\p{L}\p{N}]/u.test(p));
  return parts[parts.length - 1] ?? '';
}

/** The clause a question ends on ("第一章写完了，接着写第二章？" → "接着写第二章？"). */
const lastClause = (sentence: string): string =>
  sentence
    .split(/[,，;；:：]/u)
    .pop()
    ?.trim() ?? sentence;

/**
 * A yes/no question that opens on the step itself, with at most a linking word before the verb:
 * "接着写第二章？", "Continue with chapter 3?", "Write the next one?", "现在开始润色？".
 */
const STEP_FIRST =
  /^(?:(?:那|那就|就|然后|接下来|接着|再|先|现在|要不|so|then|now|and)\s*)?(?:续写|接着写|继续|写|改|修改|润色|调整|精修|扩写|压缩|审|检查|看看|规划|列|开始|动手|处理|\b(?:write|continue|draft|revise|edit|polish|tighten|review|check|outline|plan|start|proceed|go on|carry on|move on|apply|expand|cut|shorten)\b)/iu;

const PLAN = /大纲|规划|分章|分集|章纲|提纲|\b(?:outline|plan|synopsis|beat sheet)\b/iu;
/** "按大纲继续写" follows the plan: that is writing, not planning. */
const FOLLOWS_PLAN =
  /(?:按|按照|根据|照|依照|\b(?:following|according to|based on|from)\s+(?:the\s+|my\s+|your\s+)?)(?:大纲|规划|章纲|提纲|outline|plan)/iu;
const EDIT =
  /修改|润色|调整|优化|精修|重写|改|修|换|压缩|合并|拆|精简|删减|提前|挪|加(?:一|个|段|点)|补|\b(?:revis|edit|fix|polish|tighten|rewrit|apply|chang|improv|rework|trim|shorten|expand|cut|merg|split|mov|add|replac|swap|compress|condens|convert|rephras|reword|simplif|modernis|moderniz|reorder|rearrang|adjust|smooth|streamlin)\w*|\bmake\b[^?.!]{1,60}?\b(?:less|more)\b|\bmake\b[^?.!]{1,60}?\w+er\b/iu;
const WRITE = /续写|接着写|继续|写|起草|草拟|\b(?:write|continue|draft|start|go on|carry on|keep going)\b/iu;
const REVIEW = /审稿|审|检查|看看|\b(?:review|check|critique|assess|proofread)\b/iu;
/** Making something new to choose from ("要我再出三个开头钩子吗？", "Shall I come up with some names?"). */
const CREATE =
  /出(?:几|一|两|三|四|五|个|些|\d)|想(?:几|一|两|三|个|些)|起(?:几个|个)?名|设计|\b(?:come up with|brainstorm|suggest|pitch|generate)\b/iu;
/** What hooks are made of: a made thing of this kind is the hook designer's. */
const HOOK = /钩子|悬念|开头|\b(?:hooks?|cliffhangers?|openings?|opening lines?)\b/iu;
const NEXT_UNIT = /下一章|下一集|下一回|下一幕|下章|下集|\bnext (?:chapter|episode|act|one|part)\b/iu;

export type ProposedAction = 'plan' | 'edit' | 'write' | 'review' | 'create';

export interface ProposedStep {
  action: ProposedAction;
  /** The unit(s) the step is about ("第二章" → chapter 2), when the offer or the context says. */
  units: { kind: UnitKind; from: number; to: number } | null;
  question: string;
}

/**
 * The previous answer's close offers a next step: its question offers one ("要我帮你改吗？",
 * "Shall I write chapter 2?"), or asks for a yes to a proposal ("建议…。要这样改吗？",
 * "I'd merge them. Okay to proceed?"). A choice or an open question is not an offer.
 */
export function isOfferQuestion(raw: string | null | undefined): boolean {
  if (!raw) return false;
  const question = straightQuotes(raw);
  if (!endsWithQuestion(question)) return false;
  const last = lastSentence(question);
  const tail = OFFER_TAIL.test(last) || (AGREE_TAIL.test(last) && PROPOSAL.test(question));
  if (tail) return !/还是|或者|\bor\b/iu.test(last) || OFFER_EN.test(last);
  if (CHOICE.test(last)) return false;
  // By its form: the agent offering to act ("要我…吗", "Shall I…"), or a yes/no question that opens on the step.
  return (
    OFFER_ZH.test(last) || OFFER_EN.test(last) || WANT_THING.test(last.trim()) || STEP_FIRST.test(lastClause(last))
  );
}

function actionOf(question: string): ProposedAction | null {
  if (PLAN.test(question) && !FOLLOWS_PLAN.test(question)) return 'plan';
  if (EDIT.test(question)) return 'edit';
  if (WRITE.test(question) || NEXT_UNIT.test(question)) return 'write';
  if (REVIEW.test(question)) return 'review';
  if (CREATE.test(question)) return 'create';
  return null;
}

/**
 * The step an offer proposes, or null when the question offers nothing recognisable.
 * `deliveredUnits` are the units the previous turn worked on: "the next chapter" follows them.
 */
export function proposedStep(question: string | null | undefined, deliveredUnits: number[] = []): ProposedStep | null {
  if (!question || !isOfferQuestion(question)) return null;
  // The question's own verb first ("Apply these fixes?"), then the proposal before it; an offer
  // that names only a unit ("Ready for chapter 2?") offers to write it.
  const last = lastSentence(straightQuotes(question));
  // A thing offered for a unit ("Want a cliffhanger at the end of chapter 6?") is added to it.
  const thingForUnit = WANT_THING.test(last.trim()) && findUnitRefs(last).length > 0 ? 'edit' : null;
  const action =
    actionOf(last) ??
    thingForUnit ??
    actionOf(question) ??
    (findUnitRefs(last).length || NEXT_UNIT.test(last) ? 'write' : PROPOSAL.test(question) ? 'edit' : null);
  if (!action) return null;
  // The unit the question itself names ("Chapter 1 is saved. Ready for chapter 2?"), else the proposal's.
  const ref = findUnitRefs(last)[0] ?? findUnitRefs(question)[0];
  let units: ProposedStep['units'] = ref ? { kind: ref.kind, from: ref.from, to: ref.to } : null;
  if (!units && NEXT_UNIT.test(question) && deliveredUnits.length) {
    const next = Math.max(...deliveredUnits) + 1;
    units = {
      kind: /集|episode/iu.test(question) ? 'episode' : /幕|\bact\b/iu.test(question) ? 'act' : 'chapter',
      from: next,
      to: next,
    };
  }
  return { action, units, question };
}

const CONFIRM_TOKENS = [
  // English, longest first (matched with spaces removed).
  'yesplease',
  'pleasedo',
  'goahead',
  'goforit',
  'doit',
  'soundsgood',
  "let'sdoit",
  'letsdoit',
  "let'sgo",
  'letsgo',
  'ofcourse',
  'absolutely',
  'surething',
  'forsure',
  'soundsgreat',
  'lovethat',
  'loveit',
  'goodidea',
  'greatidea',
  'letsdothat',
  "let'sdothat",
  'dothat',
  'dothis',
  'doit',
  'definitely',
  'agreed',
  'whynot',
  'alright',
  'allright',
  'okay',
  'carryon',
  'goon',
  'continue',
  'proceed',
  'perfect',
  'great',
  'please',
  'pls',
  'plz',
  'sure',
  'yeah',
  'yes',
  'yep',
  'yup',
  'fine',
  'right',
  'ok',
  'go',
  'k',
  'y',
  // Chinese.
  '麻烦你了',
  '拜托了',
  '没问题',
  '就这么改',
  '就这么办',
  '就这样',
  '好主意',
  '同意',
  '开始吧',
  '继续吧',
  '可以的',
  '麻烦了',
  '好的',
  '好啊',
  '好呀',
  '好吧',
  // Colloquial "do it" ("整!", "搞吧"): a yes to the step offered.
  '整吧',
  '搞吧',
  '弄吧',
  '整',
  '好滴',
  '好嘞',
  '嗯嗯',
  '可以',
  '行吧',
  '行啊',
  '是的',
  '对的',
  '来吧',
  '写吧',
  '改吧',
  '去吧',
  '继续',
  '要的',
  '需要',
  '当然',
  '那就',
  '好',
  '嗯',
  '行',
  '是',
  '对',
  '要',
  '请',
  '成',
];
/** Thanks only after an agreement: "好的谢谢" confirms, a bare "谢谢" may be a polite no. */
const THANKS = ['thankyou', 'thanks', 'thx', '谢谢你', '谢谢', '辛苦了', '多谢'];
const alt = (tokens: string[]): string => tokens.map((t) => t.replace(/'/g, "'?")).join('|');
const CONFIRM_RE = new RegExp(`^(?:${alt(CONFIRM_TOKENS)})+(?:${alt(THANKS)})*$`, 'u');
const THUMBS = /👍|👌|✅|🆗|🙆/gu;
/** The text with every 👍-like emoji as `word` (the regex stays here: a shared global regex is written to by every use). */
export const thumbsAs = (text: string, word: string): string => text.replace(THUMBS, word);
/** Other emoji are tone, not words ("yes pls 🙏"); a 👎 or ❌ is not agreement. */
export const NEGATIVE_EMOJI = /👎|❌|🚫|🙅|✋|⛔/u;

/**
 * A question back ("ok?", "嗯？" — "huh?" —, "好……吧？") or a trailing off ("嗯……", "yes...") is
 * not a plain yes: this reading approves an author's pending delete and routes a proposed edit,
 * and when the wording is unclear the answer is no and the author is asked. "Why not?" agrees.
 */
const hesitant = (text: string): boolean => /[?？¿]/u.test(text) || TRAILING_OFF.test(text);
const WHY_NOT_QUESTION = /\bwhy\s*not\s*[?？!！]+\s*$/iu;
/** A hedge on its own ("maybe", "I guess", "也许吧", "呃"): neither a yes nor a no. */
const HEDGE =
  /^(?:maybe|perhaps|iguess|isuppose|probably|kinda|sortof|we'?llsee|h+m+|u+m+|u+h+|也许|或许|可能|大概|应该|看情况|呃|额|唔|嗯哼)+(?:吧|把)?$/u;
/** Agreement cut off by its own "but" ("yes but", "好是好，但是"): the rest is still to come. */
const BUT_TAIL = new RegExp(`^(?:${alt(CONFIRM_TOKENS)})+(?:but|however|though|不过|但是|可是|只是|就是)$`, 'u');

/** The words of a short reply, for matching: straight quotes, 👍 as "ok", no spaces, punctuation or other emoji, lower case. */
function replyWords(message: string): string {
  return straightQuotes(message)
    .replace(THUMBS, 'ok')
    .replace(/\p{Extended_Pictographic}/gu, '')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, '');
}

const short = (t: string): boolean => t.length > 0 && Array.from(t).length <= 20;

/** Plain agreement, nothing else: "好的", "行，写吧", "yes", "ok, go", "👍". */
export function isConfirmation(message: string): boolean {
  if (NEGATIVE_EMOJI.test(message)) return false;
  if (hesitant(straightQuotes(message).replace(WHY_NOT_QUESTION, 'why not'))) return false;
  const t = replyWords(message);
  return short(t) && CONFIRM_RE.test(t);
}

/**
 * A reply that is neither a yes nor a no: an agreement asked back or trailing off ("ok?",
 * "嗯……", "好……吧？"), a bare hedge ("maybe", "也许吧") or an agreement cut off by its own "but".
 * Read as a no: nothing is written or deleted on it, and the author is asked again.
 */
export function isUnclearAnswer(message: string): boolean {
  if (isConfirmation(message)) return false;
  const t = replyWords(message);
  if (!short(t)) return false;
  return HEDGE.test(t) || BUT_TAIL.test(t) || (hesitant(message) && CONFIRM_RE.test(t));
}

/** Scope text for a confirmed step: the unit when known, else the offer itself. */
function stepScope(step: ProposedStep, language: 'zh' | 'en'): string {
  if (step.units) return formatUnitRange(step.units, language);
  return cutScope(language === 'zh' ? `作者确认：${step.question}` : `confirmed: ${step.question}`);
}

/**
 * The route of a declined offer ("不用了", "no thanks"): nothing is written. The workflow
 * answers it without a model call.
 */
export function declinedOfferRouting(language: 'zh' | 'en', unclear = false): RoutingDecision {
  if (unclear) {
    const scope = cutScope(
      language === 'zh'
        ? '作者的回答不明确（不是肯定）：先不动，等作者说清楚'
        : "the author's reply was not a clear yes: nothing is written until they say so",
    );
    return {
      ...declinedOfferRouting(language),
      scope,
      notes: ['an unclear reply to the offered step is read as a no: nothing is written'],
    };
  }
  return {
    current_agent: 'writer',
    workflow_plan: 'quick',
    workflow_agents: [],
    write_content: false,
    read_only: true,
    scope: cutScope(language === 'zh' ? '作者谢绝了提议的下一步' : 'the author declined the offered step'),
    clarify_first: false,
    source: 'decline_offer',
    notes: ['the author declined the offered step: nothing is written'],
  };
}

/**
 * The route of a confirmed step: the agent the step needs, and nothing inherited from a
 * read-only or plan-only previous turn.
 */
export function confirmedStepRouting(step: ProposedStep, language: 'zh' | 'en'): RoutingDecision {
  const scope = stepScope(step, language);
  const notes = [
    `confirmation of a proposed next step (${step.action}): read_only / write_content=false / the delivered scope not inherited`,
  ];
  const base = { workflow_agents: [], scope, clarify_first: false, source: 'confirm_proposal' as const, notes };
  switch (step.action) {
    case 'plan':
      return { ...base, current_agent: 'planner', workflow_plan: 'standard', write_content: false, read_only: false };
    case 'create':
      // Options to choose from, not prose: hooks are the hook designer's, anything else the planner's.
      return HOOK.test(step.question)
        ? {
            ...base,
            current_agent: 'hook_designer',
            workflow_plan: 'hook_focus',
            write_content: false,
            read_only: false,
          }
        : { ...base, current_agent: 'planner', workflow_plan: 'standard', write_content: false, read_only: false };
    case 'review':
      return {
        ...base,
        current_agent: 'quality_reviewer',
        workflow_plan: 'review_only',
        write_content: false,
        read_only: true,
      };
    default:
      return { ...base, current_agent: 'writer', workflow_plan: 'quick', write_content: true, read_only: false };
  }
}

/** Proposals in the closing paragraph: list items, or a single trailing offer. */
export function countProposedChanges(text: string): number {
  const paragraphs = text.trim().split(/\n\s*\n/);
  const last = paragraphs.slice(-2).join('\n');
  const items = last.split('\n').filter((l) => /^\s*(?:[-*•]|\d+[.)、]|[①②③④⑤⑥⑦⑧⑨])\s+/.test(l)).length;
  if (items > 0) return items;
  return endsWithQuestion(text) ? 1 : 0;
}
