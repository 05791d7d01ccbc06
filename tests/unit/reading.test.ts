/**
 * How a message is first read (core/words/reading.ts): words with their offsets in the message,
 * unit references as one word that knows its numbers, Chinese cut by the segmenter, and the
 * recorded cuts (wordEnds / recordedSegmenter) that let the workflow read the same words on
 * every replay.
 */
import {
  allWords,
  characterSegmenter,
  readMessage,
  recordedSegmenter,
  RECORDED_CHARS,
  type Segmenter,
  type Word,
  wordEnds,
} from '../../src/core/words/reading';

const wordsOf = (message: string, segment: Segmenter = characterSegmenter): Word[] =>
  allWords(readMessage(message, segment));
const texts = (message: string, segment?: Segmenter): string[] => wordsOf(message, segment).map((w) => w.text);
/** Every word's text is the message's text at its offsets. */
const atTheirOffsets = (message: string, segment?: Segmenter): void => {
  const reading = readMessage(message, segment ?? characterSegmenter);
  for (const w of allWords(reading)) expect(reading.text.slice(w.start, w.end)).toBe(w.text);
};
/** A segmenter that cuts Han runs in two-character words ("删掉", "第四"). */
const pairs: Segmenter = (run) => run.match(/.{1,2}/gu) ?? [];

describe('words keep their place in the message', () => {
  test.each([
    'Fine, delete chapter 4 now',
    'OK - delete chapters 2 and 5 please, and chapter 7 too',
    '好的，删掉第四章和第五章吧',
    '好的，把第三、四章删了，然后重写第五章',
    'ok, 删掉第2-5章 now',
  ])('"%s": each word at its offsets', (m) => {
    atTheirOffsets(m);
    atTheirOffsets(m, pairs);
  });

  test('every word of every sentence, in order', () => {
    expect(texts('Hi. Delete chapter 4, please')).toEqual(['Hi', 'Delete', 'chapter 4', 'please']);
    expect(texts('好的。删掉吧')).toEqual(['好', '的', '删', '掉', '吧']);
  });

  test('a segmenter that yields an empty piece adds no empty word', () => {
    const withEmpty: Segmenter = (run, offset) => ['', ...pairs(run, offset), ''];
    expect(texts('删掉第四', withEmpty)).toEqual(['删掉', '第四']);
  });

  test('Han words run on from each other', () => {
    expect(wordsOf('ok 删掉它', pairs).map((w) => [w.text, w.start, w.end])).toEqual([
      ['ok', 0, 2],
      ['删掉', 3, 5],
      ['它', 5, 6],
    ]);
  });
});

describe('a word knows what it is', () => {
  test('letters, numbers, punctuation and emoji', () => {
    const kinds = wordsOf('ok - delete #3 @ 🙏 now').map((w) => [w.text, w.kind]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['ok', 'word'],
        ['#', 'punct'],
        ['3', 'number'],
        ['@', 'punct'],
      ]),
    );
  });
});

describe('a unit reference is one word that knows its numbers', () => {
  test('a list is one word with its numbers; its span runs from the lowest to the highest', () => {
    const unit = wordsOf('Fine, delete chapters 2 and 5 now').find((w) => w.kind === 'unit')!;
    expect(unit.text).toBe('chapters 2 and 5');
    expect(unit.unit).toEqual({ kind: 'chapter', from: 2, to: 5, list: [2, 5] });
  });

  test('a range inside a list counts every number of it', () => {
    const unit = wordsOf('delete chapters 2-3 and 5').find((w) => w.kind === 'unit')!;
    expect(unit.unit?.list).toEqual([2, 3, 5]);
    expect(wordsOf('第三、四章删了')[0]!.unit).toEqual({ kind: 'chapter', from: 3, to: 4, list: [3, 4] });
  });

  test('a range is one word without a list', () => {
    const [unit] = wordsOf('第2-5章').filter((w) => w.kind === 'unit');
    expect(unit!.unit).toEqual({ kind: 'chapter', from: 2, to: 5 });
  });

  test('two references are two words', () => {
    const units = wordsOf('删掉第三章和第五章吧').filter((w) => w.kind === 'unit');
    expect(units.map((w) => [w.text, w.unit!.from, w.unit!.to])).toEqual([
      ['第三章', 3, 3],
      ['第五章', 5, 5],
    ]);
  });

  test('references that overlap are read once', () => {
    // "first chapter" and "chapter 2" overlap: "2 times" is a count here.
    expect(texts('polish the first chapter 2 times')).toEqual(['polish', 'the', 'first chapter', '2', 'times']);
  });

  test('a reference in a later clause keeps its offsets', () => {
    const m = 'ok, then delete ch 3 and ch 5 now';
    atTheirOffsets(m);
    expect(texts(m)).toEqual(['ok', 'delete', 'ch 3', 'and', 'ch 5', 'now']);
  });
});

describe('recorded cuts rebuild the same words', () => {
  const message = 'ok，删掉第四章吧。再写一章';

  test('wordEnds records where each Han word ends; recordedSegmenter cuts there again', () => {
    const ends = wordEnds(message, pairs);
    expect(ends).toEqual([5, 7, 9, 12, 14]);
    expect(texts(message, recordedSegmenter(ends))).toEqual(texts(message, pairs));
  });

  test('a message without Han records nothing', () => expect(wordEnds('delete chapter 4', pairs)).toEqual([]));

  test('the last piece of a run ends at the run even when no cut was recorded there', () => {
    expect(recordedSegmenter([])('删掉第四章', 0)).toEqual(['删掉第四章']);
    expect(recordedSegmenter([12])('删掉第四章', 10)).toEqual(['删掉', '第四章']);
  });

  test('Han runs past the recorded length are neither recorded nor cut by a recording', () => {
    const far = `${'a '.repeat(RECORDED_CHARS / 2)}删掉它`;
    expect(wordEnds(far, pairs)).toEqual([]);
    const near = `${'a '.repeat(RECORDED_CHARS / 2 - 2)}删掉它`;
    expect(wordEnds(near, pairs)).toEqual([RECORDED_CHARS - 2, RECORDED_CHARS - 1]);
    expect(recordedSegmenter([RECORDED_CHARS + 2])('删掉它', RECORDED_CHARS)).toEqual(['删', '掉', '它']);
    expect(recordedSegmenter([RECORDED_CHARS + 1])('删掉它', RECORDED_CHARS - 1)).toEqual(['删掉', '它']);
  });
});
