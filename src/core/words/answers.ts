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
import { isConfirmation, isUnclearAnswer } from './proposals';
import type { WorkAgent } from '../plans';

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
    /\b(?:edit|revise|polish|fix|tighten|trim|shorten|expand|improve|tweak|rework|change|cut|merge)\b|修改|润色|精简|调整|改|修/iu,
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
  /\b(?:instead|forget (?:it|that|this|these|those|the|about)|never ?mind|nvm|scratch that|before that|change of plan|new topic|let'?s (?:talk|move|switch|do)|skip (?:it|that)|drop (?:it|that))\b|\bfirst\s*[.!]*$|^\s*first\b|算了|别写了|不写了|先别|先不(?!用)|换个|不聊|再说|另外|先(?:帮我|给我|把|写|看|改|审|列|做|出)|还是先/iu;
/** An object of its own: a unit, a file-ish noun, a thing to make. */
const OWN_OBJECT =
  /\b(?:chapter|chapters|ch|episode|prologue|epilogue|outline|character|characters|cast|villain|hero|setting|settings|world|blurb|title|titles|synopsis|scene|sheet|summary|draft|book|novel|story|typos?|notes?|ideas?)\b|第.{1,4}[章集回幕]|章|大纲|人物|角色|反派|设定|世界观|简介|文案|标题|书名|序章|尾声|场景|错别字|笔记|故事|小说|情节|开头|结尾/iu;

/** The message does something other than answer: a change of course, a destructive verb, or a different kind of work with its own object. */
export function isNewInstruction(raw: string, previous: { agent: WorkAgent; readOnly: boolean } | null): boolean {
  const message = straightQuotes(raw);
  if (CHANGE_OF_COURSE.test(message)) return true;
  const actions = actionsOf(message);
  if (actions.includes('destroy')) return true;
  if (actions.length === 0) return false;
  const asked = previous ? routeActions(previous.agent, previous.readOnly) : [];
  // "看第五章吧" answers "想让我看哪一章？"; "写第五章" does not.
  const other = actions.filter((a) => !asked.includes(a));
  return other.length > 0 && (OWN_OBJECT.test(message) || findUnitRefs(message).length > 0);
}

const REFUSAL_ZH =
  /^(?:嗯|哦|呃|额|那|好吧|今天|暂时|目前|现在)?[，,。.…\s]*(?:不(?:太)?(?:好|行|喜欢|需要|想)|还是(?:不要|算了|别)|先别了?|先(?:到这|这样)|就到这|不用了?|先不用了?|不要(?:改|动)了?|不要了?|不了|算了|先算了|不必了?|没必要|先不(?:改|写|动|要)?了?|别(?:改|写|动)了?|暂时不(?:用|要|改)?|不需要|先这样|就这样吧?|不改了?|不用改|先放着|保持原样|维持原样|我?再想想|让我(?:再)?想想|我(?:再)?考虑(?:一下|考虑)|还没想好|不确定|(?:先)?等(?:等|一下|一等|下))/u;
const REFUSAL_EN =
  /^(?:oh|um|hmm|well|actually|i guess|i suppose|maybe|perhaps)?[,.…\s]*(?:no\b|nope\b|nah\b|not (?:right now|now|yet|today|really|this time|for now)\b|no thanks|no thank you|no need\b|don'?t bother|skip (?:it|that)\b|leave it\b|let'?s not\b|i'?d rather (?:you )?(?:not|didn'?t)|i'?ll (?:handle|do|fix) (?:it|that|this)|maybe later\b|later\b|pass\b|i'?m good\b|all good\b|it'?s fine as is|keep it as is|hold on\b|wait\b|let'?s wait\b|let me think\b|i'?ll think about it|give me a (?:sec|second|minute|moment)\b|(?:i'?m )?not sure\b)/iu;

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
