/**
 * The words of the grammar of orders (core/orders.ts): everything that may stand in a clause
 * that authorises a whole-file delete or rewrite or a job command. A word that is in none of
 * these lists makes the clause something other than an order. Phrases are matched against
 * whole words (a Chinese phrase against the segmenter's words joined, a multi-word English
 * phrase against consecutive words), case-insensitively. Constants only; pure module.
 */

/** Courtesy and discourse before a verb: who is told is still the agent, and what is still the verb's. */
export const LEAD_EN = [
  'please', 'pls', 'plz', 'kindly', 'just', 'ok', 'okay', 'k', 'so', 'now', 'also', 'then', 'and', 'yes', 'yeah', 'yep', 'yup',
  'sure', 'alright', 'all right', 'right', 'fine', 'go ahead and', 'go ahead', 'go and', 'go', "let's", 'let us', 'i want you to',
  'i need you to', "i'd like you to", 'i would like you to', 'you can', 'feel free to', 'honestly', 'hey', 'hi', 'well', 'oh',
  'finally', 'first', 'next', 'lastly', 'simply', 'quickly', 'definitely', 'really', 'good', 'great', 'thanks', 'thank you',
  'btw', 'by the way', 'perfect', 'cool', 'actually', 'right then', 'decision made', 'in that case', 'agreed', 'completely',
  'entirely', 'totally', 'fully',
];
export const LEAD_ZH = [
  '请', '请你', '麻烦', '麻烦你', '帮我', '你帮我', '帮忙', '给我', '你给我', '你来', '直接', '就', '那就', '好的', '好',
  '好吧', '行', '行吧', '嗯', '嗯嗯', '确认', '确定', '先', '赶紧', '快', '干脆', '索性', '然后', '另外', '顺便', '还有', '再', '对了',
  '现在', '马上', '立刻', '立即', '哦', '噢', '决定了', '那么', '并', '并且', '同时', '最后', '其次', '首先',
];

/** Verbs of a whole-file delete. */
export const DELETE_EN = [
  'delete', 'remove', 'erase', 'trash', 'discard', 'scrap', 'drop', 'get rid of', 'bin', 'toss', 'nuke', 'ditch', 'junk', 'axe',
  'dump', 'wipe', 'purge', 'kill', 'del', 'throw out', 'throw away',
];
export const DELETE_ZH = ['删除', '删掉', '删去', '删', '去掉', '移除', '扔掉', '丢掉', '扔', '丢', '清除', '清掉', '砍掉', '干掉', '作废', '拿掉'];

/** Verbs of a whole-file rewrite ("write … from scratch" and "start … over" are read as phrases around the object). */
export const REWRITE_EN = ['rewrite', 're-write', 'redo', 're-do'];
export const REWRITE_ZH = [
  '重写', '重新写', '推倒重写', '推翻重写', '推倒重来', '推翻重来', '从头写', '从头重写', '从头再写', '重做', '重来', '全部重写', '整章重写',
  '废了重写', '重新来', '重头写', '重新写一遍', '重写一遍', '从头到尾重写', '从头到尾重新写', '从头到尾写', '从头开始写', '从头开始重写',
];
/** After "write <file>": what makes it a rewrite of the whole. */
export const WRITE_ANEW_EN = ['from scratch', 'again from scratch', 'all over again', 'over again', 'anew', 'from the ground up'];

/** Before a reference: determiners and the like ("the whole", "my old", "the file called"). */
export const DET_EN = [
  'the', 'my', 'our', 'your', 'whole', 'entire', 'old', 'current', 'existing', 'original', 'full', 'complete', 'both', 'all of',
  'all', 'file', 'the file', 'called', 'named', 'titled', 'the file called', 'the file named', 'the one called',
];
export const DET_ZH = ['这个', '那个', '整个', '原来的', '旧的', '现在的', '现有的', '已有的', '已经有的', '已有', '名为', '叫'];
/** After a reference: it is a file ("the Notes file", "大纲文件"). */
export const NOUN_AFTER_REF = [
  'file', 'files', 'doc', 'document', 'chapter', 'one', '文件', '的文件', '这个文件', '这份', '这份文件', '设定文件', '这份设定文件', '这份设定', '章节',
  '这一章', '这章', '那章', '那一章', '整章', '全文', '两个文件', '这两个文件', '几个文件', '这几个文件', 'both files', 'these two files',
];
/** The files not named ("keep the rest", "其他别动"). */
export const REST = ['the rest', 'everything else', 'the others', 'all the others', 'the other chapters', 'the other files', 'others', '其他', '其他的', '其余', '其余的', '其他章节', '其余章节', '别的', '剩下的'];
/** What may close a keep ("leave it for now", "大纲草稿留着当参考"). */
export const KEEP_CLOSE = ['for now', 'as it is', 'as is', '先', '当参考', '作参考', '做参考', '参考用', 'for reference', 'as a reference', 'for later', 'alone'];

/** Joins references into a list. */
export const JOIN = ['and', '&', 'plus', 'as well as', ',', '、', '，', '和', '与', '及', '跟', '以及', '还有', '加上', '同'];

/** The open file, or the file just named, by pointing. */
export const POINTER_EN = [
  'it', 'this', 'that', 'them', 'these', 'those', 'this one', 'that one', 'these two', 'both of them', 'all of them', 'this chapter',
  'this file', 'the current one', 'the current chapter', 'the current file', 'this draft', 'all three', 'all four', 'all five',
  'all of these', 'the lot',
];
export const POINTER_ZH = ['它', '它们', '这个', '这章', '这一章', '本章', '此章', '这篇', '这份', '这个文件', '这个章节', '这两章', '这几章', '这些', '这俩', '它俩', '那章', '那个'];

/** Between the object and a Chinese verb ("第三章都删了", "把大纲直接删掉"). */
export const ADVERB_ZH = [
  '都', '也', '全', '全部', '全都', '统统', '通通', '直接', '先', '就', '一起', '一并', '整个', '彻底', '给我', '给', '完全', '干脆', '索性', '帮我',
  '一块', '整份', '整篇', '请', '麻烦',
];

/** After a Chinese verb: aspect, softeners and particles ("删掉吧", "重写一下"). */
export const PARTICLE_ZH = ['掉', '了', '吧', '啊', '呀', '哦', '喔', '嘛', '呗', '啦', '哈', '一下', '一遍', '就行', '就好', '即可', '就可以', '好了'];
/** After 了, what makes "删了" an order rather than a report ("删了吧", "删了就行"). */
export const ORDER_AFTER_PERFECTIVE = ['吧', '呗', '啊', '就行', '就好', '即可', '就可以'];

/** What may close an order. */
export const CLOSE_EN = [
  'please', 'pls', 'plz', 'now', 'entirely', 'completely', 'altogether', 'fully', 'for good', 'permanently', 'from scratch',
  'from the ground up', 'from the top', 'from zero', 'again', 'anew', 'totally', 'too', 'as well', 'for me', 'thanks', 'thank you',
  'thx', 'ty', 'asap', 'right now', 'right away', 'immediately', 'outright', 'top to bottom', 'start to finish', 'then', 'ok',
  'okay', 'for now', 'both', 'in its entirety', 'in their entirety', 'wholesale', 'for real',
];
export const CLOSE_ZH = ['谢谢', '谢啦', '谢谢你', '辛苦了', '辛苦', '麻烦了', '拜托了', '拜托', '多谢', '感谢'];

/** A model to follow, before a Chinese verb ("按第3章的风格重写", "以第三章为准"): never a target. */
export const MANNER_BEFORE_ZH = ['按', '按照', '参考', '参照', '依照', '根据', '仿照', '照着', '以'];
export const MANNER_TAIL_ZH = ['的风格', '的写法', '的语气', '的文风', '为准', '为参考', '为标准', '为蓝本', '为范本', '为例', '那样', '一样', '风格'];
/** A model to follow, after an English object ("rewrite chapter 5 to match chapter 3"). */
export const MANNER_AFTER_EN = ['to match', 'to fit', 'like', 'in the style of', 'based on', 'following', 'according to', 'in line with', 'modelled on', 'modeled on'];

/** An exception to a list or range ("except 6", "but not chapter 6", "除了第6章", "第6章除外"). */
export const EXCEPT_EN = ['except', 'except for', 'but not', 'other than', 'excluding', 'apart from', 'save for', 'besides', 'not', 'with the exception of', 'leaving out'];
export const EXCEPT_ZH = ['除了', '除', '不包括', '不含', '除开'];
export const EXCEPT_TAIL_ZH = ['除外', '以外', '之外', '不算', '不动', '保留', '留着', '别动', '不删', '不改', '不用改', '不用删', '不要删', '不要改', '不要动'];
/** "but leave 3 alone", "but keep chapter 6". */
export const KEEP_EN = [
  'leave', 'keep', 'spare', 'skip', 'preserve', 'retain', "don't delete", 'do not delete', "don't remove", 'do not remove', "don't rewrite",
  'do not rewrite', "don't touch", 'do not touch', 'never delete', 'never rewrite', "don't redo", "don't scrap", "don't trash",
];
export const KEEP_TAIL_EN = ['alone', 'as is', 'as it is', 'untouched', 'intact', 'out'];
export const KEEP_ZH = [
  '保留', '留着', '留下', '别动', '不动', '别碰', '不要动', '不用动', '不要删', '别删', '不删', '不用删', '不要改', '别改', '不改', '跳过', '不要删除', '别删除',
  '不要重写', '别重写', '不用重写', '不重写', '先不动', '先别动', '先留着',
];
/** A keep that is itself negated ("不必保留", "no need to keep") keeps nothing. */
export const NEGATED_KEEP = /(?:不必|不用|无需|不需要|没必要|\bno need to|\bdon'?t|\bdo not|\bnever)\s*(?:再|去)?\s*(?:保留|留着|留下|keep|leave|preserve|retain)/iu;

/** Run control of a multi-chapter job. */
export const JOB_NOUN_EN = ['job', 'the job', 'this job', 'that job', 'the current job', 'my job', 'the generation', 'generation', 'the batch', 'the batch job', 'the batch run', 'batch run', 'this batch', 'that batch', 'the run', 'the writing job', 'the whole job', 'the entire job', 'the batch generation'];
export const JOB_NOUN_ZH = ['任务', '这个任务', '生成任务', '批量任务', '写作任务', '当前任务', '长任务', '整个任务', '后台任务'];
export const PAUSE_EN = ['pause', 'suspend', 'hold'];
export const PAUSE_ZH = ['暂停', '停一下', '先停', '挂起', '停一停'];
export const RESUME_EN = ['resume', 'unpause', 'continue', 'carry on with'];
export const RESUME_ZH = ['继续', '恢复', '接着跑', '接着'];
export const CANCEL_EN = ['cancel', 'abort', 'kill', 'terminate'];
export const CANCEL_ZH = ['取消', '终止', '中止'];
/** What may close a job order ("pause the job for now", "暂停任务吧"). */
export const JOB_CLOSE = [...CLOSE_EN, 'for a bit', 'for a while', 'for the moment', 'for a sec', 'for a second', 'for a minute', 'for today', ...PARTICLE_ZH, ...CLOSE_ZH, '先', '一下', '运行', '跑', '下去'];

/** Verbs an English typo may stand for, when the order is otherwise complete ("delte", "puase", "cancle"). */
export const TYPO_TARGETS = ['delete', 'remove', 'rewrite', 'pause', 'resume', 'cancel'];

/**
 * What voids an order given before it in the same message: a joke, sarcasm or a take-back in
 * words or emoji ("delete chapter 3 🙄", "— kidding", "said no one", "哈哈骗你的").
 */
export const VOIDS =
  /🙄|😂|🤣|😏|🙃|😜|😝|😆|😹|🤪|😛|\b(?:j\/?k|jk|kidding|just kidding|joking|said no(?: \w+)? (?:one|body|author|writer)(?: ever)?|said nobody|not really|lol|lmao|rofl|yeah right|as if|haha\w*|psych)\b|骗你的|逗你的|逗你玩|开玩笑|开个玩笑|说笑的|说着玩|才怪|想得美|哈{3,}|嘿嘿|嘻嘻/iu;

/** The verbs of the steps an agent offers ("Shall I write chapter 2?" → "write it", "写吧"). */
export const STEP_VERBS = {
  write: ['write', 'continue', 'go on', 'keep going', 'carry on', 'draft', 'write it', 'continue writing', '写', '续写', '接着写', '继续', '继续写', '往下写', '开写', '写下去', '接着'],
  edit: [
    'edit', 'revise', 'polish', 'tighten', 'fix', 'change', 'apply', 'tweak', 'improve', 'make the change', 'make the changes', 'apply them', 'cut',
    'trim', 'shorten', 'add', 'expand', 'merge', 'fix them', '改', '修改', '润色', '调整', '修', '精修', '动手', '处理', '改一下', '压缩', '补充', '统一',
    '加', '补', '精简', '扩写', '合并', '加上',
  ],
  review: ['review', 'check', 'look', 'have a look', 'take a look', 'read', '审', '审稿', '检查', '看看', '看', '看一下'],
  plan: ['plan', 'outline', 'plan it', 'draft the outline', 'draft an outline', 'draft it', 'do the outline', '规划', '列', '列大纲', '写大纲', '做大纲', '列一份', '列吧'],
} as const;
