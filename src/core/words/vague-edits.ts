/**
 * A request to edit that does not say what to change, read by its structure: an edit verb, the text
 * it is about and how much or how good, and beside it at most comments on the text (a feeling, what
 * the author did) that name no place or direction to change. Such a request is asked about first
 * (core/words/routing.ts). Pure module.
 */
import { accountFor } from './orders';
import { actionsOf } from './answers';
import type { MessageReading } from './reading';

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
  'need work',
  'need some work',
  'now',
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
  const length = Array.from(reading.text.trim()).length;
  if (length === 0 || length > 160) return false;
  let verbs = 0;
  let comments = 0;
  for (const clause of reading.sentences.flatMap((s) => s.clauses)) {
    const counts = accountFor(
      { ...clause, words: clause.words.filter((w) => w.kind !== 'unit') },
      { verb: VAGUE_VERBS, object: VAGUE_OBJECTS, filler: VAGUE_FILLER },
    );
    if (counts) verbs += counts.verb!;
    else if (
      isComment(
        clause.words
          .filter((w) => w.kind !== 'unit')
          .map((w) => w.text)
          .join(' '),
      )
    )
      comments++;
    else return false;
  }
  // A feeling beside the request ("Chapter 4 feels flat to me. Could you make it better?") still says nothing of what to change.
  // The request alone is read up to 60 characters; with a comment beside it, up to 160.
  return verbs > 0 && (comments > 0 || length <= 60);
}

/**
 * Where a text can be changed, and in which direction: a clause that names one says what to change
 * ("the dialogue is stiff", "太长了"), so the request beside it is not vague.
 */
const ASPECT =
  /\b(?:dialogue|dialog|pac(?:e|ing)|tone|voice|ending|opening|beginning|middle|scene|scenes|character|characters|description|descriptions|paragraph|paragraphs|line|lines|sentence|sentences|word|words|long|longer|short|shorter|slow|slower|fast|faster|rushed|wordy|verbose|dragg?(?:s|ing)?|tense|pov|name|names|title|typo|typos|grammar|spelling|plot|twist|hook|climax)\b|对白|对话|节奏|语气|结尾|结局|开头|中间|场景|人物|角色|描写|段|句|字|长|短|快|慢|拖|啰嗦|视角|名字|标题|错别字|语法|情节|伏笔|钩子|高潮/iu;

/**
 * A clause that only comments on the text (a feeling, what the author did, a courtesy): no work of its
 * own, nothing that says where or how to change it, no number, no question.
 */
function isComment(text: string): boolean {
  return (
    actionsOf(text).length === 0 &&
    !ASPECT.test(text) &&
    !/[\d?？]/u.test(text) &&
    !/[一二三四五六七八九十两]/u.test(text)
  );
}
