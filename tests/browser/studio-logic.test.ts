/**
 * Studio's pure rules (run by Jest; the browser scenarios cover the screens): word counts
 * with CJK characters, chapter numbers in titles, the turn view built from stream events
 * (text per step, a step_retry dropping its step's text, file cards), and the side-by-side
 * diff rows.
 */
import { countWords } from '../../src/core/text';
import { unitOfTitle } from '../../src/core/words/numerals';
import { parseVerdict } from '../../src/core/verdict';
import { apply, newTurn } from '../../studio/src/turn';
import type { StreamEvent } from '../../src/core/events';

const ev = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ type, data, seq: 0, ts: '', ...extra }) as unknown as StreamEvent;

test('word counts: each CJK character is a word, other runs of letters and digits one each', () => {
  expect(countWords('The tide came in at dusk.')).toBe(6);
  expect(countWords('潮水在黄昏时涌来。Mara 数着灯，一盏也没亮。')).toBe(17);
  expect(countWords("don't stop — 2026")).toBe(3);
  expect(countWords('')).toBe(0);
});

test('chapter numbers from titles, in Arabic, Chinese or English numerals (the core parser Studio and the export share)', () => {
  const chapterNumber = (title: string) => unitOfTitle(title)?.n ?? null;
  expect(chapterNumber('Chapter 12: The Bell')).toBe(12);
  expect(chapterNumber('第十二章 归航')).toBe(12);
  expect(chapterNumber('第一百零三章')).toBe(103);
  expect(chapterNumber('第二十章')).toBe(20);
  expect(chapterNumber('第3章')).toBe(3);
  expect(chapterNumber('Chapter Ten')).toBe(10);
  // Scenes and sections are not chapters to the core: such titles are unnumbered.
  expect(chapterNumber('Scene 3')).toBeNull();
  expect(chapterNumber('第12节')).toBeNull();
  expect(chapterNumber('Outline')).toBeNull();
});

test('the turn view: text per agent step, a retried step loses its partial text, file cards and the verdict', () => {
  let v = newTurn('t1', 'Write chapter 1');
  v = apply(v, [
    ev('agent_selected', { agent: 'writer', reason: '', run: 1 }),
    ev('content', { delta: 'Hel' }, { agent: 'writer', step: 1 }),
    ev('content', { delta: 'lo' }, { agent: 'writer', step: 1 }),
    ev('content', { delta: 'partial' }, { agent: 'writer', step: 2 }),
  ]);
  v = apply(v, [
    ev('step_retry', { attempt: 2, message: '' }, { agent: 'writer', step: 2 }),
    ev('content', { delta: 'again' }, { agent: 'writer', step: 2 }),
  ]);
  expect(v.items.filter((i) => i.kind === 'text').map((i) => (i as { text: string }).text)).toEqual(['Hello', 'again']);
  v = apply(v, [
    ev('file_created', { fileId: 'f1', title: 'Chapter 1', fileType: 'draft', words: 0 }),
    ev('file_content', { fileId: 'f1', delta: 'Once' }),
    ev('file_updated', {
      fileId: 'f1',
      title: 'Chapter 1',
      fileType: 'draft',
      versionId: 'v',
      words: 1,
      operation: 'stream',
    }),
    ev('content', { delta: 'Verdict: revise\nTighten it.' }, { agent: 'quality_reviewer', step: 3 }),
    ev('usage', {
      promptTokens: 10,
      completionTokens: 5,
      totalTokens: 15,
      source: 'provider',
      model: 'm',
      costUsd: 0.001,
    }),
    ev('done', { status: 'completed' }),
  ]);
  expect(v.items.filter((i) => i.kind === 'file')).toEqual([
    expect.objectContaining({ fileId: 'f1', op: 'created', words: 1, live: 0 }),
  ]);
  expect(v).toMatchObject({
    verdict: 'revise',
    tokens: 15,
    costUsd: 0.001,
    status: 'done',
    doneStatus: 'completed',
    filesChanged: 2,
  });
  expect(parseVerdict('结论：通过')).toBe('pass');
  expect(parseVerdict('Verdict: 返修')).toBe('revise');
  expect(parseVerdict('Verdict: re')).toBe('none');
});

test('a step that starts over drops the file body it was streaming; a resumed step keeps its text and goes on', () => {
  let v = newTurn('t1', 'Write chapter 1');
  v = apply(v, [
    ev('file_content', { fileId: 'f1', delta: 'Once upon a ti' }, { agent: 'writer', step: 2 }),
    ev('content', { delta: 'Writing ' }, { agent: 'writer', step: 2 }),
    ev('step_resumed', { step: 2, attempt: 2, keptChars: 22, message: '' }, { agent: 'writer', step: 2 }),
    ev('file_content', { fileId: 'f1', delta: 'me' }, { agent: 'writer', step: 2 }),
  ]);
  expect(v.items.filter((i) => i.kind === 'file').map((i) => (i as { body: string }).body)).toEqual([
    'Once upon a time',
  ]);
  expect(v.items.filter((i) => i.kind === 'text').map((i) => (i as { text: string }).text)).toEqual(['Writing ']);
  v = apply(v, [
    ev('step_retry', { attempt: 3, message: '' }, { agent: 'writer', step: 2 }),
    ev('file_content', { fileId: 'f1', delta: 'Once' }, { agent: 'writer', step: 2 }),
  ]);
  expect(v.items.filter((i) => i.kind === 'file').map((i) => (i as { body: string }).body)).toEqual(['Once']);
  expect(v.items.filter((i) => i.kind === 'text')).toEqual([]);
});

test('the dictionary: every part gives each of its keys in both languages, and no two parts define the same key', async () => {
  const { PARTS, DICTS } = await import('../../studio/src/i18n/parts');
  const owner = new Map<string, number>();
  PARTS.forEach((p, i) => {
    expect(Object.keys(p.zh).sort()).toEqual(Object.keys(p.en).sort());
    for (const key of Object.keys(p.en)) {
      expect(owner.has(key) ? `${key} in parts ${owner.get(key)} and ${i}` : '').toBe('');
      owner.set(key, i);
      expect(p.en[key as never]).toBeTruthy();
      expect(p.zh[key as never]).toBeTruthy();
    }
  });
  expect(Object.keys(DICTS.zh).length).toBe(owner.size);
  expect(DICTS.zh.chat).toBe('对话');
});
