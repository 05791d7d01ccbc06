/**
 * The author-facing text shaper: blank lines between segments,
 * English process sentences next to tool calls dropped when the author writes Chinese.
 */
import { AuthorTextShaper, isEnglishProcessSentence, type ShaperOptions } from '../../src/agents/author-facing-text';

/** Feeds the text in chunks of `size` characters, the way a model streams it. */
function shape(text: string, opts: Partial<ShaperOptions> & { toolCallsFollow?: boolean; size?: number } = {}): string {
  const s = new AuthorTextShaper({ separate: false, dropEnglishProcess: false, afterToolCalls: false, ...opts });
  const chars = Array.from(text);
  let out = '';
  const size = opts.size ?? 3;
  for (let i = 0; i < chars.length; i += size) out += s.push(chars.slice(i, i + size).join(''));
  return out + s.end(opts.toolCallsFollow ?? false);
}

describe('blank line between segments', () => {
  test('text after text already shown starts after exactly one blank line', () => {
    expect(shape('\n  Second part.\n\n', { separate: true })).toBe('\n\nSecond part.');
    expect(shape('第二段。', { separate: true, dropEnglishProcess: true })).toBe('\n\n第二段。');
  });
  test('the first text of a turn gets no separator; inner spacing is kept', () => {
    expect(shape('One.\n\nTwo.\n', { separate: false })).toBe('One.\n\nTwo.');
  });
  test('a step with no text adds nothing, not even the separator', () => {
    expect(shape('  \n', { separate: true })).toBe('');
  });
});

describe('English process sentences when the author writes Chinese', () => {
  const zh = { dropEnglishProcess: true };
  test('right before tool calls they are dropped', () => {
    expect(shape('好的。Now create the chapter file.\n', { ...zh, toolCallsFollow: true })).toBe('好的。');
    expect(shape('Let me read the outline.', { ...zh, toolCallsFollow: true })).toBe('');
  });
  test('right after tool calls, ahead of the real text, they are dropped', () => {
    expect(shape('Now create the chapter file.\n第1章写好了。', { ...zh, afterToolCalls: true, size: 1 })).toBe(
      '第1章写好了。',
    );
  });
  test('an English sentence between Chinese text, away from tool calls, is kept', () => {
    expect(shape('第一段。The storm breaks here.\n第二段。', { ...zh, toolCallsFollow: true })).toBe(
      '第一段。The storm breaks here.\n第二段。',
    );
  });
  test('an all-English final answer is still an answer: kept', () => {
    expect(shape('Chapter 3 is saved and ready.', { ...zh, afterToolCalls: true })).toBe(
      'Chapter 3 is saved and ready.',
    );
  });
  test('English narrating a <file> block is dropped on both sides of it', () => {
    const s = new AuthorTextShaper({ separate: false, dropEnglishProcess: true, afterToolCalls: true });
    let out = s.push('Here is the draft of chapter 3.\n');
    out += s.fileOpened();
    s.fileClosed();
    out += s.push('\nNow update the task board.\n写完了。');
    expect(out + s.end(false)).toBe('写完了。');
  });
  test('list lines and numbers are content, not process sentences', () => {
    expect(isEnglishProcessSentence('- Chapter 1: Rain')).toBe(false);
    expect(isEnglishProcessSentence('Chapter 3')).toBe(false);
    expect(isEnglishProcessSentence('Let me read the outline.')).toBe(true);
    expect(shape('- Chapter 1: Rain\n', { ...zh, toolCallsFollow: true })).toBe('- Chapter 1: Rain');
  });
  test('when the author writes English nothing is dropped', () => {
    expect(shape('Let me read the outline.', { toolCallsFollow: true, afterToolCalls: true })).toBe(
      'Let me read the outline.',
    );
  });
  test('the same input gives the same output however it is chunked (retries publish the same text)', () => {
    const text = '先看大纲。Let me check the outline.\n好的，开始写。\nNow create the file.';
    const outs = [1, 2, 5, 100].map((size) =>
      shape(text, { dropEnglishProcess: true, separate: true, toolCallsFollow: true, size }),
    );
    expect(new Set(outs).size).toBe(1);
    expect(outs[0]).toBe('\n\n先看大纲。Let me check the outline.\n好的，开始写。');
  });
});
