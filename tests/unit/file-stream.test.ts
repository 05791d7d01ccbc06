/**
 * The file streaming protocol piece by piece: what is chat,
 * what is file body, which marker lines are dropped, and the closing-question helpers.
 */
import {
  endsWithQuestion,
  FileStreamProcessor,
  lastQuestion,
  planUnits,
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

describe('capture', () => {
  test('open and close pieces frame the body; the body is kept; the state says captured and closed', () => {
    const { p, pieces } = run(true, ['Intro\n<file>\nBody line\n</file>\n']);
    expect(kinds(pieces)).toEqual(['chat', 'open', 'file', 'close']);
    expect(text(pieces, 'chat')).toBe('Intro\n');
    expect(p.body).toBe('Body line\n');
    expect(p.closed).toBe(true);
    expect(p.isCapturing).toBe(false);
    expect(p.endsOnFileBlock).toBe(true);
  });
  test('while the body streams, isCapturing is true and closed is false', () => {
    const p = new FileStreamProcessor(true);
    p.push('<file>\npart');
    expect(p.isCapturing).toBe(true);
    expect(p.closed).toBe(false);
    expect(p.endsOnFileBlock).toBe(false);
    expect(p.body).toBe('part');
  });
  test('<file>body</file> on one line', () => {
    const { p, pieces } = run(true, ['<file>All of it</file>\nSaved.']);
    expect(p.body).toBe('All of it');
    expect(kinds(pieces)).toEqual(['open', 'file', 'close', 'chat']);
    expect(text(pieces, 'chat')).toBe('Saved.');
    expect(p.endsOnFileBlock).toBe(false);
  });
  test('text after <file> on the opening line is body; a closing marker must start its line', () => {
    const { p } = run(true, ['<file>First\nLast</file>\nmore\n</file>\n']);
    expect(p.body).toBe('First\nLast</file>\nmore\n');
    expect(p.closed).toBe(true);
  });
  test('only one capture per pending file: a second <file> line is dropped, its text stays chat', () => {
    const { p, pieces } = run(true, ['<file>\nA\n</file>\n<file>\nB\n</file>\n']);
    expect(p.body).toBe('A\n');
    expect(text(pieces, 'chat')).toBe('B\n');
  });
  test('whitespace-only chat after the block still ends on the block; any other text does not', () => {
    expect(run(true, ['<file>\nA\n</file>\n  \n']).p.endsOnFileBlock).toBe(true);
    expect(run(true, ['<file>\nA\n</file>\nok']).p.endsOnFileBlock).toBe(false);
    expect(run(true, ['no file here']).p.endsOnFileBlock).toBe(false);
  });
  test('a marker split over many deltas is still a marker', () => {
    const { p, pieces } = run(true, ['<', 'fi', 'le', '>', '\n', 'X', '\n', '</', 'fi', 'le>', '\n']);
    expect(p.body).toBe('X\n');
    expect(text(pieces, 'chat')).toBe('');
  });
  test('a line that starts like a marker but is not one streams as soon as it differs', () => {
    const p = new FileStreamProcessor(true);
    expect(p.push('<fi')).toEqual([]);
    expect(p.push('nd this>')).toEqual([{ kind: 'chat', text: '<find this>' }]);
    expect(p.push(' more')).toEqual([{ kind: 'chat', text: ' more' }]);
  });
  test('held text is flushed at the end', () => {
    const p = new FileStreamProcessor(true);
    expect(p.push('</fi')).toEqual([]);
    expect(p.end()).toEqual([{ kind: 'chat', text: '</fi' }]);
    expect(p.end()).toEqual([]);
  });
  test('consecutive pieces of one kind are merged', () => {
    const p = new FileStreamProcessor(false);
    expect(p.push('a\nb\nc')).toEqual([{ kind: 'chat', text: 'a\nb\nc' }]);
  });
  test('indented markers count; the body keeps its own indentation', () => {
    const { p } = run(true, ['  <file>\n    indented\n  </file>\n']);
    expect(p.body.startsWith('    indented\n')).toBe(true);
    expect(p.body).not.toContain('</file>');
    expect(p.closed).toBe(true);
  });
});

describe('markers outside a capture', () => {
  test('without a pending file <file> and </file> lines are dropped, their neighbours kept', () => {
    const { pieces } = run(false, ['a\n<file>\nb\n</file>\nc']);
    expect(text(pieces, 'chat')).toBe('a\nb\nc');
    expect(kinds(pieces)).toEqual(['chat']);
  });
  test('inside a ``` fence markers are text', () => {
    const { p, pieces } = run(true, ['```\n<file>\n</file>\n```\n']);
    expect(text(pieces, 'chat')).toBe('```\n<file>\n</file>\n```\n');
    expect(p.body).toBe('');
  });
  test('after the fence closes, markers work again', () => {
    const { p } = run(true, ['```\nx\n```\n<file>\nY\n</file>\n']);
    expect(p.body).toBe('Y\n');
  });
  test('a marker mentioned inside a sentence is kept', () => {
    expect(text(run(false, ['Use </file> to close.']).pieces, 'chat')).toBe('Use </file> to close.');
  });
});

describe('closing questions and plan units', () => {
  test.each([
    ['Shall I continue?', true],
    ['要我继续写第二章吗？', true],
    ['Ready? **', true],
    // Judged outside quotations and before asides: a "?" inside a quotation is the story's; an aside that asks is the agent asking.
    ['Is it “right?”', false],
    ['Is it (fine?)', true],
    ['I’ve sketched the next scene (Shall I go on?)', true],
    ['（以上只是建议，原稿还没动。要改吗？）', true],
    ['Shall I continue with chapter 5?\n\n— Writer', true],
    ['The draft is ready. Do you want first or third person for chapter 5? Thanks!', true],
    ['Chapter 3 ends with Mara asking, "Who sent you?"', false],
    ['第三章以林夏的一句「是谁派你来的？」收尾。', false],
    ['还需要我调整吗？（比如节奏、对白）', true],
    ['Want me to go on? (e.g. chapter 4) 😊', true],
    ['Do you like the line "Who sent you?"?', true],
    ['Done.', false],
    ['“Why?” she asked. Then she left.', false],
    ['', false],
  ])('endsWithQuestion(%s) = %s', (t, q) => expect(endsWithQuestion(t)).toBe(q));

  test('lastQuestion is the last sentence when the text ends on a question', () => {
    expect(lastQuestion('第一章写好了。要我继续写第二章吗？')).toBe('要我继续写第二章吗？');
    expect(lastQuestion('Saved chapter 1. Shall I write chapter 2?')).toBe('Shall I write chapter 2?');
    expect(lastQuestion('Line one\nWhich ending?')).toBe('Which ending?');
    expect(lastQuestion('  Why?  ')).toBe('Why?');
    expect(lastQuestion('No question here.')).toBeNull();
    expect(lastQuestion('第二章写好了。还需要我调整吗？（比如节奏、对白）')).toBe('还需要我调整吗？');
    expect(lastQuestion('Do you like the line "Who sent you?"?')).toBe('Do you like the line "Who sent you?"?');
    expect(lastQuestion('Shall I go on?)')).toBe('Shall I go on?');
  });
  test('plan units use the shared numeral parser', () => {
    expect(planUnits('第一章：风起\n第二章：夜航\nChapter 3\n第4-5集')).toEqual([1, 2, 3, 4, 5]);
    expect(planUnits('nothing')).toEqual([]);
  });
});
