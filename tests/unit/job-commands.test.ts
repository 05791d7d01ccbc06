/** Run control from chat: which messages are commands, and how the reply reads. */
import { jobSummaryText } from '../../src/activities/job/job-summary';
import { jobCommandOf, jobCommandReply, jobQuestionOf } from '../../src/core/words/job-commands';
import { read } from './read';

test.each([
  ['pause the job', 'pause'],
  ['Pause job please', 'pause'],
  ['暂停任务', 'pause'],
  ['先把生成任务停一下', 'pause'],
  ['resume the job', 'resume'],
  ['继续任务', 'resume'],
  ['cancel job 0123456789abcdef01234567', 'cancel'],
  ['取消这个任务', 'cancel'],
  ['进度怎么样', 'status'],
  ['任务进度？', 'status'],
  ['job status', 'status'],
  ["how's the job going?", 'status'],
])('"%s" is %s', (m, action) => expect(jobCommandOf(read(m))?.action).toBe(action));

test.each([
  'continue chapter 3',
  'stop writing chapter 4 here',
  'pause before the reveal in the story',
  "don't cancel the job",
  '别暂停任务',
  'what is the status of Anna in chapter 2?',
  '继续写',
  'write the next chapter',
])('"%s" is not a command', (m) => expect(jobCommandOf(read(m))).toBeNull());

test.each([
  'should I cancel the job?',
  'can I cancel the job later?',
  'what happens if I cancel the job',
  'how do I cancel a job',
  'why did the job stop?',
  'if the job fails, cancel it',
  'I might cancel the job tomorrow',
  'cancel the job lol jk',
  'cancel the job... actually no',
  'pause the job?',
  'did you pause the job',
  'can you cancel the job if it fails',
  '要取消任务吗？',
  '任务为什么停止了',
  '如果取消任务会怎样',
  '任务停止了',
  '暂停任务？',
  '明天再暂停任务',
  '取消任务，开玩笑的',
])('"%s" asks, supposes or takes back: no job is touched', (m) => expect(jobCommandOf(read(m))).toBeNull());

test.each([
  ['请取消任务', 'cancel'],
  ['把任务取消了', 'cancel'],
  ['the job is taking forever, cancel it', 'cancel'],
  ['ok cancel the job', 'cancel'],
  ['cancel that job', 'cancel'],
  ['pause this batch', 'pause'],
])('"%s" is a request: %s', (m, action) => expect(jobCommandOf(read(m))?.action).toBe(action));

// One policy for every rule that reads an author: a question, a polite one included, gives no order;
// the turn asks back in one line ("Pause the job now?") and the next plain yes runs it. "Stop" could
// be a pause or a cancel: the author is asked which.
test.each([
  ['can you cancel the job?', 'cancel'],
  ['could you pause the job please', 'pause'],
  ['能帮我暂停任务吗？', 'pause'],
  ['能不能帮我把任务取消了？', 'cancel'],
  ['stop the batch', 'stop'],
  ['停止任务', 'stop'],
])('"%s" gives no order: the author is asked (%s)', (m, action) => {
  expect(jobCommandOf(read(m))).toBeNull();
  expect(jobQuestionOf(read(m))?.action).toBe(action);
});

test.each([
  '我刚才已经把任务暂停了',
  'I already paused the job',
  'cancel the job lol',
  'why did the job stop?',
  '任务停止了',
])('"%s" is neither an order nor asked about', (m) => {
  expect(jobCommandOf(read(m))).toBeNull();
  expect(jobQuestionOf(read(m))).toBeNull();
});

test('the id a message names is the job meant', () =>
  expect(jobCommandOf(read('cancel job 0123456789ABCDEF01234567'))?.jobId).toBe('0123456789abcdef01234567'));

test('replies: singular and plural, both languages, and what cannot be done now', () => {
  const job = {
    id: 'j',
    workflowId: 'job-j',
    status: 'running',
    from: 1,
    to: 1,
    chaptersDone: [],
    words: 0,
    failure: null,
  };
  expect(jobCommandReply({ action: 'status', jobId: null }, { job }, 'en', false)).toBe(
    'Job (chapter 1): 0 of 1 chapter done, 0 words, status: running.',
  );
  expect(jobCommandReply({ action: 'resume', jobId: null }, { job }, 'en', false)).toContain(
    'It cannot be resumed now.',
  );
  expect(
    jobCommandReply({ action: 'pause', jobId: null }, { job: { ...job, to: 3, chaptersDone: [1] } }, 'zh', true),
  ).toBe('正在暂停：当前这一章写完后停下。\n任务（第1–3章）：已完成 1/3 章，共 0 字，状态：进行中。');
});

test('replies never show the author a status code, an operator message, an id or an API route', () => {
  const job = {
    id: '0123456789abcdef01234567',
    workflowId: 'job-x',
    status: 'failed',
    from: 2,
    to: 4,
    chaptersDone: [2],
    words: 900,
    failure: 'chapter 3: turn 65aa00000000000000000000 failed (output_truncated)',
    failedChapter: 3,
  };
  for (const lang of ['en', 'zh'] as const)
    for (const [action, signalled] of [
      ['status', true],
      ['resume', false],
      ['pause', true],
    ] as const) {
      const text = jobCommandReply({ action, jobId: null }, { job }, lang, signalled);
      expect(text).not.toMatch(/[0-9a-f]{24}|output_truncated|POST|\/api\/|status: failed|：failed/);
      if (lang === 'zh' && action === 'status') expect(text).toContain('第3章没能完成');
      if (lang === 'zh' && action === 'resume') expect(text).toContain('请在“任务”页里继续它');
    }
  expect(jobCommandReply({ action: 'cancel', jobId: job.id }, { job: null, reason: 'not_found' }, 'en', false)).toBe(
    'That job was not found.',
  );
});

test('closing summaries say what was written and what is left', () => {
  expect(
    jobSummaryText(
      {
        status: 'completed',
        from: 1,
        to: 3,
        chaptersDone: [1, 2, 3],
        words: 3000,
        revisions: 1,
        next: 4,
        reason: null,
      },
      'en',
    ),
  ).toBe(
    'The job for chapters 1–3 is complete. Written: chapters 1–3 (3000 words, 1 revision round). Nothing is left.',
  );
  // The author reads the reason in words, with Chinese chapter forms (第1–2章, 第3–5章), never the operator's message.
  expect(
    jobSummaryText(
      { status: 'failed', from: 1, to: 5, chaptersDone: [1, 2], words: 10, revisions: 0, next: 3, reason: 'cut_off' },
      'zh',
    ),
  ).toBe('第3章没能完成：模型的回答到了长度上限，被截断了。恢复任务即可重试。已写完第1–2章，共 10 字。剩下第3–5章。');
  expect(
    jobSummaryText(
      {
        status: 'failed',
        from: 1,
        to: 2,
        chaptersDone: [],
        words: 0,
        revisions: 0,
        next: 1,
        reason: 'turn_failed',
        failedChapter: null,
      },
      'en',
    ),
  ).toBe(
    'The outline could not be finished: the writing stopped on an error. Resume the job to try again. No chapter was finished. Left: chapters 1–2.',
  );
  expect(
    jobSummaryText(
      { status: 'cancelled', from: 6, to: 8, chaptersDone: [6], words: 10, revisions: 0, next: 7, reason: null },
      'zh',
    ),
  ).toBe('任务已取消（第6–8章）。已写完第6章，共 10 字。剩下第7–8章。');
  expect(
    jobSummaryText(
      { status: 'paused', from: 2, to: 2, chaptersDone: [], words: 0, revisions: 0, next: 2, reason: null },
      'en',
    ),
  ).toContain('No chapter was finished. Left: chapter 2.');
});
