/**
 * The reviewer's fact check: quotations the draft gives as earlier words are looked for word for
 * word in the earlier text, and ages and birth years it states about a character are compared
 * with the cards — in English and Chinese, in any numeral. Only clear contradictions count.
 */
import { checkFacts, type FactCheckInput } from '../../src/core/book/fact-check';
import { factCheckLines } from '../../src/core/book/fact-check-lines';

const check = (input: Partial<FactCheckInput>) => checkFacts({ drafts: [], earlier: [], cards: [], ...input });

const maraCard = {
  title: 'Mara Quinn',
  type: 'character',
  content: 'Mara, 34, harbour pilot. Born in 1990 in Saltmarsh.',
};
const linCard = { title: '林夏（女主角）', type: 'character', content: '林夏，二十七岁，报社记者。生于1998年。' };

describe('numbers stated about a character', () => {
  test('an age that contradicts the card is found, with both texts', () => {
    const r = check({
      drafts: [{ title: 'Chapter 3', content: 'At dawn Mara, 35, climbed aboard.' }],
      cards: [maraCard],
    });
    expect(r.findings).toEqual([
      {
        kind: 'number',
        file: 'Chapter 3',
        subject: 'Mara',
        fact: 'age',
        stated: { value: 35, text: 'Mara, 35' },
        card: { title: 'Mara Quinn', value: 34, text: 'Mara, 34' },
      },
    ]);
    expect(factCheckLines(r, 'en', 500)).toEqual([
      '[fact check] “Chapter 3” says “Mara, 35” (age 35); the card “Mara Quinn” says “Mara, 34” (age 34).',
    ]);
  });

  test('a consistent statement is not flagged, in words or digits', () => {
    for (const content of [
      'Mara, thirty-four, climbed aboard.',
      'Mara Quinn was 34.',
      'The 34-year-old Mara smiled.',
    ]) {
      const r = check({ drafts: [{ title: 'Chapter 3', content }], cards: [maraCard] });
      expect(r.numbersChecked).toBe(1);
      expect(r.findings).toEqual([]);
    }
  });

  test('an age said of a past moment or as a round figure is no claim about now', () => {
    const drafts = [
      {
        title: 'Chapter 1',
        content: 'When Mara was 12, the harbour froze. 林夏十岁那年，父亲走了。她看着三十多岁的林夏。',
      },
    ];
    const r = check({ drafts, cards: [maraCard, linCard] });
    expect(r.numbersChecked).toBe(0);
    expect(r.findings).toEqual([]);
  });

  test('Chinese numerals and Arabic digits are the same numbers', () => {
    const consistent = check({ drafts: [{ title: '第三章', content: '27岁的林夏推开门。' }], cards: [linCard] });
    expect(consistent.numbersChecked).toBe(1);
    expect(consistent.findings).toEqual([]);
    const r = check({ drafts: [{ title: '第三章', content: '二十八岁的林夏推开门。' }], cards: [linCard] });
    expect(r.findings).toMatchObject([
      {
        kind: 'number',
        subject: '林夏',
        stated: { value: 28, text: '二十八岁的林夏' },
        card: { value: 27, text: '林夏，二十七岁' },
      },
    ]);
    expect(factCheckLines(r, 'zh', 500)).toEqual([
      '[fact check] 《第三章》写“二十八岁的林夏”（28 岁），卡片《林夏（女主角）》写“林夏，二十七岁”（27 岁）。',
    ]);
  });

  test('a birth year that contradicts the card is found, in Chinese digits too', () => {
    const r = check({ drafts: [{ title: '第五章', content: '林夏生于一九九九年，那年冬天很冷。' }], cards: [linCard] });
    expect(r.findings).toMatchObject([{ fact: 'born', stated: { value: 1999 }, card: { value: 1998 } }]);
    const en = check({ drafts: [{ title: 'Chapter 5', content: 'Mara was born in 1990.' }], cards: [maraCard] });
    expect(en).toMatchObject({ numbersChecked: 1, findings: [] });
  });

  test('a card that gives a name two ages gives none: nothing is guessed', () => {
    const cards = [
      { title: 'Tom', type: 'character', content: 'Age: 12. His sister is 9 years old.' },
      { title: 'Ada', type: 'character', content: 'Ada, 40.' },
      { title: 'The crew', type: 'setting', content: 'Ada, 41, keeps the log.' },
    ];
    const r = check({ drafts: [{ title: 'Chapter 2', content: 'Tom, 13, and Ada, 42, ran.' }], cards });
    expect(r.numbersChecked).toBe(0);
  });
});

describe('quotations given as earlier words', () => {
  const earlier = [
    { title: 'Chapter 2', content: 'He said it once, at the quay: "Never trust the tide after dark." Then he left.' },
  ];

  test('a remembered line found word for word is not flagged', () => {
    const drafts = [
      { title: 'Chapter 6', content: 'She remembered what he had said: “Never trust the tide after dark.”' },
    ];
    const r = check({ drafts, earlier });
    expect(r.quotes).toEqual({ checked: 1, found: 1 });
    expect(r.findings).toEqual([]);
  });

  test('a misquoted line is found, with the earlier words', () => {
    const drafts = [
      { title: 'Chapter 6', content: 'She remembered his words: "Never trust the tide after midnight."' },
    ];
    const r = check({ drafts, earlier });
    expect(r.findings).toEqual([
      {
        kind: 'quote',
        file: 'Chapter 6',
        quote: 'Never trust the tide after midnight',
        closest: { file: 'Chapter 2', text: 'Never trust the tide after dark' },
      },
    ]);
    expect(factCheckLines(r, 'en', 500)[0]).toMatch(
      /^\[fact check\] “Chapter 6” gives “Never trust the tide after midnight”/,
    );
  });

  test('a line quoted from a named chapter that no chapter has is flagged; an off-page memory is not', () => {
    const named = check({
      drafts: [{ title: '第六章', content: '她想起第二章里他说的话：“潮水退了就别回头看。”' }],
      earlier: [{ title: '第二章', content: '他站在码头上，一句话也没说。' }],
    });
    expect(named.findings).toMatchObject([{ kind: 'quote', quote: '潮水退了就别回头看' }]);
    expect(factCheckLines(named, 'zh', 500)).toEqual([
      '[fact check] 《第六章》说“潮水退了就别回头看”出自前面的章节，但前面的章节里没有一字不差的这句。',
    ]);
    const memory = check({
      drafts: [{ title: '第六章', content: '她想起母亲说过的话：“潮水退了就别回头看。”' }],
      earlier: [{ title: '第二章', content: '他站在码头上，一句话也没说。' }],
    });
    expect(memory).toMatchObject({ quotes: { checked: 1, found: 0 }, findings: [] });
  });

  test('a Chinese line quoted in 「」 is found in the earlier chapter', () => {
    const r = check({
      drafts: [{ title: '第六章', content: '她想起他说过的那句「潮水退了，就别回头看」，眼眶一热。' }],
      earlier: [{ title: '第二章', content: '他说：“潮水退了，就别回头看。”' }],
    });
    expect(r).toMatchObject({ quotes: { checked: 1, found: 1 }, findings: [] });
  });

  test('plain dialogue is not taken for a quotation', () => {
    const r = check({
      drafts: [{ title: '第六章', content: '“我们现在就得出发了。”林夏说。"We have to leave right now," Mara said.' }],
      earlier,
    });
    expect(r.quotes.checked).toBe(0);
  });
});

test('a check stopped by its time says it was cut short', () => {
  const drafts = [{ title: 'Chapter 3', content: 'Mara, 35, remembered it: "Never trust the tide after midnight."' }];
  const earlier = [{ title: 'Chapter 2', content: '"Never trust the tide after dark."' }];
  const r = check({ drafts, earlier, cards: [maraCard], stop: () => true });
  expect(r).toMatchObject({ cutShort: true, quotes: { checked: 0 }, numbersChecked: 0, findings: [] });
  expect(factCheckLines(r, 'en', 500)).toEqual([
    "[fact check] Cut short at the 0.5 s limit: the rest of this turn's text was not checked against the earlier chapters and the cards.",
  ]);
  expect(factCheckLines(null, 'zh', 500)[0]).toContain('0.5 秒内没有读到');
  expect(factCheckLines(check({}), 'en', 500)).toEqual([]);
});
