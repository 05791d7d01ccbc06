/**
 * The grammar of orders, fourth part, on fresh wording: titles kept in traditional characters, a
 * title whose last character the segmenter glued to the verb, a title's own words that read like a
 * condition, a space between Chinese words as a clause break, a job named by how it runs, vague
 * edits of a book's other files, plan requests by their shape, offers of a step by what the step
 * does, "c12" against Chinese, slang and noun-phrase orders, a perfective order in a series of
 * orders, and a turn away from a question. Every case that acts is paired with one that must still ask.
 */
import { type AuthorAction, authorisedFiles } from '../../src/core/words/author-scope';
import { jobCommandOf } from '../../src/core/words/job-commands';
import { isConfirmation, proposedStep } from '../../src/core/words/proposals';
import { withSpacedClauses } from '../../src/core/words/reading';
import { maskTitles } from '../../src/core/words/order-checks';
import { isVagueEditRequest, requestAsksForPlan } from '../../src/core/words/routing';
import { isNewInstruction } from '../../src/core/words/answers';
import { read } from './read';

/** The titles of `project` the message authorises this action on. */
const authorised = (message: string, project: string[], action: AuthorAction = 'delete'): string[] =>
  authorisedFiles(
    { reading: read(message), titles: project },
    project.map((t, i) => ({ id: String(i), title: t })),
    action,
  ).map((f) => f.title);

const TRAD = ['第1章 山路', '第2章 渡船', '後記', '附錄一 地圖', '附錄二 族譜', '卷二 導言', '筆記', '讀者的話'];
const ZH = ['第1章 山路', '第2章 渡船', '第3章 集市', '大纲', '笔记', '编者的话', '要是那年'];
const EN = ['Chapter 1', 'Chapter 2', 'Afterword', 'What If', 'Notes', 'Appendix C'];

describe('titles in traditional characters', () => {
  test('a message in either script names them', () => {
    expect(authorised('请把后记删掉', TRAD)).toEqual(['後記']);
    expect(authorised('請刪除筆記', TRAD)).toEqual(['筆記']);
    expect(authorised('卷二导言从头重写', TRAD, 'rewrite')).toEqual(['卷二 導言']);
  });

  test('a reason after the order is still no condition; a question or a take-back still asks', () => {
    expect(authorised('删掉後記，内容跟第二章重了', TRAD)).toEqual(['後記']);
    expect(authorised('後記要不要删？', TRAD)).toEqual([]);
    expect(authorised('删掉後記，算了还是留着', TRAD)).toEqual([]);
  });

  test('a title whose last character is glued to the verb ("附录/二删") is still the title', () => {
    expect(authorised('把附录二删了', TRAD)).toEqual(['附錄二 族譜']);
    expect(authorised('把附录一删了吧', TRAD)).toEqual(['附錄一 地圖']);
    // The number after 附录 is the title's own; a longer name it does not have names nothing.
    expect(authorised('把附录三删了', TRAD)).toEqual([]);
  });
});

describe("a title's own words", () => {
  test('never make its sentence a condition', () => {
    expect(authorised('编者的话删掉', ZH)).toEqual(['编者的话']);
    expect(authorised('要是那年重写一遍', ZH, 'rewrite')).toEqual(['要是那年']);
    expect(authorised('delete What If', EN)).toEqual(['What If']);
    expect(maskTitles('删掉编者的话', ['编者的话'])).toBe('删掉xxxx');
    expect(authorised('Notes is stale, delete it', EN)).toEqual(['Notes']);
  });

  test('a real condition beside the title still asks', () => {
    expect(authorised('编者的话没用的话就删掉', ZH)).toEqual([]);
    expect(authorised('delete What If if you think it drags', EN)).toEqual([]);
  });
});

describe('a space between Chinese words ends a clause', () => {
  test('an order with a reason after a space stands', () => {
    expect(authorised('把笔记删了 内容都搬走了', ZH)).toEqual(['笔记']);
    expect(authorised('大纲给我重写 方向全变了', ZH, 'rewrite')).toEqual(['大纲']);
  });

  test('a joke, a take-back or a condition after the space still voids it', () => {
    expect(authorised('把笔记删了 开玩笑的', ZH)).toEqual([]);
    expect(authorised('把笔记删了 算了 先留着', ZH)).toEqual([]);
    expect(authorised('把笔记删了 如果你觉得没用', ZH)).toEqual([]);
  });

  test('a title with a space, or a unit beside the space, stays in its clause', () => {
    expect(authorised('删除第3章 集市', ZH)).toEqual(['第3章 集市']);
    const spaced = withSpacedClauses(read('第三章 集市 删掉'), ZH);
    expect(spaced.sentences[0]!.clauses).toHaveLength(1);
    expect(withSpacedClauses(read('把笔记删了 内容都搬走了'), ZH).sentences[0]!.clauses).toHaveLength(2);
  });
});

describe('the job named by how it runs', () => {
  test('"the running job", "the auto-write job", "自动写作任务" are the job', () => {
    expect(jobCommandOf(read('pause the running job'))?.action).toBe('pause');
    expect(jobCommandOf(read('please cancel the background job now'))?.action).toBe('cancel');
    expect(jobCommandOf(read('把后台写作任务暂停一下'))?.action).toBe('pause');
    expect(jobCommandOf(read('续写任务先恢复吧 我看完了'))?.action).toBe('resume');
  });

  test('"resume" and "unpause" alone can only mean the job', () => {
    expect(jobCommandOf(read('ok, unpause it. the chapter plan is sorted'))?.action).toBe('resume');
    expect(jobCommandOf(read('Please resume writing; I have the notes now.'))?.action).toBe('resume');
    expect(jobCommandOf(read('resume chapter 4'))).toBeNull();
    expect(jobCommandOf(read('I will resume it after lunch'))).toBeNull();
    expect(jobCommandOf(read('resume, kidding'))).toBeNull();
    expect(jobCommandOf(read('继续第四章'))).toBeNull();
  });

  test('a job named by a chapter, a question or a report still gives no order', () => {
    expect(jobCommandOf(read('pause the chapter job'))).toBeNull();
    expect(jobCommandOf(read('should I cancel the running job?'))).toBeNull();
    expect(jobCommandOf(read('我已经把后台任务暂停了'))).toBeNull();
    expect(jobCommandOf(read('自动任务先暂停 等我想想 算了不用'))).toBeNull();
  });
});

describe("vague edits of a book's other files", () => {
  test.each([
    'Tidy up the afterword.',
    'polish the appendix',
    '把前言弄得好一点',
    '附录整得好看点',
    '第二章不太对，你看着办',
  ])('"%s" says nothing of what to change', (m) => expect(isVagueEditRequest(read(m))).toBe(true));

  test.each(['Tidy up the dialogue in the afterword.', '把前言的结尾改短一点', '附录里的年份整一下，改成公元纪年'])(
    '"%s" says what to change',
    (m) => expect(isVagueEditRequest(read(m))).toBe(false),
  );
});

describe('plan requests by their shape', () => {
  test.each([
    'plan chapters 21-30 for me',
    'outline part three please',
    'break act 2 into scenes, maybe 12',
    'beats for the next five chapters, please give me those',
    '下一卷的大纲 三十章左右',
    '帮我列个后半部的写作计划',
  ])('"%s" asks for a plan', (m) => expect(requestAsksForPlan(m)).toBe(true));

  test.each([
    'the outline is done, thanks',
    '大纲我早就自己列好了',
    '我计划明天写第三章',
    '按大纲写第三章，三千字左右',
  ])('"%s" asks for none', (m) => expect(requestAsksForPlan(m)).toBe(false));
});

describe('offers by what the step does', () => {
  test('"make it more …", "convert …" are edits; 起草 is writing', () => {
    expect(proposedStep('Shall I make the villain a bit more menacing?')?.action).toBe('edit');
    expect(proposedStep('Want me to convert the dates to a 24-hour clock?')?.action).toBe('edit');
    expect(proposedStep('要我先起草一下后记吗？')?.action).toBe('write');
  });

  test('a colloquial yes or "do that" confirms; asked back it does not', () => {
    expect(isConfirmation('整吧')).toBe(true);
    expect(isConfirmation('yes, do that')).toBe(true);
    expect(isConfirmation('整？')).toBe(false);
    expect(isConfirmation('do that?')).toBe(false);
  });
});

describe('"c12" glued to Chinese, slang verbs, the order said as the work', () => {
  test('"c2" touching Chinese is chapter 2; 砍 deletes; "a full rewrite of" rewrites', () => {
    expect(authorised('c2给我砍了', ZH)).toEqual(['第2章 渡船']);
    expect(authorised('把c1删掉 写得太散', ZH)).toEqual(['第1章 山路']);
    expect(authorised('a full rewrite of Notes please, the timeline moved', EN, 'rewrite')).toEqual(['Notes']);
    expect(authorised('complete rewrite of the Afterword', EN, 'rewrite')).toEqual(['Afterword']);
  });

  test('what the verb only trims, a letter run into the number, or a rewrite not made whole still asks', () => {
    expect(authorised('c2砍一半', ZH)).toEqual([]);
    expect(authorised('abc2给我删了', ZH)).toEqual([]);
    expect(authorised('a rewrite of Notes', EN, 'rewrite')).toEqual([]);
    expect(authorised('a full rewrite of Notes would be nice', EN, 'rewrite')).toEqual([]);
  });
});

describe('a verb with 了 in a series of orders', () => {
  test('beside another order it is an order too', () => {
    expect(authorised('笔记删了，大纲重写', ZH)).toEqual(['笔记']);
    expect(authorised('笔记删了，大纲重写', ZH, 'rewrite')).toEqual(['大纲']);
  });

  test('alone, with a subject, or beside no order it still tells what happened', () => {
    expect(authorised('笔记删了', ZH)).toEqual([]);
    expect(authorised('笔记我删了，大纲重写', ZH)).toEqual([]);
    expect(authorised('笔记删了，大纲还在', ZH)).toEqual([]);
  });
});

describe('a turn away from the question asked', () => {
  const previous = { agent: 'writer' as const, readOnly: false, question: '她最后原谅他了吗？' };
  test('putting the question aside, or work on a file named in capitals, is a new instruction', () => {
    expect(isNewInstruction('这个先放一放，帮我把附录补完整', previous)).toBe(true);
    expect(
      isNewInstruction('park that, update the Magic Rules with the new costs', { ...previous, agent: 'planner' }),
    ).toBe(true);
  });

  test('an answer is still an answer', () => {
    expect(isNewInstruction('原谅了，但心里还有疙瘩', previous)).toBe(false);
    expect(isNewInstruction('yes, she does in the end', previous)).toBe(false);
  });
});

describe('a verb with 了 after a lead that asks for the work', () => {
  test('"帮我删了…", "麻烦删了…" and Cantonese "唔该删咗…" are requests', () => {
    expect(authorised('帮我删了第二章', ZH)).toEqual(['第2章 渡船']);
    expect(authorised('麻烦重写了大纲吧', ZH, 'rewrite')).toEqual(['大纲']);
    expect(authorised('唔该帮我删咗附录一', TRAD)).toEqual(['附錄一 地圖']);
  });

  test('with no such lead, with a subject, asked or joked about, it is not', () => {
    expect(authorised('删了第二章', ZH)).toEqual([]);
    expect(authorised('我帮你删了第二章', ZH)).toEqual([]);
    expect(authorised('帮我删了第二章吗', ZH)).toEqual([]);
    expect(authorised('帮我删了第二章，开玩笑的', ZH)).toEqual([]);
  });
});

describe('a part of the file named beside a whole-file order', () => {
  test('by its place or its count, it makes the order a question about that part: nothing is authorised', () => {
    expect(authorised('delete chapter 2, the last three paragraphs', EN)).toEqual([]);
    expect(authorised('delete chapter 2 — just the ending', EN)).toEqual([]);
    expect(authorised('Delete chapter 2, last paragraph only.', EN)).toEqual([]);
    expect(authorised('rewrite chapter 1, the first half', EN, 'rewrite')).toEqual([]);
    expect(authorised('第二章删掉，最后三段', ZH)).toEqual([]);
    expect(authorised('删掉第二章，后半段', ZH)).toEqual([]);
    expect(authorised('第一章重写，开头两段', ZH, 'rewrite')).toEqual([]);
  });

  test('words that say the whole after all, or a reason about a part, leave the order standing', () => {
    expect(authorised('rewrite chapter 1 from scratch, not just the ending', EN, 'rewrite')).toEqual(['Chapter 1']);
    expect(authorised('Rewrite chapter 1 entirely, from the first line to the last', EN, 'rewrite')).toEqual([
      'Chapter 1',
    ]);
    expect(authorised('第二章删掉，那段写得太水', ZH)).toEqual(['第2章 渡船']);
    expect(authorised('delete chapter 2', EN)).toEqual(['Chapter 2']);
  });
});
