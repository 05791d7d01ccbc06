/**
 * The words the author-scope rules read (author-scope.ts): delete / rewrite verbs, negations,
 * references that are models, places or parts rather than targets, reports of work done,
 * pointing, and what may stand around a verb and its object. Constants only; pure module.
 */
// Longest alternatives first: "重写" must win over "写", "删除" over "删".
export const VERB_RE = new RegExp(
  [
    String.raw`(?<rewrite>\b(?:rewrite|re-write|rewirte|rewite|overwrite|redo|re-do|start(?=[^.,;!?]{0,40}\bover\b)|write(?=[^.,;!?]{0,40}\b(?:from scratch|again|anew)\b))\b|整份重写|全部重写|整章重写|推翻重写|推倒重来|推翻重来|废了重写|从头(?:开始|再)?(?:重新)?写|从头重写|重新写|重写|覆盖|重做|重来)`,
    String.raw`(?<delete>\b(?:delete|delte|deleet|delet|dlete|remove|remvoe|erase|trash|discard|scrap|drop|get rid of|bin|toss|nuke|ditch|junk|axe|throw (?:it |them )?(?:out|away)|dump|wipe|purge)\b|删除|删掉|删了|删去|删|去掉|移除|扔掉|扔了|丢掉|丢了|清除|砍掉|干掉|作废|拿掉)`,
    String.raw`(?<keep>\b(?:keep|leave|retain|preserve|spare|except|but not|other than|stays?|remains?|untouched)\b|保留|留着|留下|别动|不动|别碰|不要动|除了|除)`,
    String.raw`(?<other>\b(?:write|edit|polish|revise|fix|improve|tighten|review|read|check|look at|expand|shorten|continue|change|tweak|rework|trim|cut|merge|move|rename|add|update|outline|plan|draft|finish)\b|续写|扩写|缩写|改写|修改|润色|优化|检查|合并|移到|改名|写|改|看|读|审|加|补)`,
  ].join('|'),
  'giu',
);
/** A negation right before a verb turns it into "keep" ("don't delete", "不要删"). */
export const NEGATION_BEFORE = /(?:\b(?:don'?t|do not|never|not|no need to|without|stop)\s+(?:\w+\s+)?|不要|不用|不必|不需要|无需|别|勿|不)\s*$/iu;
/** A negation right before the file reference ("not chapter 3", "不包括第3章"). */
export const NEGATED_REF = /(?:\b(?:not|never|no)\s+(?:the\s+)?|不包括|不含|不是|不要|别)\s*$/iu;
/** The file is the model to follow, not the target. */
export const REFERENCE_BEFORE =
  /(?:\b(?:like|as in|per|based on|according to|consistent with|in line with|in keeping with|match(?:es|ing)?|follow(?:s|ing)?|the style of|modell?ed on|using|use|after|than|similar to|same as|with|against|into|to|towards?|onto)\s+(?:the\s+|my\s+)?|以|按|按照|参考|参照|依照|根据|仿照|对照|照着|比照|借鉴|像|用|跟着|对齐)\s*$/iu;
export const REFERENCE_AFTER = /^(?:\s*(?:为准|为参考|为标准|为蓝本|为范本|为例|那样|一样|的风格|的写法|的语气|的文风)|'s\s+(?:style|tone|voice|pacing)|\s+as (?:the |a )?(?:reference|model|template|baseline|guide))/iu;
/** "和第3章保持统一": 和/跟/与/同 make a reference only before a word of agreement. */
export const AGREE_BEFORE = /(?:和|跟|与|同)\s*$/u;
export const AGREE_AFTER = /^\s*(?:的)?\s*(?:保持|一致|统一|一样|相同|类似|对齐|呼应|衔接|接上)/u;
/** The file is where something changes or a part of another file ("the ending of chapter 3", "大纲里的第三章"). */
export const LOCATION_BEFORE =
  /(?:\b(?:(?<!\brid )of|from|in|inside|within|out of|across|throughout)\s+(?:the\s+|my\s+)?|(?<!已有|已经有|现有|原有|原来|旧|现在|之前|以前|当前|目前)的|里|中|之)\s*$/iu;
/**
 * After the object, how it is to be done or what it should follow: the object ends there
 * ("rewrite chapter 5 to match chapter 3", "redo chapter 2 from scratch", "in the style of").
 */
export const MANNER_AFTER =
  /^\s+(?:to match|to fit|like|in the style of|in (?:the |a )?(?:same )?(?:style|tone|voice|manner|spirit)\b|in \S+(?:'s|’s) (?:style|tone|voice)|based on|using|with|so (?:that|it)|to (?:make|be|read|sound|fit|follow|mirror|keep)|following|according to|per|as (?:a|the)|from (?:scratch|zero|nothing|the top|the beginning|the start|the ground up)|but|except)\b/iu;
/** Where the reference is followed by a part of it ("chapter 3's opening", "第三章第二段", "from the outline"). */
export const PART_AFTER = new RegExp(
  [
    String.raw`^\s*(?:'s|’s|s'|’)`,
    String.raw`^\s+(?:of|in|inside|within|into|across)\b`,
    String.raw`^\s+from\b(?!\s+(?:the\s+|my\s+|our\s+|this\s+)?(?:project|book|manuscript|novel|story|folder|files|draft|list|series|workspace)\b)`,
    String.raw`^\s+(?:opening|ending|beginning|intro|introduction|end|start|middle|part|parts|section|sections|scene|scenes|paragraph|paragraphs|para|line|lines|sentence|sentences|page|pages|half|bit|bits|dialogue|dialog|description|flashback|backstory|subplot|title|heading|summary|text|content|contents|words|entry|entries|notes?|details?)\b`,
    String.raw`^\s*(?:的(?!文件)|里|中|内|之中|当中|第\s*\S{1,3}\s*[段节句场幕页行部]|开头|结尾|结局|末尾|最后|前半|后半|中间|部分|[段句节场]|那段|这段|那一段|这一段|那场|这场|对话|描写|情节|片段|标题|内容|正文|文字|前面|后面|开篇|高潮|设定|条目)`,
  ].join('|'),
  'iu',
);
/** The clause reports work as done: what it names is not a target ("第3章改好了", "chapter 3 is done"). */
export const DONE = /(?<!就)好了|完了|已经(?!有)|已(?![经有])|写完|改完|\b(?:done|finished|already|i've|i have|i rewrote|i deleted|i removed)\b/iu;
/** The name goes on past the title ("Notes 2" after "Notes", "Anna Marsh" after "Anna", "林夏雪" after "林夏"): another name. */
export const NAME_CONTINUES = /^(?:\s*[0-9]|\s+[A-Z][a-z]|[\u4e00-\u9fff](?<![的是也都就太很挺不没和与及跟了吧啊呢吗写改删这那已还再被真好]))/u;
/** Pointing at a file: the open one, or the one the message just named. */
export const POINTING = /\b(?:this|it|that|them|those|these|current)\b|这|它|此|本章|本文|当前/iu;

// What may stand around a verb and its object without changing who is told to do what.
export const EN_LEAD =
  /^(?:\s|[,.!:;"'“”‘’*~-])*(?:(?:please|pls|plz|kindly|just|ok|okay|so|now|also|then|and|yes|yeah|yep|yup|sure|alright|all right|right|fine|go ahead and|go ahead|go and|let'?s|let us|i want you to|i need you to|i'?d like you to|i would like you to|you can|feel free to|actually|honestly|ugh|hey|hi|well|oh|finally|first|next|lastly|simply|quickly|definitely|really|good|great|thanks|hmm|ah|btw|by the way|perfect|cool)\b(?:\s|[,.!:;"'“”‘’*~-])*)+/iu;
export const ZH_LEAD =
  /^(?:\s|[,.!:;"'“”‘’*~，。！：；])*(?:(?:确认|请你|请|麻烦你|麻烦|你帮我|帮我|帮忙|你来|你给我|给我|我要你|我需要你|直接|就把|就|那就|那|好的|好吧|好|行吧|行|嗯嗯|嗯|对了|对|先|也|都|全部|统统|干脆|索性|然后|还有|另外|顺便|顺手|赶紧|快|一起|一并|全都|还是|再|哦|噢|啊|呃|嘿|ok|OK|把|将|整个|整章|全部|完整地|完整|彻底|统统)(?:\s|[,.!:;"'“”‘’*~，。！：；])*)+/u;
export const EN_FILLER =
  /\b(?:the|my|our|your|this|that|these|those|whole|entire|old|current|existing|original|full|complete|file|files|called|named|titled|both|all of|also|too|please|pls|plz|now|entirely|completely|altogether|fully|as well|for me|for good|permanently|thanks|thank you|thx|asap|right now|right away|immediately|outright|totally|okay|ok|already|chapters?|episodes?|and|or|&|yes|just|two|three|over|again)\b|\p{Extended_Pictographic}/giu;
export const ZH_FILLER =
  /(?:这|那)?(?:两|几|三)个文件|一遍|掉|了|把|将|已有的|已经有的|现有的|现在的|原来的|旧的|整个|整章|这个文件|的文件|文件|这个|那个|这份|那份|这一章|这章|原|名为|叫做|叫|和|与|及|跟|以及|还有|全部|一下|给我|帮我|请|麻烦|吧|啊|呀|哈|嘛|啦|呗|哦|喔|也|都|就行|就好|即可|就可以|统统|一起|一并|直接|全都|谢谢|辛苦|吧|好吗/gu;
/** A reference list: the joiners between file references ("chapter 3 and 4", "第三章、第四章"). */
export const JOIN = /^\s*(?:,|，|、|&|\band\b|\bor\b|和|与|及|跟|以及|还有|或者?|还是)\s*(?:(?:the|my|our|this|that)\s+)?/iu;
/** "chapter 1 or chapter 3", "第一章还是第三章": the author has not chosen, so neither is asked for. */
export const EITHER = /(?:\bor\b|\beither\b|或者?|还是)/iu;
/** Separators that let a clause of bare references share its neighbour's verb. */
export const LIST_SEPS = [',', '，', '、'];
/** "删了" / "扔了" read as an order only with 把 or a closing 吧 ("把第三章删了", "删了吧"); "我删了第三章" reports. */
export const PERFECTIVE = /^(?:删了|扔了|丢了)$/u;
