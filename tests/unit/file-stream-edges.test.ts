/**
 * Edges of the `<file>` streaming protocol and the closing-question helpers: blank and
 * marker-like lines inside a body, fenced code with a language or an indent, one-line and empty
 * blocks, and closing words with quotations, asides, sign-offs and emoji, in both languages.
 */
import {
  closingWords,
  endsWithQuestion,
  FileStreamProcessor,
  lastQuestion,
  type StreamPiece,
} from '../../src/core/model/file-stream';

const run = (canCapture: boolean, deltas: string[]) => {
  const p = new FileStreamProcessor(canCapture);
  const pieces: StreamPiece[] = [...deltas.flatMap((d) => p.push(d)), ...p.end()];
  return { p, pieces };
};
const text = (pieces: StreamPiece[], kind: 'chat' | 'file') =>
  pieces
    .filter((x) => x.kind === kind)
    .map((x) => (x as { text: string }).text)
    .join('');
const kinds = (pieces: StreamPiece[]) => pieces.map((x) => x.kind);

describe('the body', () => {
  test('a blank line between paragraphs stays in the body and does not close it', () => {
    const { p, pieces } = run(true, ['<file>\n', '第一段。\n', '\n', '第二段。\n', '</file>\n', '写好了。']);
    expect(p.body).toBe('第一段。\n\n第二段。\n');
    expect(text(pieces, 'chat')).toBe('写好了。');
    expect(p.closed).toBe(true);
  });

  test('a body line that is only "<" or "</" is body text', () => {
    const { p } = run(true, ['<file>\nBefore\n<\n</\nAfter\n</file>\n']);
    expect(p.body).toBe('Before\n<\n</\nAfter\n');
  });

  test('a body line that starts with the closing marker but goes on does not close the body', () => {
    const { p } = run(true, ['<file>\n', '</file> ends a block in this format.\n', 'More.\n', '</file>\n']);
    expect(p.body).toBe('</file> ends a block in this format.\nMore.\n');
    expect(p.closed).toBe(true);
  });

  test('an indented closing marker closes the body; its indent stays with the body', () => {
    const { p } = run(true, ['<file>\nLine\n  </file>\nDone.']);
    expect(p.body).toBe('Line\n  ');
    expect(p.closed).toBe(true);
  });

  test('an empty block opens and closes with no body piece', () => {
    const { p, pieces } = run(true, ['<file></file>\n']);
    expect(kinds(pieces)).toEqual(['open', 'close']);
    expect(p.body).toBe('');
  });

  test('a one-line block is closed and, with nothing after it, the text ends on it', () => {
    const { p } = run(true, ['Here it is:\n<file>Chapter one begins.</file>\n']);
    expect(p.body).toBe('Chapter one begins.');
    expect(p.closed).toBe(true);
    expect(p.endsOnFileBlock).toBe(true);
  });
});

describe('before any block', () => {
  test('a fresh processor has not closed a block', () => {
    const { p } = run(true, ['Just chatting.\n']);
    expect(p.closed).toBe(false);
    expect(p.endsOnFileBlock).toBe(false);
  });
});

describe('code fences', () => {
  test('a fence with a language keeps a <file> line inside it as chat', () => {
    const { p, pieces } = run(true, ['```html\n', '<file>\n', '```\n']);
    expect(text(pieces, 'chat')).toBe('```html\n<file>\n```\n');
    expect(p.isCapturing).toBe(false);
  });

  test('an indented fence keeps a <file> line inside it as chat', () => {
    const { p, pieces } = run(true, ['  ```\n', '<file>\n', '  ```\n']);
    expect(text(pieces, 'chat')).toBe('  ```\n<file>\n  ```\n');
    expect(p.isCapturing).toBe(false);
  });

  test('inside a fence, a line that starts like a marker streams at once', () => {
    const p = new FileStreamProcessor(true);
    p.push('```\n');
    expect(p.push('<fi')).toEqual([{ kind: 'chat', text: '<fi' }]);
  });
});

describe('end()', () => {
  test('after end(), the next text starts on a fresh line', () => {
    const p = new FileStreamProcessor(true);
    p.push('Some words');
    p.end();
    expect(p.push('<file>\n')).toEqual([{ kind: 'open' }]);
  });

  test('after end(), a fence line is still a fence', () => {
    const p = new FileStreamProcessor(true);
    p.push('Intro');
    p.end();
    const pieces = [...p.push('```\n<file>\n```\n'), ...p.end()];
    expect(kinds(pieces)).toEqual(['chat']);
    expect(p.isCapturing).toBe(false);
  });
});

describe('closing words', () => {
  test('leading blank lines are not part of the closing words', () => {
    expect(closingWords('\n\n  Want chapter 4 next?')).toBe('Want chapter 4 next?');
  });

  test('a quotation after a question ends the reply on the quotation, not the question', () => {
    expect(endsWithQuestion('Ready for the next one? "Chapter 4: The Storm"')).toBe(false);
    expect(endsWithQuestion('下一章要写吗？「第四章 风暴」')).toBe(false);
  });

  test('an aside that asks, with a space before its bracket, is a question', () => {
    expect(endsWithQuestion('I finished chapter 3. (Shall I go on? )')).toBe(true);
    expect(endsWithQuestion('第三章写完了。（要继续吗？ ）')).toBe(true);
  });

  test('an aside whose inner bracket asks but which ends plainly is not a question', () => {
    expect(endsWithQuestion('Chapter 3 is done. (I kept the scene from [what if?])')).toBe(false);
  });

  test('an aside right after a question particle is taken off', () => {
    expect(endsWithQuestion('要继续吗（比如第四章）')).toBe(true);
    expect(closingWords('要继续吗（比如第四章）')).toBe('要继续吗');
  });

  test('an aside after a bare number is taken off', () => {
    expect(closingWords('2000（约两千字）')).toBe('2000');
    expect(closingWords('3 (chapters)')).toBe('3');
  });

  test('a reply that is all aside is the reply', () => {
    expect(endsWithQuestion('（要继续写第四章吗）')).toBe(true);
  });
});

describe('Chinese particles', () => {
  test('吗 or 么 at the end asks without a question mark', () => {
    expect(endsWithQuestion('第三章写好了，要继续吗')).toBe(true);
    expect(endsWithQuestion('这样可以么～')).toBe(true);
  });

  test('呢 asks with a question word in the same sentence', () => {
    expect(endsWithQuestion('第三章写好了。你觉得节奏怎么样呢')).toBe(true);
    expect(endsWithQuestion('接下来写哪一章呢。')).toBe(true);
  });

  test('a question word without 呢 or a question mark does not ask', () => {
    expect(endsWithQuestion('我觉得这样写更好。')).toBe(false);
  });

  test('呢 in the middle does not ask when the reply ends on a statement', () => {
    expect(endsWithQuestion('还是按原计划呢，我先把第四章写完')).toBe(false);
  });
});

describe('last question', () => {
  test('emoji after the question are not part of it', () => {
    expect(lastQuestion('Chapter 3 is done. Want chapter 4 next? 😊')).toBe('Want chapter 4 next?');
    expect(lastQuestion('第三章写好了。要继续写第四章吗？😊')).toBe('要继续写第四章吗？');
  });

  test('every quotation in the question is put back', () => {
    expect(lastQuestion('Done. Should the title be "Rain" or "Storm"?')).toBe('Should the title be "Rain" or "Storm"?');
    expect(lastQuestion('好了。标题用「雨」还是「风暴」？')).toBe('标题用「雨」还是「风暴」？');
  });

  test('doubled closing brackets after the question are taken off', () => {
    expect(lastQuestion('Done. (Want chapter 4 next?))')).toContain('Want chapter 4 next?');
  });

  test('a reply that is all aside does not break it', () => {
    expect(() => lastQuestion('（要继续写第四章吗）')).not.toThrow();
  });
});
