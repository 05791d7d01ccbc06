/**
 * Resuming a step from its partial text: the request each strategy sends, the
 * removal of what a model repeats, and the property the resume rests on — the step's text
 * processors give the same output whether the kept text is fed again in one piece or as it
 * first streamed.
 */
import { AuthorTextShaper } from '../../src/agents/author-facing-text';
import {
  CONTINUE_INSTRUCTION,
  continuationRequest,
  MIN_OVERLAP_CHARS,
  OverlapTrimmer,
  resolveContinuation,
} from '../../src/core/model/continuation';
import { FileStreamProcessor } from '../../src/core/model/file-stream';
import { continuationAsk, continueReply, REPEATED_CHARS } from '../../src/offline-model/continuation';
import type { ChatCompletionRequest, ModelReply } from '../../src/offline-model/types';

const base = [
  { role: 'system', content: '[agent: writer]' },
  { role: 'user', content: 'Write chapter 1' },
];

describe('continuationRequest', () => {
  test('prefix: the partial as the last assistant message, marked prefix', () => {
    expect(continuationRequest('prefix', base, 'Once upon')).toEqual({
      messages: [...base, { role: 'assistant', content: 'Once upon', prefix: true }],
      body: {},
    });
  });
  test('continue_final_message: vLLM flags, no generation prompt', () => {
    const r = continuationRequest('continue_final_message', base, 'Once upon');
    expect(r.messages.at(-1)).toEqual({ role: 'assistant', content: 'Once upon' });
    expect(r.body).toEqual({ continue_final_message: true, add_generation_prompt: false });
  });
  test('instruction: the partial, then the instruction to continue', () => {
    const r = continuationRequest('instruction', base, 'Once upon');
    expect(r.messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'Once upon' },
      { role: 'user', content: CONTINUE_INSTRUCTION },
    ]);
  });
  test('auto is prefix for DeepSeek and instruction elsewhere; explicit settings stand', () => {
    expect(resolveContinuation('auto', 'https://api.deepseek.com/beta')).toBe('prefix');
    expect(resolveContinuation('auto', 'http://127.0.0.1:8000/v1')).toBe('instruction');
    expect(resolveContinuation('auto', undefined)).toBe('instruction');
    expect(resolveContinuation('continue_final_message', 'https://api.deepseek.com')).toBe('continue_final_message');
    expect(resolveContinuation('off', 'https://api.deepseek.com')).toBe('off');
  });
});

/** Feeds `text` to a trimmer in pieces of `size` and returns what it keeps. */
function trim(partial: string, continuation: string, size: number): { kept: string; trimmed: number } {
  const t = new OverlapTrimmer(partial);
  let kept = '';
  for (let i = 0; i < continuation.length; i += size) kept += t.push(continuation.slice(i, i + size));
  kept += t.end();
  return { kept, trimmed: t.trimmed };
}

describe('OverlapTrimmer', () => {
  const partial = 'The rain had not stopped for three days. Mara opened the do';
  test.each([1, 3, 7, 1000])('a restart a few words back is removed, whatever the chunking (%i chars)', (size) => {
    expect(trim(partial, 'Mara opened the door and stepped out.', size)).toEqual({
      kept: 'or and stepped out.',
      trimmed: 'Mara opened the do'.length,
    });
  });
  test('a continuation that goes straight on is kept whole', () => {
    expect(trim(partial, 'or and stepped out.', 2)).toEqual({ kept: 'or and stepped out.', trimmed: 0 });
  });
  test('a short chance match at the seam is not taken for a repeat', () => {
    const seam = 'o'.repeat(MIN_OVERLAP_CHARS - 1);
    expect(trim(`It was so${seam}`, `${seam} long.`, 4).kept).toBe(`${seam} long.`);
  });
  test('Chinese text: the repeated clause is removed', () => {
    const zh = '雨已经下了三天。玛拉推开了门，';
    expect(trim(zh, '玛拉推开了门，走进了院子。', 2)).toEqual({
      kept: '走进了院子。',
      trimmed: '玛拉推开了门，'.length,
    });
  });
  test('a continuation that only repeats the end is dropped entirely', () => {
    expect(trim(partial, 'opened the do', 3)).toEqual({ kept: '', trimmed: 'opened the do'.length });
  });
});

describe('offline model: continuation requests', () => {
  const reply: ModelReply = {
    content: 'Once upon a time there was a lighthouse keeper.',
    reasoning: 'plan',
    toolCalls: [],
    timing: { ttftMs: 0, tokensPerSecond: 1e6 },
  };
  const body = (messages: unknown[], extra: object = {}) =>
    ({ model: 'm', messages, ...extra }) as ChatCompletionRequest;

  test.each([
    ['prefix', body([...base, { role: 'assistant', content: 'Once upon a', prefix: true }])],
    [
      'continue_final_message',
      body([...base, { role: 'assistant', content: 'Once upon a' }], {
        continue_final_message: true,
        add_generation_prompt: false,
      }),
    ],
    [
      'instruction',
      body([...base, { role: 'assistant', content: 'Once upon a' }, { role: 'user', content: CONTINUE_INSTRUCTION }]),
    ],
  ])('%s: recognised, answered from the request without the partial', (mode, request) => {
    const ask = continuationAsk(request)!;
    expect(ask.mode).toBe(mode);
    expect(ask.partial).toBe('Once upon a');
    expect(ask.base.messages).toEqual(base);
    expect(ask.base).not.toHaveProperty('continue_final_message');
    const rest = continueReply(reply, ask).content;
    expect(rest).toBe(
      mode === 'instruction'
        ? reply.content.slice(Math.max(0, 'Once upon a'.length - REPEATED_CHARS))
        : ' time there was a lighthouse keeper.',
    );
    expect(continueReply(reply, ask).reasoning).toBe('');
  });
  test('an ordinary request (an assistant turn in history, no flag) is not a continuation', () => {
    expect(
      continuationAsk(body([...base, { role: 'assistant', content: 'Done.' }, { role: 'user', content: 'Thanks' }])),
    ).toBeNull();
    expect(continuationAsk(body([...base, { role: 'assistant', content: 'Done.' }]))).toBeNull();
  });
});

/** What a step publishes for `pieces` of raw model text (llm-stream.ts's emit, condensed). */
function publish(opts: { zh: boolean }, pieces: string[], replayFirst = 0): { chat: string; file: string } {
  const processor = new FileStreamProcessor(true);
  const shaper = new AuthorTextShaper({ separate: true, dropEnglishProcess: opts.zh, afterToolCalls: false });
  const out = { chat: '', file: '' };
  const feed = (text: string, sink: { chat: string; file: string }) => {
    for (const p of processor.push(text)) {
      if (p.kind === 'chat') sink.chat += shaper.push(p.text);
      else if (p.kind === 'open') sink.chat += shaper.fileOpened();
      else if (p.kind === 'close') shaper.fileClosed();
      else sink.file += p.text;
    }
  };
  // The kept text, fed again in one piece: its output was published by the earlier attempt.
  const kept = { chat: '', file: '' };
  if (replayFirst) feed(pieces.slice(0, replayFirst).join(''), kept);
  for (const piece of pieces.slice(replayFirst)) feed(piece, out);
  for (const p of processor.end()) if (p.kind === 'chat') out.chat += shaper.push(p.text);
  out.chat += shaper.end(false);
  return { chat: kept.chat + out.chat, file: kept.file + out.file };
}

describe('the kept text fed again in one piece rebuilds the processors exactly', () => {
  const answers: [string, boolean][] = [
    [
      'Here is the chapter.\n<file>\nThe rain had not stopped.\n\nMara opened the door.\n</file>\nSaved the chapter.',
      false,
    ],
    [
      'Now create the chapter file. 好的，这是第一章。\n<file>\n雨已经下了三天。\n玛拉推开了门。\n</file>\n已保存。Let me know.',
      true,
    ],
    ['<file>\nA body that ends in a near-tag </fil and goes on </file>', false],
  ];
  test.each(answers)('%#: every cut point, every chunking', (answer, zh) => {
    const chunks = (size: number) => answer.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
    const whole = publish({ zh }, chunks(5));
    for (const size of [1, 3, 11]) {
      const pieces = chunks(size);
      for (let cut = 1; cut < pieces.length; cut++) expect(publish({ zh }, pieces, cut)).toEqual(whole);
    }
  });
});

describe('OverlapTrimmer on text that repeats itself', () => {
  test('inside the window with several lengths matching, the shortest repeat is removed: nothing of the author text is lost', () => {
    const refrain = 'row, row, row your boat. ';
    const partial = refrain.repeat(20);
    const { kept, trimmed } = trim(partial, refrain.repeat(20), 5);
    expect(trimmed).toBeGreaterThanOrEqual(MIN_OVERLAP_CHARS);
    expect(trimmed).toBeLessThan(refrain.length * 2);
    expect(kept.length + trimmed).toBe(refrain.length * 20);
  });
});

test('a chapter that repeats one sentence: the seam keeps every sentence (a longer repeat would cut one)', () => {
  const sentence = 'The tide came in over the flats in chapter 3, and Mara counted what it took. ';
  const full = `<file>\n# Chapter 3\n\n${sentence.repeat(10).trim()}\n</file>`;
  for (const cut of [150, 300, 455, 600]) {
    const partial = full.slice(0, cut);
    // Asked by instruction, the model repeats the last 30 characters first.
    const { kept } = trim(partial, full.slice(cut - 30), 7);
    expect(partial + kept).toBe(full);
  }
});
