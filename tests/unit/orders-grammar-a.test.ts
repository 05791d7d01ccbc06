/**
 * The grammar of orders (core/words/orders.ts), first half: how the words of a clause become
 * tokens (a file title read as one, a name that goes on past a title, a Han word cut into the
 * grammar's phrases), a mistyped English verb read as the verb and nothing else read as one,
 * marks skipped, what a target may be (the open file by pointing, "the rest", units side by side,
 * a bare number only inside an exception, a chapter's subtitle), exceptions, closing words and
 * "删了" told as a report. Each test is an author's message and what the grammar reads from it:
 * an order, its targets and exceptions, or nothing.
 */
import {
  accountFor,
  fileOrdersOf,
  jobOrderOf,
  openingTargets,
  type FileOrder,
  type Target,
} from '../../src/core/words/orders';
import { characterSegmenter, readMessage, type ReadClause, type Segmenter } from '../../src/core/words/reading';
import { read } from './read';

/** The only clause of a message, read as a turn reads it (jieba's recorded cuts). */
function clauseOf(message: string, segment?: Segmenter): ReadClause {
  const reading = segment ? readMessage(message, segment) : read(message);
  const clauses = reading.sentences.flatMap((s) => s.clauses);
  expect(clauses).toHaveLength(1);
  return clauses[0]!;
}
/** A segmenter that cut every Han character off on its own ("林夏雪" → 林 夏 雪). */
const byCharacter = characterSegmenter;
/** A segmenter that keeps a Han run whole, as a dictionary does for a word it knows. */
const wholeRun: Segmenter = (run) => [run];

const orders = (message: string, titles: string[] = [], segment?: Segmenter): FileOrder[] =>
  fileOrdersOf(clauseOf(message, segment), titles);
const chapter = (from: number, to = from): Target => ({ kind: 'unit', unit: { kind: 'chapter', from, to } });
const title = (t: string): Target => ({ kind: 'title', title: t });
const order = (action: FileOrder['action'], targets: Target[], except: Target[] = []): FileOrder => ({
  action,
  targets,
  except,
  implicit: false,
});

describe('a file title is read as one reference, the longest first', () => {
  test('"Notes and Ideas" is that file, not "Notes" followed by other words', () => {
    expect(orders('delete Notes and Ideas', ['Notes', 'Notes and Ideas'])).toEqual([
      order('delete', [title('Notes and Ideas')]),
    ]);
  });

  test('a file named like a grammar phrase ("The Rest") is that file, not "the rest"', () => {
    expect(orders('delete The Rest', ['The Rest'])).toEqual([order('delete', [title('The Rest')])]);
  });

  test('a title in 《》 is the file (the marks are skipped)', () => {
    expect(orders('删掉《大纲》', ['大纲'])).toEqual([order('delete', [title('大纲')])]);
  });

  test('a title and a chapter side by side are both named', () => {
    expect(orders('Delete Prologue Chapter 1', ['Prologue'])).toEqual([
      order('delete', [title('Prologue'), chapter(1)]),
    ]);
  });

  test.each([
    ['delete outline notes', ['Outline', 'Notes']],
    ['删掉大纲笔记', ['大纲', '笔记']],
  ])(
    '"%s": two titles side by side with nothing joining them are not an order (the second is no exception, no model)',
    (m, titles) => {
      expect(orders(m, titles)).toEqual([]);
    },
  );
});

describe('a name that goes on past a title is another name', () => {
  test('"Anna Marsh" does not open with the file "Anna"', () => {
    expect(openingTargets(clauseOf('Anna Marsh is a mess'), ['Anna'])).toBeNull();
  });

  test('"林夏雪" cut 林/夏/雪 does not open with the file "林夏"', () => {
    expect(openingTargets(clauseOf('林夏雪写得不好', byCharacter), ['林夏'])).toBeNull();
  });

  test('a Han character after a space does not continue "林夏": the order names the file', () => {
    expect(orders('把林夏 重写一下', ['林夏'], byCharacter)).toEqual([order('rewrite', [title('林夏')])]);
  });

  test('a number set apart by more than a space is not part of the title', () => {
    expect(openingTargets(clauseOf('Notes  2 scenes there are weak'), ['Notes'])).toEqual([title('Notes')]);
  });
});

describe('a mistyped English verb is read as the verb when the rest is an order', () => {
  test.each([
    ['delte chapter 3', 'a letter missing'],
    ['deleete chapter 3', 'a letter doubled'],
    ['selete chapter 3', 'the first letter wrong'],
    ['rmeove chapter 3', 'two letters swapped'],
  ])('"%s" (%s) deletes chapter 3', (m) => {
    expect(orders(m)).toEqual([order('delete', [chapter(3)])]);
  });

  test.each([
    ['puase the job', 'pause'],
    ['pausd the job', 'pause'],
    ['cacnel the job', 'cancel'],
  ])('"%s" is a %s order', (m, action) => {
    expect(jobOrderOf(clauseOf(m))).toEqual({ action });
  });
});

describe('a word that is not one typo from a verb, or is its own form, is no verb', () => {
  test.each([
    ['dilute chapter 3', 'two letters differ'],
    ['delted chapter 3', 'a swap and a wrong letter'],
    ['deleed chapter 3', 'two letters wrong'],
    ['deletes chapter 3', 'a description, not an order'],
    ['re-move chapter 3', 'moving again, not removing'],
  ])('"%s" (%s) is not an order', (m) => {
    expect(orders(m)).toEqual([]);
  });

  test.each([
    ['canlec the job', 'letters swapped across the word'],
    ['pease the job', 'two letters wrong'],
    ['paus the job', 'too short to guess'],
  ])('"%s" (%s) is not a job order', (m) => {
    expect(jobOrderOf(clauseOf(m))).toBeNull();
  });
});

describe('what a target may be', () => {
  test.each([
    ['delete it', 'en'],
    ['删掉这个', 'zh'],
    ['remove all those', 'en, after a determiner'],
  ])('"%s" points at the open file (%s)', (m) => {
    expect(orders(m)).toEqual([order('delete', [{ kind: 'pointer' }])]);
  });

  test.each(['delete the rest', '删掉其他的'])('"%s" names the files not named', (m) => {
    expect(orders(m)).toEqual([order('delete', [{ kind: 'rest' }])]);
  });

  test('two chapters side by side are a list', () => {
    expect(orders('删掉第三章第四章')).toEqual([order('delete', [chapter(3), chapter(4)])]);
  });

  test('a bare number is no file', () => {
    expect(orders('delete 3')).toEqual([]);
  });
});

describe('a chapter named with its subtitle', () => {
  test.each([
    ['删掉第三章 灯塔', '第3章 灯塔'],
    ['删掉第十二章 灯塔', '第12章 灯塔'],
    ['删掉第三章 灯塔', '第 3 章 灯塔'],
    ['删掉第三章灯塔', '第3章灯塔'],
    ['delete chapter 12 The Reef', 'Chapter Twelve - The Reef'],
    ['delete chapter 3 The Lighthouse', 'Chapter  Three - The Lighthouse'],
    ['delete chapter 3 The Lighthouse', 'Chapter Three The Lighthouse'],
    ['delete chapter 3 The Lighthouse', ' Chapter Three - The Lighthouse '],
  ])('"%s" deletes the chapter titled "%s"', (m, t) => {
    expect(orders(m, [t])).toEqual([order('delete', [{ kind: 'title', title: t }])]);
  });

  test('a title that only mentions a chapter lends it no subtitle', () => {
    expect(orders('delete chapter 2 draft', ['Notes on Chapter 2 draft'])).toEqual([]);
  });
});

describe('exceptions', () => {
  test.each([
    ['delete chapters 1 to 5 except 3', [chapter(1, 5)], [{ kind: 'number', n: 3 }]],
    ['delete chapters 10 to 15 except 12', [chapter(10, 15)], [{ kind: 'number', n: 12 }]],
    ['删除第1到5章除了第3章', [chapter(1, 5)], [chapter(3)]],
  ] as [string, Target[], Target[]][])('"%s" leaves the exception out', (m, targets, except) => {
    expect(orders(m)).toEqual([order('delete', targets, except)]);
  });

  test('an exception that is no whole number is not read ("except 3.5")', () => {
    expect(orders('delete chapters 1 to 5 except 3.5')).toEqual([]);
  });

  test('"not now" after the object takes the order back: nothing is read', () => {
    expect(orders('delete chapter 3 not now')).toEqual([]);
  });
});

describe('closing words', () => {
  test('a rewrite may end "over again"', () => {
    expect(orders('rewrite chapter 3 over again')).toEqual([order('rewrite', [chapter(3)])]);
  });

  test('a delete may not ("over again" is not accounted for)', () => {
    expect(orders('delete chapter 3 over again')).toEqual([]);
  });
});

describe('"删了" told as a report is not an order', () => {
  test('"第三章删除掉了" reports a delete', () => {
    expect(orders('第三章删除掉了')).toEqual([]);
  });

  test('"行吧第三章删了": a 吧 before the verb does not soften it', () => {
    expect(orders('行吧第三章删了')).toEqual([]);
  });

  test('with 吧 after it, it is an order', () => {
    expect(orders('第三章删除掉吧')).toEqual([order('delete', [chapter(3)])]);
  });
});

describe('accountFor cuts a Han word into the fewest phrases', () => {
  test('"好好写" is 好好 + 写 (write it well), not 好 + 好写', () => {
    const lists = { adverb: ['好好'], verb: ['写'], judgement: ['好', '好写'] };
    expect(accountFor(clauseOf('好好写', wholeRun), lists)).toEqual({ adverb: 1, verb: 1, judgement: 0 });
  });
});
