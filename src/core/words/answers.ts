/**
 * Telling an answer from a new instruction: an answer to the previous turn's question keeps
 * that turn's route, a new instruction does not. After the previous turn asked something, a
 * short message keeps that turn's route only when it answers the question (a choice, a value,
 * a yes or no) and carries no instruction of its own: a work verb with its own object
 * ("写第五章", "review chapter 1 instead"), a change of course ("算了", "forget it",
 * "别写了"), or any delete / rewrite.
 * And after an offer of a next step, a plain "no" declines it: nothing is written.
 * Pure module: runs inside the workflow.
 */
import { findUnitRefs } from './numerals';
import { straightQuotes } from '../text';
import { NEGATIVE_EMOJI, thumbsAs, isConfirmation, isUnclearAnswer, type ProposedStep } from './proposals';
import type { WorkAgent } from '../plans';
import { STEP_VERBS } from './step-verbs';
import { TRAILING_OFF } from './utterance';

/** What a message (or a previous route) is about. */
export type WorkAction = 'write' | 'review' | 'edit' | 'plan' | 'destroy' | 'create';

const ACTIONS: [WorkAction, RegExp][] = [
  [
    'destroy',
    /\b(?:delete|remove|erase|trash|scrap|discard|get rid of|rewrite|redo|start over)\b|删除|删掉|删了|删|去掉|移除|重写|推翻/iu,
  ],
  [
    'plan',
    /\b(?:plan|outline|beat sheet|synopsis|structure|restructure)\b|大纲|细纲|章纲|提纲|规划|框架|结构|分章|分集/iu,
  ],
  [
    'review',
    /\b(?:review|check|critique|assess|proofread|read through|look (?:at|over)|go over)\b|审稿|审|检查|看看|看一下|看下|过一遍|挑(?:一下)?(?:错|毛病|问题)|错别字|评估|点评/iu,
  ],
  [
    'edit',
    /\b(?:edit|revise|polish|fix|tighten|trim|shorten|expand|improve|tweak|rework|change|cut|merge|update|amend|correct)\b|修改|润色|精简|调整|改|修|更新|补/iu,
  ],
  ['write', /\b(?:write|draft|continue|compose|finish)\b|续写|接着写|写/iu],
  [
    'create',
    /\b(?:make|create|give me|brainstorm|come up with|generate|suggest|invent|design)\b|想(?:几个|一个|些)|起(?:个|几个)?名|出(?:个|几个|一份)|做(?:个|一份|一张)|设计|生成|列(?:个|一下|出)/iu,
  ],
];

/** The kinds of work a message asks for, in the order above. */
export function actionsOf(message: string): WorkAction[] {
  return ACTIONS.filter(([, re]) => re.test(message)).map(([a]) => a);
}

/** The work a previous route was doing: a question it asked is about that work. */
export function routeActions(agent: WorkAgent, readOnly: boolean): WorkAction[] {
  switch (agent) {
    case 'quality_reviewer':
      return ['review'];
    case 'planner':
      return ['plan'];
    case 'hook_designer':
      return ['plan', 'write', 'edit'];
    default:
      return readOnly ? ['write', 'edit', 'review'] : ['write', 'edit'];
  }
}

/** Words that turn away from the question asked: what follows is a new request. */
const CHANGE_OF_COURSE =
  /\b(?:instead|forget (?:it|that|this|these|those|the|about)|never ?mind|nvm|scratch that|before that|change of plan|new topic|let'?s (?:talk|move|switch|do)|skip (?:it|that)|drop (?:it|that))\b|\bfirst\s*[.!]*$|^\s*first\b|算了|别写了|不写了|先别|先不(?!用)|换个|不聊|再说|另外|先(?:帮我|给我|把|写|看|改|审|列|做|出)|还是先|(?:先)?放一放|先放放|先搁(?:着|一搁|一下)|\b(?:park|set|put) (?:that|this|it) aside\b|\bpark (?:that|this|it)\b/iu;
/** An object of its own: a unit, a file-ish noun, a thing to make. */
const OWN_OBJECT =
  /\b(?:chapter|chapters|ch|episode|prologue|epilogue|outline|character|characters|cast|villain|hero|setting|settings|world|blurb|title|titles|synopsis|scene|sheet|summary|draft|book|novel|story|typos?|notes?|ideas?)\b|第.{1,4}[章集回幕]|章|大纲|人物|角色|反派|设定|世界观|简介|文案|标题|书名|序章|尾声|场景|错别字|笔记|故事|小说|情节|开头|结尾|体系|设定集|年表|附录|后记|前言|导言|资料|文档/iu;
/** A name in capitals after "the" ("update the Skill System"): a file of the project, an object of its own. */
const NAMED_OBJECT = /\bthe\s+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*/u;

/** The question asks which unit ("先改哪一章？", "Which chapter should I check first?"): a unit in the reply answers it. */
const ASKS_FOR_UNIT = /哪(?:一)?[章集回幕]|第几[章集回幕]|哪个章节|\bwhich (?:chapter|episode|act|part)s?\b/iu;

/** A unit the reply names that the question did not, when the question did not ask for one. */
function namesOtherUnit(message: string, question: string): boolean {
  if (ASKS_FOR_UNIT.test(question)) return false;
  const asked = findUnitRefs(question);
  return findUnitRefs(message).some((u) => !asked.some((a) => a.kind === u.kind && a.from === u.from && a.to === u.to));
}

/**
 * The message does something other than answer: a change of course, a destructive verb, work on
 * a unit the question was not about ("晚上。然后顺便把第十章的开头也写了" after a question about
 * chapter 9), or a different kind of work with its own object.
 */
export function isNewInstruction(
  raw: string,
  previous: { agent: WorkAgent; readOnly: boolean; question?: string | null } | null,
): boolean {
  const message = straightQuotes(raw);
  if (CHANGE_OF_COURSE.test(message)) return true;
  const actions = actionsOf(message);
  if (actions.includes('destroy')) return true;
  if (actions.length === 0) return false;
  // Work of the kind the question was about is still new when it is on another unit: the reply
  // answers, then instructs ("none of them write chapter 6 now").
  if (previous?.question && namesOtherUnit(message, straightQuotes(previous.question))) return true;
  const asked = previous ? routeActions(previous.agent, previous.readOnly) : [];
  // "看第五章吧" answers "想让我看哪一章？"; "写第五章" does not.
  const other = actions.filter((a) => !asked.includes(a));
  return (
    other.length > 0 && (OWN_OBJECT.test(message) || NAMED_OBJECT.test(message) || findUnitRefs(message).length > 0)
  );
}

const REFUSAL_ZH =
  /^(?:嗯|哦|呃|额|那|好吧|今天|暂时|目前|现在)?[，,。.…\s]*(?:不(?:太)?(?:好|行|喜欢|需要|想)|还是(?:不要|算了|别)|先别了?|先(?:到这|这样)|就到这|不用了?|先不用了?|不要(?:改|动)了?|不要了?|不了|算了|先算了|不必了?|没必要|先不(?:改|写|动|要)?了?|别(?:改|写|动)了?|暂时不(?:用|要|改)?|不需要|先这样|就这样吧?|不改了?|不用改|先放着|保持原样|维持原样|我?再想想|让我(?:再)?想想|我(?:再)?考虑(?:一下|考虑)|还没想好|不确定|(?:先)?等(?:等|一下|一等|下))/u;
const REFUSAL_EN =
  /^(?:oh|um|hmm|well|actually|i guess|i suppose|maybe|perhaps)?[,.…\s]*(?:no\b|nope\b|nah\b|not (?:right now|now|yet|today|really|this time|for now)\b|no thanks|no thank you|no need\b|don'?t bother|skip (?:it|that)\b|leave it\b|let'?s not\b|i'?d rather (?:you )?(?:not|didn'?t)|i'?ll (?:handle|do|fix) (?:it|that|this)|maybe later\b|later\b|pass\b|i'?m good\b|all good\b|it'?s fine as is|keep it as is|hold on\b|wait\b|let'?s wait\b|let me (?:think|sleep on it|mull it over)\b|i'?ll think about it|give me a (?:sec|second|minute|moment)\b|(?:i'?m )?not sure\b)/iu;

/** A plain "no" to an offered step ("不用了", "先不用", "no thanks", "not now", "no, leave it"). */
export function isRefusal(message: string): boolean {
  const t = straightQuotes(message).trim();
  if (!t || Array.from(t).length > 80) return false;
  if (!REFUSAL_ZH.test(t) && !REFUSAL_EN.test(t)) return false;
  // "no, write chapter 6 instead" declines and asks for something else: that goes to the router.
  // What the rest says not to do ("先别改", "don't change it") is part of the no.
  const rest = t
    .replace(REFUSAL_ZH, '')
    .replace(REFUSAL_EN, '')
    .replace(/(?:别|不要|不用|不必|不|don'?t|do not|no need to|never)\s*\S{1,12}/giu, ' ');
  return actionsOf(rest).length === 0 || /\b(?:leave|keep)\b|别动|不用动|保持/iu.test(rest);
}

export type Decision = 'approve' | 'deny';

/**
 * How the session's next message answers a pending approval (an author file to delete or
 * rewrite): yes, no, or not at all (a new request: a no, then the request). Only a plain yes
 * approves: "ok?", "嗯……", "maybe" or "hold on" is a no.
 */
export function decisionInMessage(message: string): Decision | 'new_request' {
  if (isConfirmation(message)) return 'approve';
  if (isRefusal(message) || isUnclearAnswer(message)) return 'deny';
  return 'new_request';
}

/** Praise of the agent, and laughter only right after it: a laugh on its own after a yes may be a joke. */
const PRAISE =
  "你?(?:太|真|最)?懂(?:我)?了?|你?(?:太|真|最)棒了?|太好了|好耶|爱你|么么哒?|太贴心了|you'?re\\s*the\\s*best|you\\s*rock|you'?re\\s*a\\s*(?:star|gem|legend)|love\\s*(?:it|you)|legend|awesome|amazing|nice";
const LAUGH = '哈{2,}|(?:ha){2,}h*|嘿嘿|嘻嘻|lol';
const PRAISE_LAUGHING = new RegExp(`(?:${PRAISE})\\s*(?:${LAUGH})`, 'giu');

/** The text without praise that laughs ("亲你太懂了哈哈哈"): what is left is read for jokes and take-backs. */
export const withoutPraise = (text: string): string => text.replace(PRAISE_LAUGHING, ' ');

/**
 * What may follow a yes or an echo in its clause: particles, addressing, thanking or praising the
 * agent ("老板辛苦啦", "亲你太懂了哈哈哈", "thanks!"), "then" / "now" / "please". Not 了 or 啦 on their
 * own: "改了" reports as often as it agrees.
 */
const TAIL = new RegExp(
  `^(?:吧|啊|呀|嘛|呗|哦|喔|~|～|亲|宝宝?|亲爱的|老板|老师|大大|dear|boss|mate|谢谢你?|谢谢亲|谢啦|多谢|感谢|辛苦了|辛苦啦|辛苦|麻烦了|麻烦你了|拜托了|thanks|thankyou|thx|ty|cheers|then|now|please|pls|plz|(?:${PRAISE})(?:${LAUGH})?)+$`,
  'iu',
);
/** The pieces a reply is read in: English words, Han characters one by one, numbers. */
const PIECE = /[a-z]+(?:'[a-z]+)*|\p{Script=Han}|\d+/gu;
/** Saying no, or who does it ("我改", "I'll cut it"): an echo of the offer never holds these. */
const NOT_AN_ECHO =
  /[不没别勿莫甭未无非我你他她删]|自己|重写|\b(?:no|not|never|nothing|without|don'?t|i|i'm|i'll|i've|me|my|we|us|our|you|your|delete|remove|rewrite|redo|scrap)\b|n't\b/iu;
/** The offer's own frame ("要不要我", "吗"): the words of the step are what is left. */
const OFFER_FRAME_ZH = /要不要我?|需不需要我?|需要我|要我|我可以|我来|是否需要|是否要|可以让我|让我|我帮你|吗|呢|么/gu;
/** The verb right after an English offer's frame ("Shall I add …", "Want me to swap …"). */
const OFFER_VERB_EN =
  /\b(?:shall i|should i|do you want me to|would you like me to|want me to|may i|can i|i can|i could|shall we|should we|how about i|ready for me to|like me to|let me)\s+([a-z]+)/iu;
/** Chinese verbs of a step: one of them, repeated from the offer, makes an echo an order for it. */
const ZH_STEP_VERB = /[写改修润排列加补换调扩缩压拆合审查看出想起做弄理定拟续挪移砍剪统]/u;
const POINTERS = new Set(['it', 'them', 'that', 'this', 'those', 'these']);

export type OfferReply = 'yes' | 'courtesy' | 'echo';

/**
 * What one clause of a reply to an offered step is: a plain yes ("好", "yes pls"), only courtesy
 * ("老板辛苦啦", "thanks!"), or an echo — the offer's own verb and words again, with or without a yes
 * before them ("排吧" after "要我把大纲排出来吗？", "对，改冷一点" after "要我把师姐的对白改得冷一点吗？",
 * "yeah swap it" after "Want me to swap the POV in chapter 2 to Eli?"). Null for anything that adds a
 * word of its own, says no, or says who does it: that is no plain yes, and the router reads it.
 */
export function offerReplyOf(clause: string, step: ProposedStep): OfferReply | null {
  // Asked back or trailing off ("add it?", "改吧……"), a clause is no plain yes whatever its words.
  if (NEGATIVE_EMOJI.test(clause) || /[?？¿]/u.test(clause) || TRAILING_OFF.test(clause)) return null;
  const text = thumbsAs(straightQuotes(clause), ' ok ').toLowerCase();
  const pieces = [...text.matchAll(PIECE)];
  if (!pieces.length) return 'courtesy';
  const words = pieces.map((m) => m[0]);
  let yes = words.length;
  while (yes > 0 && !isConfirmation(words.slice(0, yes).join(' '))) yes--;
  let tail = yes;
  while (tail < words.length && !TAIL.test(words.slice(tail).join(''))) tail++;
  if (tail === yes) return yes > 0 ? 'yes' : tail < words.length ? 'courtesy' : null;
  const start = pieces[yes]!.index;
  const end = pieces[tail - 1]!.index + words[tail - 1]!.length;
  return echoesOffer(text.slice(start, end), step) ? 'echo' : null;
}

/** Every word of `said` is the offer's own (its unit, its words, a pointer back at its object), the offer's verb among them. */
function echoesOffer(said: string, step: ProposedStep): boolean {
  if (NOT_AN_ECHO.test(said)) return false;
  const refs = findUnitRefs(said);
  const u = step.units;
  if (refs.some((r) => !u || r.kind !== u.kind || r.from !== u.from || r.to !== u.to)) return false;
  let rest = said;
  for (const r of [...refs].reverse()) rest = rest.slice(0, r.start) + ' ' + rest.slice(r.end);
  const question = straightQuotes(step.question).toLowerCase();
  const offerWords = new Set(question.match(/[a-z]+(?:'[a-z]+)*|\d+/gu) ?? []);
  const verbs = offerVerbsEn(question);
  let verb = false;
  for (const w of rest.match(/[a-z]+(?:'[a-z]+)*|\d+/gu) ?? []) {
    if (!offerWords.has(w) && !POINTERS.has(w)) return false;
    if (verbs.includes(w)) verb = true;
  }
  const offerHan = question.replace(OFFER_FRAME_ZH, '|');
  for (const run of rest.match(/\p{Script=Han}+/gu) ?? []) {
    const cover = coverBy(run, offerHan);
    if (!cover || cover.length > 3) return false;
    if (cover.some((p) => ZH_STEP_VERB.test(p))) verb = true;
  }
  return verb;
}

/** The verb of an English offer: after its frame ("Shall I add …"), or opening its last sentence ("Apply these fixes?"). */
function offerVerbsEn(question: string): string[] {
  const last =
    question
      .split(/[.!?。！？]\s*/u)
      .filter((p) => /[a-z]/u.test(p))
      .pop() ?? '';
  const first = /^[^a-z]*([a-z]+)/u.exec(last)?.[1];
  const stepVerbs: readonly string[] = Object.values(STEP_VERBS).flat();
  return [OFFER_VERB_EN.exec(question)?.[1], first && stepVerbs.includes(first) ? first : undefined].filter(
    (v): v is string => !!v,
  );
}

/** `run` cut into the fewest pieces that each occur in `offer` (longest first), or null when it cannot be. */
function coverBy(run: string, offer: string): string[] | null {
  const out: string[] = [];
  for (let i = 0; i < run.length;) {
    let j = run.length;
    while (j > i && !offer.includes(run.slice(i, j))) j--;
    if (j === i) return null;
    out.push(run.slice(i, j));
    i = j;
  }
  return out;
}
