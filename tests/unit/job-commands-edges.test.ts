/**
 * Run control from chat at its edges (src/core/words/job-commands.ts): how long a message may be
 * and still give an order or be asked about, a status request beside a control question, the
 * author's answer to "pause it or cancel it?", and every reply and one-line question in both
 * languages, with the verb the author asked for.
 */
import {
  answerToJobOffer,
  jobCommandOf,
  jobCommandReply,
  jobQuestionOf,
  jobQuestionReply,
  type JobLookup,
} from '../../src/core/words/job-commands';
import type { JobOffer } from '../../src/core/words/routing';
import { read } from './read';

const ID = '0123456789abcdef01234567';
const job = (over: Partial<NonNullable<JobLookup['job']>> = {}): NonNullable<JobLookup['job']> => ({
  id: ID,
  workflowId: `job-${ID}`,
  status: 'running',
  from: 2,
  to: 4,
  chaptersDone: [2],
  words: 1200,
  failure: null,
  ...over,
});

/** Why the author wants the job stopped: 217 characters, before the order closes the message. */
const REASON =
  'The outline changed after I talked to my editor, and the middle chapters no longer fit the rest of the book. ' +
  'It has been writing the wrong story all afternoon and I want to start over with the new plan. ';

describe('how long a message may be', () => {
  test('an order closing a 240-character message is still read; one character more and it is not', () => {
    const at = `${REASON}My editor agrees, too. Pause the job.`;
    expect(Array.from(at)).toHaveLength(240);
    expect(jobCommandOf(read(at))).toEqual({ action: 'pause', jobId: null });
    expect(jobCommandOf(read(`${at}\n\n`))).toEqual({ action: 'pause', jobId: null });
    expect(jobCommandOf(read(`${REASON}My editor agrees, also. Pause the job.`))).toBeNull();
  });

  test('"stop the job" in a message of up to 240 characters is asked about; in a longer one it is not', () => {
    const at = `${REASON}She agrees, too. Please stop the job.`;
    expect(Array.from(at)).toHaveLength(240);
    expect(jobQuestionOf(read(at))).toEqual({ action: 'stop', jobId: null });
    expect(jobQuestionOf(read(`${REASON}She agrees with me. Please stop the job.`))).toBeNull();
  });
});

describe('status, and what a control question keeps from being a status request', () => {
  test.each(['progress ', 'status\n'])('%j alone asks for the status', (m) =>
    expect(jobCommandOf(read(m))).toEqual({ action: 'status', jobId: null }),
  );

  test.each(["Can you pause the job? What's the progress?", "can you pause the job, what's the progress?"])(
    '"%s" asks to pause: no status, and the author is asked about the pause',
    (m) => {
      expect(jobCommandOf(read(m))).toBeNull();
      expect(jobQuestionOf(read(m))).toEqual({ action: 'pause', jobId: null });
    },
  );

  test('an order followed by a question back gives no order', () =>
    expect(jobCommandOf(read('pause the job. ok?'))).toBeNull());
});

describe('what is asked about', () => {
  test('an order is run, not asked about', () => expect(jobQuestionOf(read('pause the job'))).toBeNull());
  test('stopping at a chapter is about the writing, not the job', () =>
    expect(jobQuestionOf(read('stop the job at chapter 5'))).toBeNull());
  test('a message about no job control is not asked about', () =>
    expect(jobQuestionOf(read('write the next chapter'))).toBeNull());
  test('the job a question names is the one asked about', () =>
    expect(jobQuestionOf(read(`can you cancel job ${ID.toUpperCase()}?`))).toEqual({ action: 'cancel', jobId: ID }));
});

describe('the answer to an offered job command', () => {
  const stop: JobOffer = { kind: 'job', action: 'stop', jobId: ID };
  const pause: JobOffer = { kind: 'job', action: 'pause', jobId: ID };

  test('after "Pause the job now?" a yes pauses it; a word of its own does not', () => {
    expect(answerToJobOffer(pause, read('yes'))).toEqual({ action: 'pause', jobId: ID });
    expect(answerToJobOffer({ ...pause, action: 'resume' }, read('ok'))).toEqual({ action: 'resume', jobId: ID });
    expect(answerToJobOffer(pause, read('cancel'))).toBeNull();
  });

  test.each([
    ['pause', 'pause'],
    ['Pause.', 'pause'],
    ['pause it', 'pause'],
    ['pause please!', 'pause'],
    ['pause\n', 'pause'],
    ['暂停', 'pause'],
    ['暂停一下', 'pause'],
    ['暂停吧。', 'pause'],
    ['cancel', 'cancel'],
    ['cancel it.', 'cancel'],
    ['Cancel please', 'cancel'],
    ['取消', 'cancel'],
    ['取消掉', 'cancel'],
    ['取消吧！', 'cancel'],
  ])('after "pause it or cancel it?", "%s" picks %s', (m, action) =>
    expect(answerToJobOffer(stop, read(m))).toEqual({ action, jobId: ID }),
  );

  test.each(['yes', 'ok', "don't cancel", 'do not pause', 'cancel it tomorrow', 'pause it later', 'pause or cancel'])(
    'after "pause it or cancel it?", "%s" picks nothing',
    (m) => expect(answerToJobOffer(stop, read(m))).toBeNull(),
  );
});

describe('the one line that asks first', () => {
  test('pause or cancel: the author is asked which, in their language', () => {
    const en = jobQuestionReply({ action: 'stop', jobId: null }, job(), 'en');
    expect(en).toMatch(/^Pause the job \(chapters 2–4\) or cancel it\?/);
    expect(en).toContain('Reply “pause” or “cancel”.');
    const zh = jobQuestionReply({ action: 'stop', jobId: null }, job(), 'zh');
    expect(zh).toMatch(/^要暂停任务（第2–4章）还是取消它？/);
    expect(zh).toContain('请回复“暂停”或“取消”。');
  });

  test.each([
    ['pause', 'Pause the job (chapters 2–4) now?', '现在就暂停任务（第2–4章）吗？回复“好的”我就暂停；'],
    ['resume', 'Resume the job (chapters 2–4) now?', '现在就继续任务（第2–4章）吗？回复“好的”我就继续；'],
    ['cancel', 'Cancel the job (chapters 2–4) now?', '现在就取消任务（第2–4章）吗？回复“好的”我就取消；'],
  ] as const)('%s: the verb opens the question, and a yes runs it', (action, en, zh) => {
    const english = jobQuestionReply({ action, jobId: null }, job(), 'en');
    expect(english.startsWith(en)).toBe(true);
    expect(english).toContain('Reply “yes” and I will');
    expect(jobQuestionReply({ action, jobId: null }, job(), 'zh').startsWith(zh)).toBe(true);
  });
});

describe('replies', () => {
  test('no running job, in both languages', () => {
    expect(jobCommandReply({ action: 'pause', jobId: null }, { job: null, reason: 'none_running' }, 'en', false)).toBe(
      'There is no running job in this project.',
    );
    expect(jobCommandReply({ action: 'pause', jobId: null }, { job: null, reason: 'none_running' }, 'zh', false)).toBe(
      '这个项目现在没有进行中的任务。',
    );
  });

  test.each([
    ['pause', 'completed', '这个状态下无法暂停。'],
    ['resume', 'running', '这个状态下无法继续。'],
    ['cancel', 'completed', '这个状态下无法取消。'],
  ] as const)('a %s a %s job cannot take says so, in Chinese', (action, status, line) =>
    expect(jobCommandReply({ action, jobId: null }, { job: job({ status }) }, 'zh', true).split('\n')[1]).toBe(line),
  );

  test.each([
    ['pause', 'running', 'It is no longer running: pause it from the Jobs page.', '请在“任务”页里暂停它。'],
    ['resume', 'paused', 'It is no longer running: resume it from the Jobs page.', '请在“任务”页里继续它。'],
    ['cancel', 'running', 'It is no longer running: cancel it from the Jobs page.', '请在“任务”页里取消它。'],
  ] as const)('a %s the workflow did not take sends the author to the Jobs page', (action, status, en, zh) => {
    const cmd = { action, jobId: null };
    expect(jobCommandReply(cmd, { job: job({ status }) }, 'en', false).split('\n')[1]).toBe(en);
    expect(jobCommandReply(cmd, { job: job({ status }) }, 'zh', false)).toContain(zh);
  });

  test('a pause taken says the chapter in flight is finished first', () =>
    expect(jobCommandReply({ action: 'pause', jobId: null }, { job: job() }, 'en', true).split('\n')[0]).toBe(
      'Pausing: the chapter being written is finished first, then the job waits.',
    ));
});

describe('a job order beside words about something else', () => {
  test('a reason after "before", a question about an episode, "abandon", traditional characters', () => {
    expect(
      jobCommandOf(read('Please pause the job — I want to rethink the arc before another chapter is written.')),
    ).toMatchObject({ action: 'pause' });
    expect(jobCommandOf(read('pause the job. also, is episode 3 too bleak?'))).toMatchObject({ action: 'pause' });
    expect(jobCommandOf(read('Abandon the job, please.'))).toMatchObject({ action: 'cancel' });
    expect(jobCommandOf(read('把這個任務暫停一下'))).toMatchObject({ action: 'pause' });
    expect(jobCommandOf(read('Where has the job got to?'))).toMatchObject({ action: 'status' });
  });
  test('"before" ahead of the order, or a question about the job itself, still gives none', () => {
    expect(jobCommandOf(read('Before lunch, pause the job.'))).toBeNull();
    expect(jobCommandOf(read('pause the job. is that wise?'))).toBeNull();
  });
});
