/**
 * The grammar of orders (core/words/orders.ts), third part: a number that several files share
 * names none of them, while the title words after it name exactly one; titles named by their
 * head or by "<name>'s <head>"; traditional characters, formal and Roman numerals and "c7";
 * leading interjections and closing words; an English verb after its object in a clause that
 * mixes in Chinese; a rewrite said twice over; a keep said twice over; and job orders that say
 * the same again after them. Each extension is pinned in both languages, with what still asks.
 */
import { type AuthorAction, authorisedFiles } from '../../src/core/words/author-scope';
import { jobCommandOf } from '../../src/core/words/job-commands';
import { findUnitRefs, parseChineseNumeral } from '../../src/core/words/numerals';
import { type FileOrder, fileOrdersOf, type Target } from '../../src/core/words/orders';
import { characterSegmenter, type ReadClause, readMessage } from '../../src/core/words/reading';
import { read } from './read';

const clause = (message: string): ReadClause => {
  const clauses = readMessage(message, characterSegmenter).sentences.flatMap((s) => s.clauses);
  expect(clauses).toHaveLength(1);
  return clauses[0]!;
};
const orders = (message: string, titles: string[] = []): FileOrder[] => fileOrdersOf(clause(message), titles);
const ch = (n: number): Target => ({ kind: 'unit', unit: { kind: 'chapter', from: n, to: n } });

/** The titles of `project` the message authorises this action on. */
const authorised = (message: string, project: string[], action: AuthorAction = 'delete'): string[] =>
  authorisedFiles(
    { reading: read(message), titles: project },
    project.map((t, i) => ({ id: String(i), title: t })),
    action,
  ).map((f) => f.title);

const ZH = ['第5章 外门大比', '第6章 黑风谷', '第6章 草稿副本', '第7章 师姐', '序章 血月', '笔记', '人物设定'];
const EN = [
  'Prologue - Salt Wind',
  'Chapter 3 The Pawnshop',
  'Chapter 4 - Lantern Night',
  'Chapter 4 - Lantern Night (draft copy)',
  'Chapter 5 Salt',
  'Character Sheet - Eli',
  'Character Sheet - Mara',
  'Notes',
];

describe('a number several files share', () => {
  test('with its title words, it names only the file those words name', () => {
    expect(authorised('第六章 黑风谷 删掉', ZH)).toEqual(['第6章 黑风谷']);
    expect(authorised('删除第六章 草稿副本', ZH)).toEqual(['第6章 草稿副本']);
    expect(authorised('delete chapter 4 draft copy', EN)).toEqual(['Chapter 4 - Lantern Night (draft copy)']);
    expect(authorised('delete ch4 draft copy', EN)).toEqual(['Chapter 4 - Lantern Night (draft copy)']);
    expect(authorised('delete the draft copy of chapter 4', EN)).toEqual(['Chapter 4 - Lantern Night (draft copy)']);
  });

  test('alone, it names none of them, and the files of other numbers are still named', () => {
    expect(authorised('删掉第六章', ZH)).toEqual([]);
    expect(authorised('delete chapter 4', EN)).toEqual([]);
    expect(authorised('删除第五到六章', ZH)).toEqual(['第5章 外门大比']);
    expect(authorised('delete chapters 4 and 5', EN)).toEqual(['Chapter 5 Salt']);
  });

  test('a whole subtitle names its own file; words both files share name neither', () => {
    expect(authorised('delete chapter 4 lantern night', EN)).toEqual(['Chapter 4 - Lantern Night']);
    expect(orders('delete chapter 4 lantern', EN)).toEqual([]);
    expect(authorised('delete chapter 4 lantern', EN)).toEqual([]);
  });

  test('a subtitle of another number names nothing', () => {
    expect(orders('删除第三章 黑风谷', ZH)).toEqual([]);
    expect(orders('delete chapter 5 The Pawnshop', EN)).toEqual([]);
    expect(authorised('delete chapter 5 The Pawnshop', EN)).toEqual([]);
  });

  test('a part of the file is never the file, whatever a title holds', () => {
    const parts = ['Chapter 3 The End', 'Chapter 3 (draft)'];
    expect(orders('delete the end of chapter 3', parts)).toEqual([]);
    expect(orders('删除第三章的结尾', ['第3章 结尾', '第3章 草稿'])).toEqual([]);
    expect(orders('delete ch 3 the end', parts)).toEqual([]);
  });

  test('a title that only mentions the number lends it no words', () => {
    expect(orders('delete chapter 2 draft', ['Notes on Chapter 2 draft', 'Chapter 2'])).toEqual([]);
  });

  test('an exception of the shared number keeps every file of it', () => {
    expect(authorised('把第5到第7章都删了，第6章留着别动', ZH)).toEqual(['第5章 外门大比', '第7章 师姐']);
  });
});

describe('a title named by its head', () => {
  test('the head alone names the one title with it', () => {
    expect(authorised('把序章删掉', ZH)).toEqual(['序章 血月']);
    expect(authorised('rewrite the prologue from scratch', EN, 'rewrite')).toEqual(['Prologue - Salt Wind']);
  });

  test('"<name>\'s <head>" names that one; a head two titles share names neither', () => {
    expect(authorised("delete eli's character sheet", EN)).toEqual(['Character Sheet - Eli']);
    expect(authorised("redo Mara's character sheet from scratch", EN, 'rewrite')).toEqual(['Character Sheet - Mara']);
    expect(authorised('delete the character sheet', EN)).toEqual([]);
  });

  test('a head that is a title of its own names that title only', () => {
    expect(authorised('删除序章', ['序章', '序章 草稿'])).toEqual(['序章']);
  });
});

describe('numerals', () => {
  test('traditional and formal characters, Roman numerals in capitals, "c7"', () => {
    expect(parseChineseNumeral('叁拾')).toBe(30);
    expect(findUnitRefs('第叁章')[0]).toMatchObject({ from: 3, to: 3 });
    expect(findUnitRefs('Chapter III')[0]).toMatchObject({ kind: 'chapter', from: 3 });
    expect(findUnitRefs('Act IV')[0]).toMatchObject({ kind: 'act', from: 4 });
    expect(findUnitRefs('c7 删掉')[0]).toMatchObject({ kind: 'chapter', from: 7 });
  });

  test('a lower-case "i" after chapter, an "abc7" or a "c 7" is no number', () => {
    expect(findUnitRefs('chapter i think')).toEqual([]);
    expect(findUnitRefs('abc7')).toEqual([]);
    expect(findUnitRefs('c 7')).toEqual([]);
    expect(findUnitRefs('chapter IIII')).toEqual([]);
  });

  test('orders read them', () => {
    expect(orders('第叁章重写')).toEqual([{ action: 'rewrite', targets: [ch(3)], except: [], implicit: false }]);
    expect(orders('delete Chapter III')).toEqual([{ action: 'delete', targets: [ch(3)], except: [], implicit: false }]);
    expect(authorised('c7 删掉 谢谢宝', ZH)).toEqual(['第7章 师姐']);
    expect(authorised('刪除 第七章', ZH)).toEqual(['第7章 师姐']);
  });
});

describe('leads and closes', () => {
  test('an interjection before the order, "already" or "full stop" after it', () => {
    expect(authorised('ugh just delete ch 5 already', EN)).toEqual(['Chapter 5 Salt']);
    expect(authorised('delete the notes full stop', EN)).toEqual(['Notes']);
    expect(authorised('亲 帮我把笔记删掉', ZH)).toEqual(['笔记']);
  });

  test("a feeling in the order's clause is still not accounted for", () => {
    expect(authorised('honestly its rubbish delete chapter 5', EN)).toEqual([]);
    expect(authorised('烦死了 第七章删了', ZH)).toEqual([]);
  });

  test('"the whole of" and "那个文件" before and after the object', () => {
    expect(authorised('rewrite the whole of chapter 5', EN, 'rewrite')).toEqual(['Chapter 5 Salt']);
    expect(authorised('笔记那个文件删掉', ZH)).toEqual(['笔记']);
  });
});

describe('an English verb after its object', () => {
  test('in a clause with Chinese in it, or after a unit, it is the order', () => {
    expect(authorised('第七章 delete，立刻', ZH)).toEqual(['第7章 师姐']);
    expect(authorised('人物设定 rewrite 一下 from scratch', ZH, 'rewrite')).toEqual(['人物设定']);
    expect(authorised('ch5 delete 掉', EN)).toEqual(['Chapter 5 Salt']);
    expect(authorised('chapter 5 rewrite from scratch', EN, 'rewrite')).toEqual(['Chapter 5 Salt']);
  });

  test("after an English title alone, it is the title's subject", () => {
    expect(authorised('Notes delete', EN)).toEqual([]);
  });
});

describe('a rewrite said twice over', () => {
  test('the whole-rewrite words after it keep it an order', () => {
    expect(authorised('重写第七章 整章重写', ZH, 'rewrite')).toEqual(['第7章 师姐']);
    expect(authorised('第七章推倒重来 整章重新写', ZH, 'rewrite')).toEqual(['第7章 师姐']);
  });

  test('a delete may not be followed by them, nor a rewrite by a part', () => {
    expect(orders('删除第七章 整章重写')).toEqual([]);
    expect(orders('重写第七章 开头重写')).toEqual([]);
  });
});

describe('job orders that say the same again', () => {
  const action = (m: string) => jobCommandOf(read(m))?.action ?? null;

  test('traditional characters, a courtesy, a restating tail', () => {
    expect(action('暫停任務')).toBe('pause');
    expect(action('麻烦暂停下任务 谢谢亲~')).toBe('pause');
    expect(action('继续任务吧 接着写')).toBe('resume');
    expect(action('把任务取消掉 不写了')).toBe('cancel');
    expect(action('just cancel the job already')).toBe('cancel');
    expect(action('ugh PAUSE the writing job')).toBe('pause');
    expect(action('hows the job going')).toBe('status');
  });

  test('a tail that says something else is not accounted for', () => {
    expect(action('暂停任务 接着写')).toBeNull();
    expect(action('继续任务 不写了')).toBeNull();
    expect(action('hold on pause the job a sec and the outline')).toBeNull();
  });
});

describe('a range of two units, and a verb kept from one action only', () => {
  const PLAIN = ['Chapter 1', 'Chapter 2', 'Chapter 3', 'Chapter 4', 'Chapter 5', 'Notes'];
  test('"chapter 2 to chapter 4", "everything from … through …", "between … and …" name the range', () => {
    expect(authorised('delete chapter 2 to chapter 4', PLAIN)).toEqual(['Chapter 2', 'Chapter 3', 'Chapter 4']);
    expect(authorised('please delete everything from chapter 2 through chapter 4 except chapter 3', PLAIN)).toEqual([
      'Chapter 2',
      'Chapter 4',
    ]);
    expect(authorised('delete everything between chapter 3 and chapter 5', PLAIN)).toEqual([
      'Chapter 3',
      'Chapter 4',
      'Chapter 5',
    ]);
    expect(authorised('第一至第三章，除第二章外，一律删除', ['第1章 甲', '第2章 乙', '第3章 丙'])).toEqual([
      '第1章 甲',
      '第3章 丙',
    ]);
  });
  test('backwards, or from a part, is no range', () => {
    expect(authorised('delete chapter 4 to chapter 2', PLAIN)).toEqual([]);
    expect(authorised('delete from chapter 2', PLAIN)).toEqual([]);
  });
  test('"don\'t delete X, rewrite it" rewrites X; "别删X，删了吧" does nothing', () => {
    expect(authorised("don't delete chapter 3, rewrite it from scratch", PLAIN, 'rewrite')).toEqual(['Chapter 3']);
    expect(authorised("don't delete chapter 3, rewrite it from scratch", PLAIN)).toEqual([]);
    expect(authorised("don't rewrite chapter 5, just delete it", PLAIN)).toEqual(['Chapter 5']);
    expect(authorised('不要删第六章 黑风谷，帮我整章重写', ZH, 'rewrite')).toEqual(['第6章 黑风谷']);
    expect(authorised('别删笔记，删了吧', ZH)).toEqual([]);
    expect(authorised('keep chapter 3, rewrite it', PLAIN, 'rewrite')).toEqual([]);
  });
});

describe('a numbered file by its subtitle and its kind, traditional characters', () => {
  test('"the pawnshop chapter", "the chapter called …", "黑风谷那章" name it; the subtitle alone does not', () => {
    expect(authorised('delete the pawnshop chapter', EN)).toEqual(['Chapter 3 The Pawnshop']);
    expect(authorised('delete the chapter called Salt', EN)).toEqual(['Chapter 5 Salt']);
    expect(authorised('把黑风谷那章删了', ZH)).toEqual(['第6章 黑风谷']);
    expect(authorised('delete the pawnshop', EN)).toEqual([]);
    expect(authorised('delete the pawnshop episode', EN)).toEqual([]);
  });
  test('traditional characters read as simplified', () => {
    expect(authorised('幫我把筆記刪了', ZH)).toEqual(['笔记']);
    expect(authorised('請把人物設定從頭重寫', ZH, 'rewrite')).toEqual(['人物设定']);
  });
});

describe('more shapes of a whole order', () => {
  test('a wish for the file\'s state: "I want X deleted and Y rewritten"', () => {
    expect(authorised('I want Notes deleted and chapter 5 rewritten from scratch', EN)).toEqual(['Notes']);
    expect(authorised('I want Notes deleted and chapter 5 rewritten from scratch', EN, 'rewrite')).toEqual([
      'Chapter 5 Salt',
    ]);
    expect(authorised("I'd like the Notes gone", EN)).toEqual(['Notes']);
    expect(authorised('I want Notes deleted eventually', EN)).toEqual([]);
    expect(authorised('Notes deleted', EN)).toEqual([]);
  });
  test('a split delete verb, and "delete X and write it again" is one rewrite', () => {
    expect(authorised('throw the Notes away', EN)).toEqual(['Notes']);
    expect(authorised('throw the Notes away and write them again from the start', EN)).toEqual([]);
    expect(authorised('throw the Notes away and write them again from the start', EN, 'rewrite')).toEqual(['Notes']);
    expect(authorised('throw the Notes', EN)).toEqual([]);
  });
  test('what a rewrite is for may follow it; a limit, a part or a file in it asks', () => {
    expect(authorised('Rewrite Notes from scratch as a tidy list for the next draft', EN, 'rewrite')).toEqual([
      'Notes',
    ]);
    expect(authorised('rewrite chapter 5 to suit the darker plot', EN, 'rewrite')).toEqual(['Chapter 5 Salt']);
    expect(authorised('rewrite chapter 5 to fix the ending', EN, 'rewrite')).toEqual([]);
    expect(authorised('rewrite chapter 5 as far as the duel', EN, 'rewrite')).toEqual([]);
    expect(authorised('rewrite chapter 5 to match Notes', EN, 'rewrite')).toEqual(['Chapter 5 Salt']);
    expect(authorised('delete chapter 5 as a test', EN)).toEqual([]);
  });
  test('polite leads and a whole rewrite said before its verb', () => {
    expect(authorised('劳驾把笔记删了', ZH)).toEqual(['笔记']);
    expect(authorised('请从零开始重写人物设定', ZH, 'rewrite')).toEqual(['人物设定']);
    expect(authorised('从零开始删掉笔记', ZH)).toEqual([]);
    expect(authorised('please you delete Notes', EN)).toEqual(['Notes']);
  });
});
