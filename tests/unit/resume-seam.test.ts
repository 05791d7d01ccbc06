/**
 * The seam of a resumed step: the kept text joined to the model's continuation must read
 * exactly as the uninterrupted answer — chat text as the author sees it, and the file body —
 * whether the model goes straight on, restates its last word (or Chinese character), or starts
 * over from the top, and whether the answer opens with blank lines or not, in Chinese and English.
 */
import { AuthorTextShaper } from '../../src/agents/author-facing-text';
import { OverlapTrimmer, seamOverlap } from '../../src/core/model/continuation';
import { FileStreamProcessor } from '../../src/core/model/file-stream';
import { continueReply } from '../../src/offline-model/continuation';
import type { ModelReply } from '../../src/offline-model/types';

describe('seamOverlap: what the continuation repeats of the kept text', () => {
  test.each([
    // A step cut right after "\n\n大": the model restates from its first word, not the blank lines.
    ['\n\n大', '大纲已保存：十章。', 1],
    ['\n\n大', '\n\n大纲已保存：十章。', 3],
    ['\n\n大纲已', '大纲已保存：十章。', 3],
    ['林推开门，他说他', '他说他要走。', 3],
    ['林推开门，他说他', '他要走。', 1],
    ['\n\nT', 'The outline is saved.', 1],
    ['\n\nThe o', 'The outline is saved.', 5],
    ['\n\nThe', 'The outline is saved.', 3],
    ['\n\nOK.', 'OK. The outline is saved.', 3],
    ['Mara opened the do', 'door and stepped out.', 2],
    ['Mara opened the do', 'the door and stepped out.', 6],
    ['Mara opened the', 'the door and stepped out.', 3],
  ])('%j + %j: %i repeated', (kept, continuation, repeated) => {
    expect(seamOverlap(kept, continuation)).toBe(repeated);
  });

  test.each([
    ['\n\n大', '纲已保存：十章。'],
    ['Mara opened the do', 'or and stepped out.'],
    ['Mara opened the', ' door and stepped out.'],
    // Inside a word, not at its start: the continuation goes on with the same letters by chance.
    ['It was sooooooo', 'ooo long.'],
    ['第3', '3章写完了。'],
    // Markup and blank lines carry no word: no evidence of a restart.
    ['\n\n#', '# Outline'],
    ['The end.\n\n', '\n\nNext part.'],
  ])('%j + %j: going straight on, nothing repeated', (kept, continuation) => {
    expect(seamOverlap(kept, continuation)).toBe(0);
  });
});

/** The chat text and file body a step publishes for raw model text (llm-stream.ts's emit, condensed). */
class Publisher {
  readonly out = { chat: '', file: '' };
  private readonly processor = new FileStreamProcessor(true);
  private readonly shaper: AuthorTextShaper;

  constructor(zh: boolean) {
    this.shaper = new AuthorTextShaper({ separate: true, dropEnglishProcess: zh, afterToolCalls: true });
  }

  push(text: string): void {
    for (const p of this.processor.push(text)) {
      if (p.kind === 'chat') this.out.chat += this.shaper.push(p.text);
      else if (p.kind === 'open') this.out.chat += this.shaper.fileOpened();
      else if (p.kind === 'close') this.shaper.fileClosed();
      else this.out.file += p.text;
    }
  }

  end(): { chat: string; file: string } {
    for (const p of this.processor.end()) if (p.kind === 'chat') this.out.chat += this.shaper.push(p.text);
    this.out.chat += this.shaper.end(false);
    return this.out;
  }
}

/** The kept text fed again, then the continuation through the trimmer in pieces of `size`. */
function resumed(zh: boolean, kept: string, continuation: string, size: number) {
  const p = new Publisher(zh);
  const trimmer = new OverlapTrimmer(kept);
  p.push(kept);
  for (let i = 0; i < continuation.length; i += size) p.push(trimmer.push(continuation.slice(i, i + size)));
  p.push(trimmer.end());
  return p.end();
}

function uninterrupted(zh: boolean, answer: string) {
  const p = new Publisher(zh);
  p.push(answer);
  return p.end();
}

const reply = (content: string): ModelReply => ({
  content,
  reasoning: '',
  toolCalls: [],
  timing: { ttftMs: 0, tokensPerSecond: 1 },
});

/**
 * The ways a model asked to go on from `answer.slice(0, cut)` answers: straight on, as the
 * offline model does by instruction, restating the last word (the last one or two Chinese
 * characters), or starting over from its first word.
 */
function continuations(answer: string, cut: number): string[] {
  const kept = answer.slice(0, cut);
  const opening = answer.length - answer.trimStart().length;
  const out = [
    answer.slice(cut),
    continueReply(reply(answer), { mode: 'instruction', partial: kept, base: {} as never }).content,
  ];
  if (cut > opening) out.push(answer.slice(opening));
  if (/[\u4e00-\u9fff]$/.test(kept)) out.push(answer.slice(cut - 1), answer.slice(Math.max(opening, cut - 2)));
  const word = /[A-Za-z]+$/.exec(kept);
  if (word) out.push(answer.slice(word.index));
  return out;
}

describe('a resumed step reads exactly as the uninterrupted one, at every cut', () => {
  const answers: [string, string, boolean][] = [
    [
      'Chinese chat opening with blank lines',
      '\n\n大纲已保存：十章，跟随林从最初的发现走到最后的清算。告诉我先写哪一章。',
      true,
    ],
    [
      'Chinese with a file block',
      '\n\n下面是第一章的草稿。\n<file>\n雾港的夜里，林在码头捡到一封信。\n\n信上只有一个地址。\n</file>\n第一章已保存。',
      true,
    ],
    [
      'English chat opening with blank lines',
      '\n\nThe outline is saved: ten chapters following Mara from the first discovery to the reckoning.',
      false,
    ],
    [
      'English with a file block',
      'Here is the draft.\n<file>\nThe rain had not stopped.\n\nMara opened the door.\n</file>\nChapter 1 is saved.',
      false,
    ],
  ];
  test.each(answers)('%s', (_name, answer, zh) => {
    const whole = uninterrupted(zh, answer);
    for (let cut = 1; cut < answer.length; cut++)
      for (const continuation of continuations(answer, cut))
        for (const size of [1, 4, 1000])
          expect([cut, continuation, resumed(zh, answer.slice(0, cut), continuation, size)]).toEqual([
            cut,
            continuation,
            whole,
          ]);
  });
});

test('the offline model, asked by instruction, repeats from the first word of a short partial', () => {
  const ask = { mode: 'instruction' as const, partial: '\n\n大', base: {} as never };
  expect(continueReply(reply('\n\n大纲已保存。'), ask).content).toBe('大纲已保存。');
});
