/**
 * Jobs tell the truth, as an author watching them sees it, with no reload: the job view, the
 * jobs list and the task board (open in a second tab, beside the chat) all say "completed" or
 * "cancelled" when the job does, and offer no Pause or Cancel after the end; the bar of the
 * chapter being written rises with its words during the chapter (sampled several times, not
 * 0 % then 100 %); the job's cost is shown; a job in Chinese is Chinese throughout, with
 * 第1–2章. Screenshots at desktop and phone sizes, in both languages. The run prints how many
 * events a chapter costs on the job's stream and on the chapter's own stream.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { api, createProject, expectAccessible, persona, shot, studio, expect, test, BASE, AUTH } from './helpers';
import type { StreamEvent } from '../../src/core/events';

interface JobBody {
  status: string;
  chaptersDone: number[];
  costUsd: number;
}

async function jobWhen(
  jobId: string,
  want: (j: JobBody) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<JobBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const j = (await api<JobBody>('GET', `/jobs/${jobId}`)).body;
    if (want(j)) return j;
    if (Date.now() > deadline) throw new Error(`job ${jobId}: ${what} (it is ${j.status})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A stream's whole content, read as the API serves it (the job's, or a turn's). */
async function streamOf(kind: 'jobs' | 'turns', id: string): Promise<StreamEvent[]> {
  const res = await fetch(`${BASE()}/api/v1/${kind}/${id}/events`, { headers: AUTH() });
  return (await res.text())
    .split('\n\n')
    .map((f) => f.split('\n').find((l) => l.startsWith('data: ')))
    .filter((l): l is string => !!l)
    .map((l) => JSON.parse(l.slice(6)) as StreamEvent);
}

/** A second tab of the same author, on the chat with the task board beside it. */
async function boardTab(context: BrowserContext, projectId: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(studio(`projects/${projectId}/chat`));
  await expect(page.getByTestId('task-board')).toBeVisible();
  return page;
}

/** Words shown for the chapter being written, sampled while it is written (distinct values, in order). */
async function sampleWriting(page: Page, jobId: string, chapter: number): Promise<number[]> {
  const row = page.locator(`section[data-job-id="${jobId}"] li[data-chapter="${chapter}"]`);
  await expect(row).toHaveAttribute('data-state', 'writing', { timeout: 30_000 });
  const seen: number[] = [];
  for (let i = 0; i < 400; i++) {
    const [state, words, pct] = await row.evaluate((el) => [
      el.getAttribute('data-state'),
      Number(el.getAttribute('data-words')),
      Number(el.querySelector('progress')?.getAttribute('value')),
    ]);
    if (state !== 'writing') break;
    if (words > 0 && words !== seen[seen.length - 1]) {
      seen.push(words);
      expect(pct).toBeLessThan(100);
    }
    await page.waitForTimeout(100);
  }
  return seen;
}

test('a job that completes: its progress rises within each chapter, then completed everywhere with no controls, cost shown', async ({
  page,
  context,
}) => {
  // Slow enough to watch a chapter grow: the stack's persona writes 400-word chapters.
  await persona({ tokensPerSecond: 120, ttftMs: 20 });
  const projectId = await createProject(`Truth ${Date.now()}`);
  await page.goto(studio(`projects/${projectId}/jobs`));
  await page.getByLabel('From chapter').fill('1');
  await page.getByLabel('To chapter').fill('2');
  await page.getByLabel('Review each chapter').uncheck();
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f]{24}$/);
  const jobId = /jobs\/([0-9a-f]{24})/.exec(page.url())![1]!;
  const view = page.locator(`section[data-job-id="${jobId}"]`);
  const board = await boardTab(context, projectId);

  // Chapter 1 while it is written: the view says so and what Pause will do; its words rise,
  // several times, and its bar is never full.
  await expect(view.locator('li[data-chapter="1"]')).toHaveAttribute('data-state', 'writing', { timeout: 30_000 });
  await expect(view.getByTestId('job-now')).toHaveText('Writing chapter 1.');
  await expect(view.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(view.getByText('The chapter being written finishes first.')).toBeVisible();
  const samples = await sampleWriting(page, jobId, 1);
  console.log(`[jobs] chapter 1 words as the page showed them while it was written: ${samples.join(', ')}`);
  expect(samples.length).toBeGreaterThanOrEqual(4);
  for (let i = 1; i < samples.length; i++) expect(samples[i]!).toBeGreaterThan(samples[i - 1]!);
  // The board in the other tab has the job, in progress, while it runs: no id, no jargon.
  const item = board.locator(`[data-task-id="job-${jobId}"]`);
  await expect(item).toHaveAttribute('data-job-status', 'running');
  await expect(item).toContainText('Job: Chapters 1–2');
  await expect(item).not.toContainText(/job [0-9a-f]{6}|one chapter per turn/);
  await expect(view.locator('li[data-chapter="2"]')).toHaveAttribute('data-state', 'writing', { timeout: 30_000 });
  // The jobs list beside the view says what the job has spent as the view does, chapter in flight included.
  const listed = page.getByTestId('job-list').locator(`li[data-job-id="${jobId}"] [data-cost]`);
  const spent = async () => [
    await view.getByTestId('job-cost').getAttribute('data-cost'),
    await listed.getAttribute('data-cost'),
  ];
  await expect
    .poll(async () => {
      const [a, b] = await spent();
      return Number(a) > 0 && a === b;
    })
    .toBe(true);
  await shot(page, 'jobs-writing-desktop-en');
  await expectAccessible(page, 'job view (writing)');

  await persona({ tokensPerSecond: 2000, ttftMs: 5 });
  const done = await jobWhen(jobId, (j) => j.status === 'completed', 'completed', 90_000);
  // The job view, the list beside it and the board in the other tab: completed, no controls, no reload.
  await expect(view).toHaveAttribute('data-status', 'completed');
  await expect(view.getByTestId('job-status')).toHaveText('completed');
  await expect(view.getByTestId('job-now')).toHaveText('Job completed: 2 of 2 chapters written.');
  await expect(page.getByRole('button', { name: /Pause|Cancel|Resume|Keep going|Try again/ })).toHaveCount(0);
  await expect(page.getByTestId('job-list').locator(`li[data-job-id="${jobId}"]`)).toHaveAttribute(
    'data-status',
    'completed',
  );
  await expect(page.getByTestId('job-list').locator(`li[data-job-id="${jobId}"]`)).toContainText('completed');
  await expect(item).toHaveAttribute('data-job-status', 'completed');
  await expect(item).toHaveAttribute('data-status', 'done');
  await expect(item).toContainText('2/2 chapters written');
  for (const n of [1, 2]) await expect(view.locator(`li[data-chapter="${n}"]`)).toHaveAttribute('data-state', 'done');
  // The cost, as the usage records add it up.
  await expect(view.getByTestId('job-cost')).toContainText(`Cost: $${done.costUsd.toFixed(4)}`);
  await expect(listed).toHaveAttribute('data-cost', String(done.costUsd));
  await shot(page, 'jobs-completed-desktop-en');
  await shot(board, 'jobs-board-completed-desktop-en');
  await expectAccessible(board, 'task board (job completed)');

  // What a chapter costs the streams: the job's own (small), and the chapter turn's that the view follows.
  const jobEvents = await streamOf('jobs', jobId);
  const turns = [
    ...new Set(
      jobEvents.flatMap((e) =>
        e.type === 'job_progress' && e.data.kind === 'turn' && e.data.turnKind === 'chapter' && e.data.turnId
          ? [e.data.turnId]
          : [],
      ),
    ),
  ];
  const perTurn = await Promise.all(turns.map((t) => streamOf('turns', t)));
  const fileEvents = perTurn.map((evs) => evs.filter((e) => e.type === 'file_content').length);
  console.log(
    `[jobs] events per chapter: job stream ${(jobEvents.length / 2).toFixed(1)} (whole job ${jobEvents.length}); chapter turn streams ${perTurn.map((e) => e.length).join(', ')} of which chapter text ${fileEvents.join(', ')}`,
  );
  expect(jobEvents.length).toBeLessThan(20);

  // A reload shows the same.
  await page.reload();
  await expect(view).toHaveAttribute('data-status', 'completed');
  await expect(page.getByRole('button', { name: /Pause|Cancel/ })).toHaveCount(0);
  await board.close();
});

test('a cancelled job says cancelled in the view, the list and the task board, at once', async ({ page, context }) => {
  await persona({ tokensPerSecond: 150, ttftMs: 20 });
  const projectId = await createProject(`Cancel ${Date.now()}`);
  const started = await api<{ jobId: string }>('POST', '/jobs', {
    projectId,
    chapters: { from: 1, to: 3 },
    review: false,
  });
  expect(started.status).toBe(202);
  const jobId = started.body.jobId;
  await page.goto(studio(`projects/${projectId}/jobs/${jobId}`));
  const view = page.locator(`section[data-job-id="${jobId}"]`);
  const board = await boardTab(context, projectId);
  await expect(view.locator('li[data-chapter="1"]')).toHaveAttribute('data-state', 'writing', { timeout: 30_000 });
  const item = board.locator(`[data-task-id="job-${jobId}"]`);
  await expect(item).toHaveAttribute('data-job-status', 'running');

  await view.getByRole('button', { name: 'Cancel job' }).click();
  await jobWhen(jobId, (j) => j.status === 'cancelled', 'cancelled');
  await expect(view).toHaveAttribute('data-status', 'cancelled');
  await expect(view.getByTestId('job-status')).toHaveText('cancelled');
  await expect(page.getByRole('button', { name: /Pause|Cancel|Resume/ })).toHaveCount(0);
  await expect(page.getByTestId('job-list').locator(`li[data-job-id="${jobId}"]`)).toHaveAttribute(
    'data-status',
    'cancelled',
  );
  await expect(item).toHaveAttribute('data-job-status', 'cancelled');
  await expect(item).toContainText('cancelled');
  await expect(item).toHaveAttribute('data-status', 'todo');
  // The server's board says so too (agents read it), and the view counts what it counts: a
  // chapter whose text was saved before the cancel is in the manuscript; the rest are not written.
  const tasks = (
    await api<{ tasks: { id: string; status: string; progress: string; doneUnits: number[] }[] }>(
      'GET',
      `/projects/${projectId}`,
    )
  ).body.tasks;
  const task = tasks.find((t) => t.id === `job-${jobId}`)!;
  expect(task).toMatchObject({
    status: 'todo',
    progress: `${task.doneUnits.length}/3 chapters written; job cancelled`,
  });
  await expect(view.getByTestId('job-now')).toHaveText(
    task.doneUnits.length
      ? `Job cancelled: ${task.doneUnits.length} of 3 chapters written, and they are kept.`
      : 'Job cancelled before any chapter was written.',
  );
  await expect(item).toContainText(`${task.doneUnits.length}/3 chapters written`);
  for (const n of [1, 2, 3])
    await expect(view.locator(`li[data-chapter="${n}"]`)).toHaveAttribute(
      'data-state',
      task.doneUnits.includes(n) ? 'done' : 'notWritten',
    );
  await shot(page, 'jobs-cancelled-desktop-en');
  await shot(board, 'jobs-board-cancelled-desktop-en');
  await board.close();
});

test('a job paused at its budget says why, and the author lifts the budget from the job view to go on', async ({
  page,
}) => {
  await persona({ tokensPerSecond: 2000, ttftMs: 5 });
  const projectId = await createProject(`Budget ${Date.now()}`);
  const jobId = (
    await api<{ jobId: string }>('POST', '/jobs', {
      projectId,
      chapters: { from: 1, to: 2 },
      review: false,
      maxTokens: 1,
    })
  ).body.jobId;
  await page.goto(studio(`projects/${projectId}/jobs/${jobId}`));
  const view = page.locator(`section[data-job-id="${jobId}"]`);
  await expect(view).toHaveAttribute('data-status', 'paused', { timeout: 60_000 });
  await expect(view.getByTestId('job-now')).toHaveText(
    'Paused before chapter 1. Resume to go on; finished chapters are kept.',
  );
  // Why, in words (never the API's field names), and where to change it.
  await expect(view.locator('.job-latest')).toContainText('token budget 1 would be exceeded');
  await expect(view.locator('.job-latest')).not.toContainText('maxTokens');
  const budget = view.getByLabel('Token budget');
  await expect(budget).toHaveValue('1');
  await shot(page, 'jobs-budget-paused-desktop-en');
  await expectAccessible(page, 'job paused at its budget');
  await budget.fill('');
  await view.getByRole('button', { name: 'Resume' }).click();
  await jobWhen(jobId, (j) => j.status === 'completed', 'completed after the budget was lifted', 90_000);
  await expect(view).toHaveAttribute('data-status', 'completed');
  expect((await api<{ maxTokens: number | null }>('GET', `/jobs/${jobId}`)).body.maxTokens).toBeNull();
});

async function chinesePage(
  browser: Browser,
  viewport: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale: 'zh-CN' });
  await context.addInitScript((t) => {
    localStorage.setItem('scriptorium.token', t);
    localStorage.setItem('scriptorium.lang', 'zh');
  }, process.env.STUDIO_TOKEN!);
  return { context, page: await context.newPage() };
}

test('中文：任务页、任务列表和任务板全是中文，用“第1–2章”这样的写法', async ({ browser }) => {
  await persona({ tokensPerSecond: 150, ttftMs: 20 });
  const { context, page } = await chinesePage(browser, { width: 1360, height: 860 });
  const projectId = await createProject(`雾港 ${Date.now()}`);
  await page.goto(studio(`projects/${projectId}/jobs`));
  await page.getByLabel('起始章').fill('1');
  await page.getByLabel('结束章').fill('2');
  await page.getByLabel('每章审稿').uncheck();
  await page.getByRole('button', { name: '开始' }).click();
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f]{24}$/);
  const jobId = /jobs\/([0-9a-f]{24})/.exec(page.url())![1]!;
  const view = page.locator(`section[data-job-id="${jobId}"]`);
  await expect(view.getByRole('heading', { name: '任务 · 第1–2章' })).toBeVisible();
  await expect(view.locator('li[data-chapter="1"]')).toHaveAttribute('data-state', 'writing', { timeout: 30_000 });
  await expect(view.getByTestId('job-now')).toHaveText('正在写第1章。');
  await expect(view.getByTestId('job-status')).toHaveText('进行中');
  await expect(view.locator('li[data-chapter="1"] .ch-label')).toHaveText('第1章');
  await expect(view.getByRole('button', { name: '暂停' })).toBeVisible();
  await shot(page, 'jobs-writing-desktop-zh');
  await expectAccessible(page, 'job view (zh)');

  await persona({ tokensPerSecond: 2000, ttftMs: 5 });
  await jobWhen(jobId, (j) => j.status === 'completed', 'completed', 90_000);
  await expect(view.getByTestId('job-status')).toHaveText('已完成');
  await expect(view.getByTestId('job-now')).toHaveText('任务完成：写好了 2/2 章。');
  await expect(view.getByTestId('job-cost')).toContainText('费用：$');
  const text = (await view.innerText()) + (await page.getByTestId('job-list').innerText());
  // Fully Chinese: no English words, no “章节 1”, no ASCII colon after Chinese.
  expect(text.match(/[A-Za-z]{2,}/g) ?? []).toEqual([]);
  expect(text).not.toMatch(/章节\s*\d|第 \d|[\u4e00-\u9fff]:/);
  await expect(page.getByTestId('job-list')).toContainText('第1–2章');
  await shot(page, 'jobs-completed-desktop-zh');

  await page.goto(studio(`projects/${projectId}/chat`));
  const item = page.getByTestId('task-board').locator(`[data-task-id="job-${jobId}"]`);
  await expect(item).toHaveText(/任务：第1–2章\s*· 已完成 · 已写 2\/2 章/);
  await shot(page, 'jobs-board-desktop-zh');
  // The job's own messages are Chinese too (the author's language went with the job).
  const events = await streamOf('jobs', jobId);
  for (const e of events)
    if (e.type === 'job_progress') expect((e.data.message ?? '').replace(/《[^》]*》/g, '')).toMatch(/^[^A-Za-z]*$/);
  await context.close();
});

test('phone: a job runs and ends readably at 390×844, in both languages', async ({ browser }) => {
  await persona({ tokensPerSecond: 150, ttftMs: 20 });
  for (const lang of ['en', 'zh'] as const) {
    const { context, page } = await chinesePage(browser, { width: 390, height: 844 });
    if (lang === 'en') await context.addInitScript(() => localStorage.setItem('scriptorium.lang', 'en'));
    const projectId = await createProject(`Phone ${lang} ${Date.now()}`);
    const jobId = (
      await api<{ jobId: string }>('POST', '/jobs', {
        projectId,
        chapters: { from: 1, to: 2 },
        review: false,
        language: lang,
      })
    ).body.jobId;
    await page.goto(studio(`projects/${projectId}/jobs/${jobId}`));
    const view = page.locator(`section[data-job-id="${jobId}"]`);
    await expect(view.locator('li[data-chapter="1"]')).toHaveAttribute('data-state', 'writing', { timeout: 30_000 });
    await view.scrollIntoViewIfNeeded();
    // The controls are on screen and the page does not scroll sideways.
    const pause = view.getByRole('button', { name: lang === 'en' ? 'Pause' : '暂停' });
    await pause.scrollIntoViewIfNeeded();
    const box = (await pause.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await shot(page, `jobs-writing-phone-${lang}`);
    // The job card alone at the width a phone gives the main column once the file tree is a
    // drawer (the shell's phone layout): the card fits its own width, whatever the page around it.
    const restore = await page.addStyleTag({
      content: '.project { grid-template-columns: 1fr !important; } .project > .side { display: none !important; }',
    });
    await shot(page, `jobs-writing-phone-card-${lang}`);
    expect(await view.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await restore.evaluate((el) => el.remove());
    await view.getByRole('button', { name: lang === 'en' ? 'Cancel job' : '取消任务' }).click();
    await expect(view).toHaveAttribute('data-status', 'cancelled');
    await shot(page, `jobs-cancelled-phone-${lang}`);
    await context.close();
  }
});
