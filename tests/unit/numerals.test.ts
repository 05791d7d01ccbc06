/**
 * One numeral parser: Arabic, full-width, Chinese and English numerals are
 * equal in chapter references, ranges, titles and length requirements.
 */
import {
  findLengthMentions,
  findUnitRefs,
  formatUnitRange,
  halfWidthDigits,
  MAX_RANGE_SPAN,
  parseChineseNumeral,
  parseEnglishNumber,
  parseNumber,
  parseUnitRange,
  unitNumbers,
  unitOfTitle,
} from '../../src/core/words/numerals';
import { planUnits } from '../../src/core/model/file-stream';
import { chapterOf } from '../../src/activities/job/job-files';
import { findLengthRequirements } from '../../src/core/words/routing';

const refs = (text: string) => findUnitRefs(text).map((r) => [r.kind, r.from, r.to]);

describe('numbers', () => {
  test.each([
    ['一', 1],
    ['九', 9],
    ['十', 10],
    ['十二', 12],
    ['二十', 20],
    ['二十三', 23],
    ['两', 2],
    ['一百', 100],
    ['一百零五', 105],
    ['一百二十', 120],
    ['两千', 2000],
    ['三千五百', 3500],
    ['一千零一', 1001],
    ['万', 10000],
    ['三万', 30000],
    ['一万五千', 15000],
    ['十万', 100000],
    ['二十万零三', 200003],
    ['零', 0],
    ['〇', 0],
    ['二〇二六', 2026],
    ['廿三', 23],
    ['卅', 30],
    ['廿', 20],
  ])('Chinese %s = %d', (zh, n) => expect(parseChineseNumeral(zh)).toBe(n));

  test.each(['', '三a', 'x', '章'])('"%s" is not a Chinese numeral', (s) => expect(parseChineseNumeral(s)).toBeNull());

  test.each([
    ['one', 1],
    ['zero', 0],
    ['ten', 10],
    ['Twelve', 12],
    ['nineteen', 19],
    ['seventeen', 17],
    ['twenty', 20],
    ['twenty-one', 21],
    ['ninety nine', 99],
    ['forty-two', 42],
  ])('English %s = %d', (w, n) => expect(parseEnglishNumber(w)).toBe(n));

  test.each(['', 'eleventy', 'twenty-ten', 'twenty-zero', 'one two', 'ten-one', 'twenty one two', 'hundred'])(
    '"%s" is not an English number',
    (w) => expect(parseEnglishNumber(w)).toBeNull(),
  );

  test.each([
    ['12', 12],
    ['１２', 12],
    ['2,000', 2000],
    ['2，000', 2000],
    ['1,234,567', 1234567],
    ['1.5', 2],
    ['3k', 3000],
    ['3K', 3000],
    ['1.5k', 1500],
    ['3千', 3000],
    ['1.5万', 15000],
    ['3w', 30000],
    ['3W', 30000],
    ['两千', 2000],
    ['twenty-one', 21],
    [' 7 ', 7],
  ])('parseNumber(%s) = %d', (t, n) => expect(parseNumber(t)).toBe(n));

  test.each(['1,5', 'abc', '3m', '', '12a'])('parseNumber("%s") is null', (t) => expect(parseNumber(t)).toBeNull());

  test('full-width digits become ASCII, nothing else changes', () => {
    expect(halfWidthDigits('第１２章，０９')).toBe('第12章，09');
    expect(halfWidthDigits('abc 12')).toBe('abc 12');
  });
});

describe('unit references', () => {
  test('第十章 = 第10章 = Chapter 10 = Chapter Ten', () => {
    for (const t of ['第十章', '第10章', '第１０章', 'Chapter 10', 'chapter ten', 'Ch. 10', 'ch10', 'CH 10'])
      expect(refs(t)).toEqual([['chapter', 10, 10]]);
  });
  test('episodes and acts are their own kinds', () => {
    expect(refs('第3集')).toEqual([['episode', 3, 3]]);
    expect(refs('Episode 3')).toEqual([['episode', 3, 3]]);
    expect(refs('ep. 4')).toEqual([['episode', 4, 4]]);
    expect(refs('第二幕')).toEqual([['act', 2, 2]]);
    expect(refs('Act 2')).toEqual([['act', 2, 2]]);
    expect(refs('第五回')).toEqual([['chapter', 5, 5]]);
    expect(refs('第五节')).toEqual([]);
  });
  test('ranges: 第2-5集, 第二至五章, 第2章到第5章, 前三章, chapters 2–5, 2 to 5, 2 through 5', () => {
    expect(refs('写第2-5集')).toEqual([['episode', 2, 5]]);
    expect(refs('第二至五章')).toEqual([['chapter', 2, 5]]);
    expect(refs('第2章到第5章')).toEqual([['chapter', 2, 5]]);
    expect(refs('第2～5章')).toEqual([['chapter', 2, 5]]);
    expect(refs('第5-2章')).toEqual([['chapter', 2, 5]]);
    expect(refs('前三章')).toEqual([['chapter', 1, 3]]);
    expect(refs('chapters 2–5')).toEqual([['chapter', 2, 5]]);
    expect(refs('chapters 2 to 5')).toEqual([['chapter', 2, 5]]);
    expect(refs('Chapters 2 through 5')).toEqual([['chapter', 2, 5]]);
    expect(refs('episodes 2-4')).toEqual([['episode', 2, 4]]);
  });
  test('lists give one reference per number; a list may end in a range', () => {
    expect(refs('chapters 2 and 5')).toEqual([
      ['chapter', 2, 2],
      ['chapter', 5, 5],
    ]);
    expect(refs('chapters 1, 3-5')).toEqual([
      ['chapter', 1, 1],
      ['chapter', 3, 5],
    ]);
    expect(refs('chapters 1-3, 7 & 9')).toEqual([
      ['chapter', 1, 3],
      ['chapter', 7, 7],
      ['chapter', 9, 9],
    ]);
  });
  test('a number with a length unit is not a unit', () => {
    expect(refs('expand chapter 3 to 5000 words')).toEqual([['chapter', 3, 3]]);
    expect(refs('chapter 3, 2000 characters')).toEqual([['chapter', 3, 3]]);
    expect(refs('chapter 3 and 3k')).toEqual([['chapter', 3, 3]]);
    expect(refs('chapter 2000字')).toEqual([]);
  });
  test('references come in text order with their offsets', () => {
    const text = 'keep Chapter 1, delete 第十章';
    const found = findUnitRefs(text);
    expect(found.map((r) => text.slice(r.start, r.end))).toEqual(['Chapter 1', '第十章']);
  });
  test('no reference: words that only contain a unit word, numbers without a unit, unit 0', () => {
    expect(refs('each 3 teachers')).toEqual([]);
    expect(refs('写3章')).toEqual([]);
    expect(refs('第0章')).toEqual([]);
    expect(refs('chapter')).toEqual([]);
  });
  test('unitNumbers expands ranges, de-duplicates and sorts; huge ranges count their ends only', () => {
    expect(unitNumbers('第3章, chapter 1, 第2-4章')).toEqual([1, 2, 3, 4]);
    expect(unitNumbers(`chapters 1-${MAX_RANGE_SPAN + 5}`)).toEqual([1, MAX_RANGE_SPAN + 5]);
    expect(unitNumbers(`chapters 1-${MAX_RANGE_SPAN + 1}`)).toHaveLength(MAX_RANGE_SPAN + 1);
  });
  test('planUnits reads Chinese numerals, so a 第一章… plan pasted in chat is seen', () => {
    const plan = ['第一章：风起', '第二章：夜航', '第三章：暗礁', '第四章：灯塔', '第五章：归港'].join('\n');
    expect(planUnits(plan)).toEqual([1, 2, 3, 4, 5]);
  });
  test('titles: the first unit named, or null', () => {
    expect(unitOfTitle('第一章 风暴')).toEqual({ kind: 'chapter', n: 1 });
    expect(unitOfTitle('Chapter 12: The Reef (after chapter 3)')).toEqual({ kind: 'chapter', n: 12 });
    expect(unitOfTitle('Prologue')).toBeNull();
  });
  test('parseUnitRange gives the first range for task boards', () => {
    expect(parseUnitRange('写第2-5集')).toEqual({ kind: 'episode', from: 2, to: 5 });
    expect(parseUnitRange('chapter 3 then chapter 4')).toEqual({ kind: 'chapter', from: 3, to: 3 });
    expect(parseUnitRange('nothing here')).toBeNull();
  });
  test('formatUnitRange reads back in the author’s language', () => {
    expect(formatUnitRange({ kind: 'chapter', from: 2, to: 2 }, 'zh')).toBe('第2章');
    expect(formatUnitRange({ kind: 'episode', from: 2, to: 5 }, 'zh')).toBe('第2-5集');
    expect(formatUnitRange({ kind: 'act', from: 1, to: 1 }, 'zh')).toBe('第1幕');
    expect(formatUnitRange({ kind: 'chapter', from: 2, to: 2 }, 'en')).toBe('chapter 2');
    expect(formatUnitRange({ kind: 'episode', from: 2, to: 5 }, 'en')).toBe('episodes 2–5');
    expect(formatUnitRange({ kind: 'act', from: 3, to: 3 }, 'en')).toBe('act 3');
  });
});

describe('length requirements', () => {
  const len = (t: string) => findLengthMentions(t).map((m) => [m.min, m.max, m.unit]);
  test.each([
    ['两千字', 2000, 2000, 'zi'],
    ['三千字左右', 3000, 3000, 'zi'],
    ['3k words', 3000, 3000, 'words'],
    ['about 2,000 words', 2000, 2000, 'words'],
    ['1.5万字', 15000, 15000, 'zi'],
    ['2000-3000字', 2000, 3000, 'zi'],
    ['2000到3000字', 2000, 3000, 'zi'],
    ['两三千字', 2000, 3000, 'zi'],
    ['五千个字', 5000, 5000, 'zi'],
    ['５０００字', 5000, 5000, 'zi'],
    ['3000 characters', 3000, 3000, 'zi'],
    ['1 word'.replace('1', '800'), 800, 800, 'words'],
    ['3000-2000 words', 2000, 3000, 'words'],
    ['五十字', 50, 50, 'zi'],
  ])('%s', (t, min, max, unit) => expect(len(t as string)).toEqual([[min, max, unit]]));
  test.each(['一字不改', '十字路口', '四十九字', 'three words', 'chapter 3'])('"%s" is no length requirement', (t) =>
    expect(len(t)).toEqual([]),
  );
  test('offsets point at the mention', () => {
    const t = '写第三章，3000字左右';
    const [m] = findLengthMentions(t);
    expect(t.slice(m!.start, m!.end)).toBe('3000字');
  });
  test('findLengthRequirements returns each sentence once, with Chinese numerals and decimals kept whole', () => {
    expect(findLengthRequirements('Write chapter 3, about 2,000 words. Keep it tense.')).toEqual([
      'Write chapter 3, about 2,000 words',
    ]);
    expect(findLengthRequirements('写第三章，两千字左右。节奏快一点')).toEqual(['写第三章，两千字左右']);
    expect(findLengthRequirements('先想想。第二章要1.5万字！')).toEqual(['第二章要1.5万字']);
    expect(findLengthRequirements('3k words? Fine, 3k words')).toEqual(['3k words', 'Fine, 3k words']);
    expect(findLengthRequirements('3000字，3000字')).toEqual(['3000字，3000字']);
    expect(findLengthRequirements('no numbers here')).toEqual([]);
  });
});

test('jobs read chapter titles with the same parser: 第七章 = 第7章 = Chapter 7; episodes are not chapters', () => {
  expect(['第七章 风暴', '第7章', 'Chapter 7: Reef', 'chapter seven', 'Ch. 7'].map(chapterOf)).toEqual([7, 7, 7, 7, 7]);
  expect(chapterOf('第7集')).toBeNull();
  expect(chapterOf('Prologue')).toBeNull();
});
