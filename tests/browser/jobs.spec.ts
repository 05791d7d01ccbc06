/**
 * A three-chapter job from the Jobs tab: a bar per chapter, pause after the first chapter,
 * a reload that shows the same progress (the job's stream is read from its start), resume,
 * and the chapters in the manuscript tree as they land — all as the API reports them.
 */
import { api, createProject, expectAccessible, persona, shot, studio, expect, test } from './helpers';

interface JobBody {
  status: string;
  chaptersDone: number[];
}

async function jobStatus(jobId: string, want: string[], timeoutMs = 60_000): Promise<JobBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const j = await api<JobBody>('GET', `/jobs/${jobId}`);
    if (want.includes(j.body.status)) return j.body;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is ${j.body.status}, not ${want.join('/')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('a 3-chapter job: progress per chapter, pause, reload, resume; chapters appear in the manuscript', async ({
  page,
}) => {
  // Quick chapters, yet slow enough that the pause lands while chapter 2 is in flight (on a busy machine too).
  await persona({ tokensPerSecond: 300, ttftMs: 20 });
  const projectId = await createProject(`Job ${Date.now()}`);
  await page.goto(studio(`projects/${projectId}/jobs`));
  await expectAccessible(page, 'jobs (start)');
  await page.getByLabel('From chapter').fill('1');
  await page.getByLabel('To chapter').fill('3');
  await page.getByLabel(/^Instructions/).fill('Keep each chapter short.');
  await page.getByLabel(/^Token budget/).fill('5000000');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f]{24}$/);
  const jobId = /jobs\/([0-9a-f]{24})/.exec(page.url())![1]!;
  const job = await api<{
    chapters: { from: number; to: number };
    review: boolean;
    maxTokens: number;
    instructions: string;
  }>('GET', `/jobs/${jobId}`);
  expect(job.body).toMatchObject({
    chapters: { from: 1, to: 3 },
    review: true,
    maxTokens: 5_000_000,
    instructions: 'Keep each chapter short.',
  });

  const view = page.locator(`section[data-job-id="${jobId}"]`);
  await expect(view.locator('li[data-chapter]')).toHaveCount(3);
  // Pause once chapter 1 is written: the chapter in flight finishes, then the job waits.
  await expect(view.locator('li[data-chapter="1"]')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Pause' }).click();
  const paused = await jobStatus(jobId, ['paused']);
  await expect(view).toHaveAttribute('data-status', 'paused');
  await expect(page.getByTestId('job-status')).toHaveText('paused');
  for (const n of paused.chaptersDone)
    await expect(view.locator(`li[data-chapter="${n}"]`)).toHaveAttribute('data-state', 'done');
  expect(paused.chaptersDone.length).toBeLessThan(3);

  // A reload shows the same progress, read again from the job's stream and record.
  await page.reload();
  await expect(view).toHaveAttribute('data-status', 'paused');
  for (const n of paused.chaptersDone)
    await expect(view.locator(`li[data-chapter="${n}"]`)).toHaveAttribute('data-state', 'done');
  await shot(page, 'job-paused');
  await expectAccessible(page, 'jobs (progress)');

  await page.getByRole('button', { name: 'Resume' }).click();
  const done = await jobStatus(jobId, ['completed'], 90_000);
  expect(done.chaptersDone).toEqual([1, 2, 3]);
  await expect(view).toHaveAttribute('data-status', 'completed');
  for (const n of [1, 2, 3])
    await expect(view.locator(`li[data-chapter="${n}"]`)).toHaveAttribute('data-state', 'done');
  // The chapters are in the manuscript, in order, with the words the API counts.
  const files = await api<{ items: { id: string; type: string; title: string; words: number }[] }>(
    'GET',
    `/projects/${projectId}/files`,
  );
  const drafts = files.body.items.filter((f) => f.type === 'draft');
  expect(drafts).toHaveLength(3);
  const tree = page.getByTestId('file-tree');
  for (const f of drafts) await expect(tree.locator(`a[data-file-id="${f.id}"]`)).toContainText(String(f.words));
  const order = await tree
    .locator('a[data-file-id]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-file-id')));
  const chapterIds = order.filter((id) => drafts.some((d) => d.id === id));
  expect(chapterIds).toHaveLength(3);
  await shot(page, 'job-done');

  // The task board in Chat shows the project's tasks as the API has them.
  const tasks =
    (await api<{ tasks?: { title: string; status: string }[] }>('GET', `/projects/${projectId}`)).body.tasks ?? [];
  await page.getByRole('link', { name: 'Chat' }).click();
  const board = page.getByTestId('task-board');
  await expect(board.locator('li')).toHaveCount(tasks.length);
  for (const task of tasks)
    await expect(board.locator(`li[data-status="${task.status}"]`, { hasText: task.title })).toBeVisible();
  console.log(`[studio] task board after the job: ${tasks.length} task(s)`);
});

test('cancel a running job: finished chapters stay, the job ends cancelled', async ({ page }) => {
  await persona({ tokensPerSecond: 200, ttftMs: 20 });
  const projectId = await createProject(`Cancel ${Date.now()}`);
  const started = await api<{ jobId: string }>('POST', '/jobs', {
    projectId,
    chapters: { from: 1, to: 2 },
    review: false,
  });
  expect(started.status).toBe(202);
  const jobId = started.body.jobId;
  await page.goto(studio(`projects/${projectId}/jobs/${jobId}`));
  const view = page.locator(`section[data-job-id="${jobId}"]`);
  await expect(view).toHaveAttribute('data-status', /running|queued/);
  await page.getByRole('button', { name: 'Cancel job' }).click();
  const cancelled = await jobStatus(jobId, ['cancelled']);
  await expect(view).toHaveAttribute('data-status', 'cancelled');
  await expect(page.getByTestId('job-status')).toHaveText('cancelled');
  await expect(page.getByRole('button', { name: 'Resume' })).toHaveCount(0);
  for (const n of cancelled.chaptersDone)
    await expect(view.locator(`li[data-chapter="${n}"]`)).toHaveAttribute('data-state', 'done');
});
