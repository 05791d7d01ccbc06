/**
 * Edges of the intent rules that the corpus does not pin one by one (mutation testing found
 * them): exact routes, counts, limits, and reply wording.
 */
import { authorAskedFor, authorisedFiles } from '../../src/core/words/author-scope';
import { carriesLanguage, sessionLanguage } from '../../src/core/words/language';
import { splitClauses } from '../../src/core/words/utterance';
import { isNewInstruction, isRefusal } from '../../src/core/words/answers';
import { commandApplies, jobCommandOf, jobCommandReply, type JobLookup } from '../../src/core/words/job-commands';
import {
  countProposedChanges,
  declinedOfferRouting,
  isConfirmation,
  isOfferQuestion,
  proposedStep,
} from '../../src/core/words/proposals';
import { read } from './read';

describe('offers and confirmations', () => {
  test('a declined offer writes nothing: the exact route', () => {
    expect(declinedOfferRouting('zh')).toEqual({
      current_agent: 'writer',
      workflow_plan: 'quick',
      workflow_agents: [],
      write_content: false,
      read_only: true,
      scope: '作者谢绝了提议的下一步',
      clarify_first: false,
      source: 'decline_offer',
      notes: ['the author declined the offered step: nothing is written'],
    });
    expect(declinedOfferRouting('en').scope).toBe('the author declined the offered step');
  });
  test('proposals counted in the closing paragraph: list items, else one trailing question', () => {
    expect(countProposedChanges('Notes.\n\nI suggest:\n- cut the storm\n- move the reveal\n2) rename Anna')).toBe(3);
    expect(countProposedChanges('Notes.\n\n  ① 压缩开头\n  ② 删掉梦境')).toBe(2);
    expect(countProposedChanges('First.\n\n- old item\n\nSecond.\n\nThird. Want me to fix it?')).toBe(1);
    expect(countProposedChanges('Saved chapter 3.')).toBe(0);
    expect(countProposedChanges('-not an item\n*neither')).toBe(0);
  });
  test('confirmations: length, emoji tone, negative emoji', () => {
    expect(isConfirmation('yes pls 🙏')).toBe(true);
    expect(isConfirmation('好的 👍')).toBe(true);
    expect(isConfirmation('👎')).toBe(false);
    expect(isConfirmation('ok ❌')).toBe(false);
    expect(isConfirmation('🙏')).toBe(false);
    expect(isConfirmation('ok'.repeat(10))).toBe(true);
    expect(isConfirmation('ok'.repeat(10) + 'k')).toBe(false);
  });
  test('offers: a proposal closed for a yes, or an offer; not a choice', () => {
    expect(isOfferQuestion('第3章偏慢，建议压缩开头两段。要这样改吗？')).toBe(true);
    expect(isOfferQuestion('你觉得这一章怎么样？')).toBe(false);
    expect(isOfferQuestion('I’d cut the flashback. Sound good?')).toBe(true);
    expect(isOfferQuestion('Sound good?')).toBe(false);
    expect(isOfferQuestion('Apply these fixes, or leave them?')).toBe(false);
    expect(isOfferQuestion('Shall I apply these fixes or leave them?')).toBe(true);
    expect(isOfferQuestion('Ready for chapter 2?')).toBe(true);
  });
  test('the offered step: the question’s own verb first, the proposal’s next, a unit alone offers to write it', () => {
    expect(proposedStep('Chapter 1 is saved. Ready for chapter 2?')).toMatchObject({
      action: 'write',
      units: { from: 2, to: 2 },
    });
    expect(proposedStep('I suggest cutting the harbour walk. What do you think?')).toMatchObject({ action: 'edit' });
    expect(proposedStep('建议把结尾钩子换成匿名信。你觉得呢？')).toMatchObject({ action: 'edit' });
    expect(proposedStep('我建议这样处理。你觉得呢？')).toMatchObject({ action: 'edit' });
    expect(proposedStep('要我继续写下一章吗？', [2])?.units).toEqual({ kind: 'chapter', from: 3, to: 3 });
    expect(proposedStep('要我写第五章吗？', [2])?.units).toEqual({ kind: 'chapter', from: 5, to: 5 });
    expect(proposedStep('', [2])).toBeNull();
  });
});

describe('answers and refusals at their limits', () => {
  test('a destructive verb is always a new instruction; a different action needs an object of its own', () => {
    expect(isNewInstruction('remove it', { agent: 'writer', readOnly: false })).toBe(true);
    expect(isNewInstruction('review it', { agent: 'writer', readOnly: false })).toBe(false);
    expect(isNewInstruction('review chapter 2', { agent: 'writer', readOnly: false })).toBe(true);
    expect(isNewInstruction('review chapter 2', { agent: 'quality_reviewer', readOnly: true })).toBe(false);
    expect(isNewInstruction('Anna', null)).toBe(false);
  });
  test('refusals: at most 80 characters, and a no with a new request is not a plain no', () => {
    expect(isRefusal(`no, ${'a'.repeat(76)}`)).toBe(true);
    expect(isRefusal(`no, ${'a'.repeat(77)}`)).toBe(false);
    expect(isRefusal('  no thanks  ')).toBe(true);
    expect(isRefusal('不用，先别改第三章')).toBe(true);
    expect(isRefusal('不用了，写第六章吧')).toBe(false);
    expect(isRefusal('no, keep chapter 6 as it is')).toBe(true);
  });
});

describe('language at its limits', () => {
  test('unit references and numbers carry no language; short CJK replies only with more around them', () => {
    expect(carriesLanguage('chapter 3, 4')).toBe(false);
    expect(carriesLanguage('写第三章')).toBe(true);
    expect(carriesLanguage('写')).toBe(false);
    expect(carriesLanguage('嗯嗯嗯')).toBe(false);
    expect(carriesLanguage('哈哈哈 ok')).toBe(false);
    expect(carriesLanguage('go on')).toBe(true);
    expect(carriesLanguage('go')).toBe(false);
    expect(carriesLanguage('ab cd')).toBe(true);
  });
  test('a session keeps the first language it had until a message speaks another', () => {
    expect(sessionLanguage(['Write chapter 1', '好的'])).toBe('en');
    expect(sessionLanguage(['写第一章', 'OK', 'Yes'])).toBe('zh');
  });
});

describe('clauses and lists', () => {
  test('、 between references joins them even with spaces; a comma does not', () => {
    expect(splitClauses('删掉第三章 、 第四章', [])).toHaveLength(1);
    expect(
      splitClauses('delete Notes, Notes 2', [
        { start: 7, end: 12 },
        { start: 14, end: 21 },
      ]),
    ).toHaveLength(2);
    expect(
      splitClauses('删掉笔记、笔记2', [
        { start: 2, end: 4 },
        { start: 5, end: 8 },
      ]),
    ).toHaveLength(1);
    expect(splitClauses('删掉笔记、再看看', [{ start: 2, end: 4 }])).toHaveLength(2);
  });
});

describe('author scope edges', () => {
  const titles = ['Notes', 'Notes File', 'Chapter 3: The Lighthouse', '大纲', '人物大纲'];
  const asks = (
    message: string,
    title: string,
    action: 'delete' | 'rewrite' = 'delete',
    focusFileId: string | null = null,
  ) => authorAskedFor({ reading: read(message), titles, focusFileId }, { id: title, title }, action);
  test('a longer title named at the place wins even when its tail reads as filler', () => {
    expect(asks('delete Notes File', 'Notes')).toBe(false);
    expect(asks('delete Notes File', 'Notes File')).toBe(true);
    expect(asks('delete NOTES FILE', 'Notes File')).toBe(true);
  });
  test('a CJK title glued to a word before it is another name', () => {
    expect(asks('删除人物大纲', '大纲')).toBe(false);
    expect(asks('删除人物大纲', '人物大纲')).toBe(true);
    expect(asks('把大纲删了', '大纲')).toBe(true);
  });
  test('only destructive verbs turn into keep when negated', () => {
    expect(asks("don't polish Notes, just delete Notes", 'Notes')).toBe(true);
    expect(asks("don't delete Notes, delete Notes", 'Notes')).toBe(false);
  });
  test('the subtitle after a chapter number belongs to its reference; a range does not take it', () => {
    expect(asks('delete chapter 3: the lighthouse', 'Chapter 3: The Lighthouse')).toBe(true);
    expect(asks('delete chapter 3 The Lighthouse please', 'Chapter 3: The Lighthouse')).toBe(true);
    expect(asks('delete chapters 3-4 The Lighthouse', 'Chapter 3: The Lighthouse')).toBe(false);
  });
  test('one reading for many files gives the same answers as one at a time', () => {
    const files = titles.map((t) => ({ id: t, title: t }));
    for (const m of ['delete Notes File and 大纲', '删除人物大纲', 'rewrite chapter 3'])
      for (const action of ['delete', 'rewrite'] as const)
        expect(authorisedFiles({ reading: read(m), titles }, files, action).map((f) => f.title)).toEqual(
          titles.filter((t) => asks(m, t, action)),
        );
  });
  test.each([
    ['delete Notes later', 'Notes', 'delete', false],
    ['delete Notes now', 'Notes', 'delete', true],
    ['delete Notes entirely please 🙏', 'Notes', 'delete', true],
    ['rewrite Notes entirely from scratch', 'Notes', 'rewrite', true],
    // A word the grammar of orders does not account for ("with more tension") makes it no order: asked, not acted on.
    ['rewrite Notes with more tension', 'Notes', 'rewrite', false],
    ['delete Notes and rewrite Notes File', 'Notes', 'delete', true],
    ['delete Notes and rewrite Notes File', 'Notes File', 'rewrite', true],
    ['delete Notes then rewrite Notes File', 'Notes File', 'rewrite', true],
    ['my editor wants to delete Notes and rewrite Notes File', 'Notes File', 'rewrite', false],
    ['delete Notes, 大纲, Notes File', 'Notes File', 'delete', true],
    ['Notes，大纲，都删掉', 'Notes', 'delete', true],
    ['Notes，大纲 写得不错，都删掉', 'Notes', 'delete', false],
    ['笔记删了', '笔记', 'delete', false],
    ['删了笔记', '笔记', 'delete', false],
    ['把笔记删了', '笔记', 'delete', true],
    ['笔记删了吧 🙏', '笔记', 'delete', true],
    ['把 Notes delete 掉', 'Notes', 'delete', true],
    ['Notes delete', 'Notes', 'delete', false],
    ['delete chapter 3 Notes', 'Notes', 'delete', false],
    ['delete chapter 3, Notes', 'Notes', 'delete', true],
  ] as const)('"%s" → %s %s: %s', (m, title, action, expected) =>
    expect(authorAskedFor({ reading: read(m), titles: [...titles, '笔记'] }, { id: title, title }, action)).toBe(
      expected,
    ),
  );
  test('a choice between files asks for none; a question or an older sentence is not what "it" points at', () => {
    expect(asks('delete Notes or Notes File', 'Notes')).toBe(false);
    expect(asks('删掉大纲还是人物大纲', '大纲')).toBe(false);
    expect(asks('Notes? delete it', 'Notes')).toBe(false);
    expect(asks('Notes is old. I had a long day. delete it', 'Notes')).toBe(false);
    expect(asks('Notes is old. delete it', 'Notes')).toBe(true);
    // A keep points back as far as it likes.
    expect(asks('删了大纲吧……哦不对，还有用，先留着', '大纲')).toBe(false);
  });
  test('a pointing verb takes the file the clause before named, not a part of it', () => {
    expect(asks('Notes is obsolete, delete it', 'Notes')).toBe(true);
    expect(asks('the ending of Notes is weak, delete it', 'Notes')).toBe(false);
    expect(asks('delete it', 'Notes', 'delete', 'Notes')).toBe(true);
    expect(asks('Notes 2 is fine, delete it', 'Notes', 'delete', 'Notes')).toBe(false);
  });
});

describe('run control replies', () => {
  const job = {
    id: 'j1',
    workflowId: 'job-j1',
    status: 'paused',
    from: 2,
    to: 4,
    chaptersDone: [2],
    words: 1200,
    failure: null,
  };
  const found: JobLookup = { job };
  test('what each action applies to', () => {
    expect(['pause', 'resume', 'cancel', 'status'].map((a) => commandApplies(a as 'pause', 'paused'))).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(commandApplies('pause', 'running')).toBe(true);
    expect(commandApplies('cancel', 'completed')).toBe(false);
  });
  test('replies in both languages', () => {
    expect(jobCommandReply({ action: 'status', jobId: null }, found, 'en', false)).toBe(
      'Job (chapters 2–4): 1 of 3 chapters done, 1200 words, status: paused.',
    );
    // The status in the author's words; an operator's failure message is never quoted.
    expect(
      jobCommandReply({ action: 'status', jobId: null }, { job: { ...job, failure: 'model down' } }, 'zh', false),
    ).toBe('任务（第2–4章）：已完成 1/3 章，共 1200 字，状态：已暂停。');
    expect(
      jobCommandReply(
        { action: 'status', jobId: null },
        { job: { ...job, status: 'failed', failure: 'model down', failedChapter: 3 } },
        'en',
        false,
      ),
    ).toContain('\nChapter 3 could not be finished: something went wrong. Resume the job to try again.');
    expect(jobCommandReply({ action: 'pause', jobId: null }, found, 'zh', true)).toContain('这个状态下无法暂停。');
    expect(jobCommandReply({ action: 'pause', jobId: null }, found, 'en', true)).toContain('It cannot be paused now.');
    expect(
      jobCommandReply({ action: 'cancel', jobId: null }, { job: { ...job, status: 'completed' } }, 'en', true),
    ).toContain('It cannot be cancelled now.');
    expect(jobCommandReply({ action: 'resume', jobId: null }, found, 'en', true)).toBe(
      'Resumed.\nJob (chapters 2–4): 1 of 3 chapters done, 1200 words, status: paused.',
    );
    expect(jobCommandReply({ action: 'resume', jobId: null }, found, 'zh', true)).toMatch(/^已继续。\n/);
    expect(jobCommandReply({ action: 'cancel', jobId: null }, found, 'zh', true)).toMatch(/^已取消：/);
    expect(jobCommandReply({ action: 'cancel', jobId: null }, found, 'en', true)).toMatch(/^Cancelled: /);
    expect(jobCommandReply({ action: 'resume', jobId: null }, found, 'en', false)).toContain(
      'It is no longer running: resume it from the Jobs page.',
    );
    expect(jobCommandReply({ action: 'resume', jobId: null }, found, 'zh', false)).toContain('请在“任务”页里继续它。');
    expect(jobCommandReply({ action: 'status', jobId: 'x' }, { job: null, reason: 'not_found' }, 'zh', false)).toBe(
      '没有找到你说的这个任务。',
    );
    expect(jobCommandReply({ action: 'status', jobId: null }, { job: null, reason: 'none_running' }, 'zh', false)).toBe(
      '这个项目现在没有进行中的任务。',
    );
  });
  test('commands at their limits: length, lines, no action word', () => {
    // Every word of the order accounted for: an unknown word makes it none; a longer message is not a command at all.
    expect(jobCommandOf(read(`pause the job ${'x'.repeat(70)}`))).toBeNull();
    expect(jobCommandOf(read(`pause the job. ${'It runs long. '.repeat(20)}`))).toBeNull();
    expect(jobCommandOf(read('pause the job\nplease'))).toEqual({ action: 'pause', jobId: null });
    expect(jobCommandOf(read('  pause the job  '))).toEqual({ action: 'pause', jobId: null });
    expect(jobCommandOf(read('the job'))).toBeNull();
    expect(jobCommandOf(read(''))).toBeNull();
  });
});
