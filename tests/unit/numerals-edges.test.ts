/**
 * Edges of the numeral parser: capitalised and spaced English numbers, decimals with a scale,
 * ordinals ("the third chapter", "12th episode"), lists and bare ranges ("第3、4章", "一到三章"),
 * chapter 0 and ranges that touch or overlap, and length ranges whose low end is small.
 */
import {
  englishNumberWord,
  findLengthMentions,
  findUnitRefs,
  parseEnglishNumber,
  parseNumber,
  unitNumbers,
} from '../../src/core/words/numerals';

const refs = (text: string) => findUnitRefs(text).map((r) => [r.kind, r.from, r.to]);
/** The text each reference was read from. */
const spans = (text: string) => findUnitRefs(text).map((r) => text.slice(r.start, r.end));

describe('number words', () => {
  test('English numbers are read whatever their case and however many spaces separate them', () => {
    expect(parseEnglishNumber('Ten')).toBe(10);
    expect(parseEnglishNumber('TWENTY-ONE')).toBe(21);
    expect(parseEnglishNumber('twenty  one')).toBe(21);
    expect(parseNumber('Twelve')).toBe(12);
  });

  test('English number words are written the way they are read back, up to ninety-nine', () => {
    expect(englishNumberWord(0)).toBe('zero');
    expect(englishNumberWord(9)).toBe('nine');
    expect(englishNumberWord(19)).toBe('nineteen');
    expect(englishNumberWord(20)).toBe('twenty');
    expect(englishNumberWord(21)).toBe('twenty-one');
    expect(englishNumberWord(99)).toBe('ninety-nine');
    for (let n = 0; n <= 99; n++) expect(parseEnglishNumber(englishNumberWord(n)!)).toBe(n);
    expect(englishNumberWord(100)).toBeNull();
    expect(englishNumberWord(-1)).toBeNull();
    expect(englishNumberWord(2.5)).toBeNull();
  });

  test('a decimal with more than one digit after the point keeps its scale', () => {
    expect(parseNumber('1.25万')).toBe(12500);
    expect(parseNumber('2.75k')).toBe(2750);
  });
});

describe('English ordinals and unit words', () => {
  test('an ordinal word before the unit names that unit', () => {
    expect(refs('Please rewrite the first chapter')).toEqual([['chapter', 1, 1]]);
    expect(refs('the third chapter feels slow')).toEqual([['chapter', 3, 3]]);
    expect(refs('The Second Episode needs a cliffhanger')).toEqual([['episode', 2, 2]]);
    expect(refs('the twentieth act')).toEqual([['act', 20, 20]]);
  });

  test('a numeric ordinal before the unit names that unit, with its text', () => {
    expect(refs('expand the 12th episode')).toEqual([['episode', 12, 12]]);
    expect(refs('the 3rd chapter')).toEqual([['chapter', 3, 3]]);
    expect(spans('please expand the 12th episode now')).toEqual(['12th episode']);
  });

  test('"acts" is a unit of acts, like "act"', () => {
    expect(refs('acts 2 and 3')).toEqual([
      ['act', 2, 2],
      ['act', 3, 3],
    ]);
  });
});

describe('unit zero and backwards ranges to zero name nothing', () => {
  test.each(['第0章', '第零章', 'chapter 0', '第0-3章', '第3-0章', 'chapters 0-3', 'chapters 3-0', '前零章'])(
    '%s',
    (text) => {
      expect(findUnitRefs(text)).toEqual([]);
    },
  );
});

describe('references that touch or overlap', () => {
  test('a chapter right after a range is still read', () => {
    expect(refs('第1-2章第3章')).toEqual([
      ['chapter', 1, 2],
      ['chapter', 3, 3],
    ]);
  });

  test('a chapter right before a range is still read', () => {
    expect(refs('第3章第5-6章')).toEqual([
      ['chapter', 3, 3],
      ['chapter', 5, 6],
    ]);
  });

  test('a list that runs into a range is not read twice: references never overlap', () => {
    const text = '第1、第2章至第3章';
    const found = findUnitRefs(text);
    expect(found.map((r) => [r.from, r.to])).toContainEqual([2, 3]);
    for (const a of found) for (const b of found) if (a !== b) expect(a.end <= b.start || b.end <= a.start).toBe(true);
  });

  test('"第 1-3章" with a space is one range, not also a bare range', () => {
    expect(refs('第 1-3章')).toEqual([['chapter', 1, 3]]);
    expect(refs('第 2 至 5 集')).toEqual([['episode', 2, 5]]);
  });
});

describe('Chinese lists', () => {
  test('"第3、4章" names chapters 3 and 4, each read from the whole list', () => {
    expect(refs('改一下第3、4章')).toEqual([
      ['chapter', 3, 3],
      ['chapter', 4, 4],
    ]);
    expect(spans('改一下第3、4章')).toEqual(['第3、4章', '第3、4章']);
  });

  test('Chinese numerals, 和 and a repeated 第 join a list', () => {
    expect(unitNumbers('第十、十一章')).toEqual([10, 11]);
    expect(unitNumbers('第四和第六集')).toEqual([4, 6]);
  });

  test('a list after a range is read as well', () => {
    expect(unitNumbers('第1-2章，第5、7章')).toEqual([1, 2, 5, 7]);
  });
});

describe('bare ranges and "first n"', () => {
  test('a range without 第 names every unit in it', () => {
    expect(refs('请写一到三章')).toEqual([['chapter', 1, 3]]);
    expect(refs('3-5集')).toEqual([['episode', 3, 5]]);
    expect(spans('请写一到三章吧')).toEqual(['一到三章']);
  });

  test('two bare ranges are both read', () => {
    expect(unitNumbers('1-2章和5-6章')).toEqual([1, 2, 5, 6]);
  });

  test('"前三章" is read from its own text', () => {
    expect(spans('先看前三章')).toEqual(['前三章']);
  });
});

describe('English lists', () => {
  test('an Oxford comma keeps a list a list, not a range', () => {
    expect(unitNumbers('chapters 3, 4, and 7')).toEqual([3, 4, 7]);
    expect(unitNumbers('chapters 2,and 6')).toEqual([2, 6]);
    expect(unitNumbers('chapters 2,  and 6')).toEqual([2, 6]);
  });
});

describe('length ranges', () => {
  test('a range is a requirement when its upper end is long enough', () => {
    expect(findLengthMentions('写30-3000字')).toEqual([expect.objectContaining({ min: 30, max: 3000, unit: 'zi' })]);
    expect(findLengthMentions('between 40 to 800 words')).toEqual([
      expect.objectContaining({ min: 40, max: 800, unit: 'words' }),
    ]);
  });
});
