/**
 * The conversation and its record, as an author uses them with the default setup (the offline
 * model's persona, unscripted, unless a scenario needs a pace it cannot give):
 * - a finished turn looks the same live, after a reload, and after its stream expired;
 * - delete and whole-rewrite orders reach the approval card, and approve and deny both end
 *   in the truth, said in words; nothing on screen is a tool name, an id or an error code;
 * - conversations are named by their first message, job runs are listed apart;
 * - the outline's live box ends when it is saved, a chapter dropped by Stop is shown as not
 *   saved, and steering says what happens next.
 */
import type { Page } from '@playwright/test';
import { router, words } from '../helpers/script';
import {
  api,
  authorFile,
  createProject,
  createSession,
  expectAccessible,
  expireTurnStream,
  inChinese,
  modelState,
  newestTurnId,
  persona,
  script,
  shot,
  studio,
  suggestionsEntry,
  waitTurnDone,
  expect,
  test,
} from './helpers';

test.beforeEach(async () => {
  await persona();
});
test.afterEach(async () => {
  expect((await modelState()).failures).toEqual([]);
});

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1360, height: 860 };

/** Desktop and phone screenshots of the page as it is. */
async function shots(page: Page, name: string): Promise<void> {
  await shot(page, name);
  await page.setViewportSize(PHONE);
  await shot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

async function openChat(page: Page, projectId: string, sessionId?: string): Promise<void> {
  await page.goto(studio(`projects/${projectId}/chat${sessionId ? `/${sessionId}` : ''}`));
  await expect(page.getByRole('textbox', { name: /^(Message|消息)$/ })).toBeVisible();
}

/** Sends a message and returns the id of the turn it started (a new card, not the one before it). */
async function send(page: Page, message: string): Promise<string> {
  const cards = page.locator('article.turn');
  const before = await cards.count();
  await page.getByRole('textbox', { name: /^(Message|消息)$/ }).fill(message);
  await page.getByRole('button', { name: /^(Send|发送)$/ }).click();
  await expect(cards).toHaveCount(before + 1);
  return newestTurnId(page);
}

/** What a turn shows, item by item (kind, state and text), and the next steps offered under it. */
async function rendered(page: Page, turnId: string) {
  const turn = page.locator(`article[data-turn-id="${turnId}"]`);
  const items = await turn.evaluate((el) => [
    el.querySelector('.user-msg')?.textContent ?? '',
    ...[...el.querySelectorAll('.assistant > *')].map((c) =>
      [
        c.className,
        c.getAttribute('data-op') ?? '',
        c.getAttribute('data-version') ?? '',
        c.getAttribute('data-decision') ?? '',
        c.textContent ?? '',
      ].join(' | '),
    ),
  ]);
  const suggestions = await page.locator('.suggestions button').allTextContents();
  return { items, suggestions };
}

/** A tool's name, a 24-hex id, or a snake_case code anywhere in what the author reads. */
const JARGON = /_file\b|\b[0-9a-f]{24}\b|\b[a-z]+_[a-z]+(?:_[a-z]+)*\b/;
async function expectNoJargon(page: Page, where: string): Promise<void> {
  const text = await page.locator('body').innerText();
  expect(text.match(JARGON)?.[0] ?? '', `jargon on screen (${where})`).toBe('');
}

test('a finished turn looks the same live, after a reload and after its stream expired: agents, steps, file cards with versions, verdict, usage, next steps', async ({
  page,
}) => {
  const projectId = await createProject(`Record ${Date.now()}`);
  await openChat(page, projectId);
  const turnId = await send(page, 'Write chapter 1');
  const turn = page.locator(`article[data-turn-id="${turnId}"]`);
  await expect(turn).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  expect((await waitTurnDone(turnId)).status).toBe('completed');
  await expect(page.locator('.suggestions button').first()).toBeVisible();
  const live = await rendered(page, turnId);
  // The turn as it streamed: the writer's card with its words and version, the reviewer's verdict, usage.
  expect(live.items.join('\n')).toMatch(/file-card \| created \| 1 \| {2}\| .*Created\s+Chapter 1.*words · version 1/);
  expect(live.items.some((i) => i.startsWith('verdict '))).toBe(true);
  expect(live.items.some((i) => /usage .*Usage: [\d,]+ tokens · \$[\d.]+ · completed/.test(i))).toBe(true);
  expect(live.suggestions.length).toBeGreaterThan(0);
  await shots(page, 'record-live');

  await page.reload();
  await expect(page.locator(`article[data-turn-id="${turnId}"]`)).toHaveAttribute('data-status', 'done');
  await expect(page.locator('.suggestions button').first()).toBeVisible();
  expect(await rendered(page, turnId)).toEqual(live);

  expect(await expireTurnStream(turnId)).toBe(1);
  await page.reload();
  await expect(page.locator(`article[data-turn-id="${turnId}"]`)).toHaveAttribute('data-status', 'done');
  await expect(page.locator('.suggestions button').first()).toBeVisible();
  expect(await rendered(page, turnId)).toEqual(live);
  await shots(page, 'record-after-expiry');
  await expectAccessible(page, 'record after the stream expired');
  await expectNoJargon(page, 'a written chapter, from its record');
});

for (const decision of ['approve', 'deny'] as const)
  test(`the default setup asks before deleting the author’s chapter: ${decision}, and the chat says what became of it`, async ({
    page,
  }) => {
    const projectId = await createProject(`Ask ${decision} ${Date.now()}`);
    const fileId = await authorFile(projectId, 'Chapter 2', 'The author wrote chapter two, every word of it.');
    await openChat(page, projectId);
    const turnId = await send(page, 'Could you delete chapter 2?');
    const card = page.getByRole('group', { name: 'Approval needed' });
    await expect(card).toContainText('The team asks to delete your file: Chapter 2');
    await expect(card).toContainText('The author wrote chapter two');
    const turn = page.locator(`article[data-turn-id="${turnId}"]`);
    await expect(turn.locator('.tool')).toContainText('Asked you before deleting “Chapter 2”: waiting for your answer');
    await expect(page.getByRole('status').filter({ hasText: 'Waiting for your answer above' })).toBeVisible();
    if (decision === 'approve') await shots(page, 'record-approval');
    await card.getByRole('button', { name: decision === 'approve' ? 'Approve' : 'Deny' }).click();
    await expect(turn).toHaveAttribute('data-status', 'done');
    await expect(card.locator('.decision')).toHaveAttribute('data-decision', decision);
    const trash = await api<{ items: { id: string }[] }>('GET', `/projects/${projectId}/files?deleted=true`);
    if (decision === 'approve') {
      expect(trash.body.items.map((f) => f.id)).toEqual([fileId]);
      await expect(turn.locator('.tool')).toHaveText(/Asked you before deleting “Chapter 2”: you approved/);
      await expect(turn.locator('.file-card[data-op="deleted"]')).toContainText('Moved to the trash: Chapter 2');
      await expect(turn.locator('.msg-text').last()).toContainText(
        '"Chapter 2" is in the trash; you can restore it from the Trash.',
      );
      await expect(page.getByTestId('file-tree').locator(`a[data-file-id="${fileId}"]`)).toHaveCount(0);
    } else {
      expect(trash.body.items).toEqual([]);
      expect((await api<{ content: string }>('GET', `/files/${fileId}`)).body.content).toBe(
        'The author wrote chapter two, every word of it.',
      );
      await expect(turn.locator('.tool')).toHaveText(
        /Asked you before deleting “Chapter 2”: you said no, so it was kept/,
      );
      await expect(turn.locator('.msg-text').last()).toContainText(
        '"Chapter 2" stays as it is: you chose not to delete it.',
      );
      await expect(turn.locator('.file-card')).toHaveCount(0);
    }
    await shots(page, `record-approval-${decision}`);
    await expectAccessible(page, `approval ${decision}`);
    await expectNoJargon(page, `approval ${decision}`);
    // Read back from the record, the same.
    const live = await rendered(page, turnId);
    await page.reload();
    await expect(page.locator(`article[data-turn-id="${turnId}"]`)).toHaveAttribute('data-status', 'done');
    expect(await rendered(page, turnId)).toEqual(live);
  });

test('a clear order goes ahead without asking; a step that fails says why in words, never its code', async ({
  page,
}) => {
  const projectId = await createProject(`Orders ${Date.now()}`);
  const two = await authorFile(projectId, 'Chapter 2', 'Mine.');
  await authorFile(projectId, 'Chapter 3', 'Also mine.');
  await openChat(page, projectId);
  const deleted = await send(page, 'delete chapter 2');
  const turn = page.locator(`article[data-turn-id="${deleted}"]`);
  await expect(turn).toHaveAttribute('data-status', 'done');
  await expect(turn.locator('.approval')).toHaveCount(0);
  await expect(turn.locator('.file-card[data-op="deleted"]')).toContainText('Chapter 2');
  expect(
    (await api<{ items: { id: string }[] }>('GET', `/projects/${projectId}/files?deleted=true`)).body.items.map(
      (f) => f.id,
    ),
  ).toEqual([two]);
  // Asked to write a chapter that exists: the step failed, and says why.
  const exists = await send(page, 'Write chapter 3');
  const again = page.locator(`article[data-turn-id="${exists}"]`);
  await expect(again).toHaveAttribute('data-status', 'done');
  await expect(again.locator('.tool.failed')).toHaveText(
    /Could not finish the step on “Chapter 3”: a file with that name already exists/,
  );
  await expect(again.locator('.msg-text').last()).toContainText(
    '"Chapter 3" already exists, so I did not create it again.',
  );
  await shots(page, 'record-refused');
  await expectNoJargon(page, 'a clear delete and a failed create');
});

test('中文：整章推倒重写先征得作者同意，同意后如实告知；页面上没有工具名、编号或错误码', async ({ page }) => {
  await inChinese(page);
  const projectId = await createProject(`灯塔 ${Date.now()}`);
  const fileId = await authorFile(projectId, '第一章', '作者亲手写的第一章，一字一句。');
  await openChat(page, projectId);
  const turnId = await send(page, '能把第一章推倒重写吗？');
  const card = page.getByRole('group', { name: '需要你的确认' });
  await expect(card).toContainText('团队请求整体改写你写的文件：第一章');
  await expect(card).toContainText(
    /将有 1 行被替换为 \d+ 行。会被替换掉的文字开头是：\s*作者亲手写的第一章，一字一句。/,
  );
  await shots(page, 'record-approval-zh');
  await card.getByRole('button', { name: '同意' }).click();
  const turn = page.locator(`article[data-turn-id="${turnId}"]`);
  await expect(turn).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(turn.locator('.tool').first()).toHaveText(/整体改写《第一章》之前先征求了你的同意：你同意了/);
  await expect(turn.locator(`.file-card[data-file-id="${fileId}"]`).first()).toContainText(
    /已保存\s*第一章\s*· [\d,]+ 字 · 第 2 版/,
  );
  // The writer's own word is held back when the reviewer reads the draft: the reviewer's verdict, in Chinese, says it.
  await expect(turn.locator('.verdict')).toHaveText('审稿结论：通过');
  await expect(turn.getByTestId('usage')).toContainText('用量：');
  const file = await api<{ content: string; version: number }>('GET', `/files/${fileId}`);
  expect(file.body.version).toBe(2);
  await shots(page, 'record-rewrite-zh');
  await expectAccessible(page, 'rewrite approved (zh)');
  await expectNoJargon(page, 'rewrite approved (zh)');
});

test('conversations are named by their first message; job runs are listed apart, and open as their own record', async ({
  page,
}) => {
  const projectId = await createProject(`Names ${Date.now()}`);
  await openChat(page, projectId);
  const turnId = await send(page, 'Plan a ten-chapter mystery set in a lighthouse');
  const picker = page.getByRole('combobox', { name: 'Conversation' });
  await expect(picker.locator('option:checked')).toHaveText('Plan a ten-chapter mystery set in a lighthouse');
  await waitTurnDone(turnId);
  // A job of one chapter, writing in a session of its own.
  const job = await api<{ jobId: string; sessionId: string }>('POST', '/jobs', {
    projectId,
    chapters: { from: 1, to: 1 },
    review: false,
  });
  expect(job.status).toBe(202);
  await expect
    .poll(async () => (await api<{ status: string }>('GET', `/jobs/${job.body.jobId}`)).body.status, {
      timeout: 60_000,
    })
    .toBe('completed');
  await page.reload();
  await expect(picker.locator('option:checked')).toHaveText('Plan a ten-chapter mystery set in a lighthouse');
  // The job's session is not among the conversations: it is a job run.
  await expect(picker.locator('option')).toHaveText(['Plan a ten-chapter mystery set in a lighthouse']);
  const runs = page.getByRole('combobox', { name: 'Job runs' });
  await expect(runs.locator('option')).toHaveText(['Job runs (1)', /^Chapter 1 · /]);
  await page.getByRole('button', { name: 'New conversation' }).click();
  await expect(picker.locator('option:checked')).toHaveText(/^New conversation · /);
  await shots(page, 'record-conversations');
  await runs.selectOption({ index: 1 });
  await expect(page).toHaveURL(new RegExp(`/chat/${job.body.sessionId}$`));
  await expect(runs.locator('option:checked')).toHaveText(/^Chapter 1 · /);
  const chapterTurn = page.locator('article.turn').first();
  // The chapter's request is the job's, not the author's words.
  await expect(chapterTurn.locator('.user-msg .who')).toHaveText('The job asked');
  await expect(chapterTurn.locator('.file-card[data-op]').first()).toContainText('Chapter 1');
  await shots(page, 'record-job-run');
  await expectAccessible(page, 'a job run');
});

test('中文：对话以第一条消息命名，任务记录单独列出', async ({ page }) => {
  await inChinese(page);
  const projectId = await createProject(`命名 ${Date.now()}`);
  const sessionId = await createSession(projectId);
  await openChat(page, projectId, sessionId);
  const turnId = await send(page, '规划一部十章的悬疑小说，故事发生在灯塔');
  await waitTurnDone(turnId);
  const job = await api<{ jobId: string }>('POST', '/jobs', { projectId, chapters: { from: 2, to: 3 }, review: false });
  expect(job.status).toBe(202);
  // Cancelled, and over, before the next scenario scripts the model (a running job would take its answers).
  expect((await api('POST', `/jobs/${job.body.jobId}/cancel`, {})).status).toBeLessThan(300);
  await expect
    .poll(async () => (await api<{ status: string }>('GET', `/jobs/${job.body.jobId}`)).body.status, {
      timeout: 60_000,
    })
    .toBe('cancelled');
  await page.reload();
  await expect(page.getByRole('combobox', { name: '对话' }).locator('option:checked')).toHaveText(
    '规划一部十章的悬疑小说，故事发生在灯塔',
  );
  await expect(page.getByRole('combobox', { name: '任务记录' }).locator('option')).toHaveText([
    '任务记录 (1)',
    /^第2–3章 · /,
  ]);
  await shots(page, 'record-conversations-zh');
});

test('the outline’s live box ends when the outline is saved: one card, saved, with its version', async ({ page }) => {
  await persona({ tokensPerSecond: 120 });
  const projectId = await createProject(`Outline ${Date.now()}`);
  await openChat(page, projectId);
  const turnId = await send(page, 'Plan a ten-chapter mystery');
  const turn = page.locator(`article[data-turn-id="${turnId}"]`);
  await expect(turn.getByTestId('file-live')).toBeVisible();
  await expect(turn.locator('.file-card[data-op="streaming"]')).toContainText('Writing Outline');
  await shot(page, 'record-outline-streaming');
  await expect(turn).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(turn.getByTestId('file-live')).toHaveCount(0);
  const cards = turn.locator('.file-card');
  await expect(cards).toHaveCount(1);
  await expect(cards).toHaveAttribute('data-op', 'created');
  await expect(cards).toHaveAttribute('data-version', '1');
  await expect(cards).toContainText(/Created\s+Outline\s+· [\d,]+ words · version 1/);
  await shots(page, 'record-outline-saved');
});

test('a chapter Stop drops mid-stream is shown as not saved, live and from the record', async ({ page }) => {
  await persona({ tokensPerSecond: 40 });
  const projectId = await createProject(`Stop ${Date.now()}`);
  await openChat(page, projectId);
  const turnId = await send(page, 'Write chapter 3');
  const turn = page.locator(`article[data-turn-id="${turnId}"]`);
  await expect(turn.getByTestId('file-live')).toContainText(/\w+ \w+ \w+/);
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(turn).toHaveAttribute('data-status', 'done');
  await expect(turn.getByTestId('file-live')).toHaveCount(0);
  const card = turn.locator('.file-card[data-op="discarded"]');
  await expect(card).toContainText('Not saved Chapter 3 · the turn ended before this text was saved');
  await expect(turn.locator('.stopped')).toContainText('You stopped this turn. What was saved is kept.');
  await shots(page, 'record-stopped');
  const live = await rendered(page, turnId);
  await page.reload();
  await expect(page.locator(`article[data-turn-id="${turnId}"]`)).toHaveAttribute('data-status', 'done');
  expect(await rendered(page, turnId)).toEqual(live);
  await expectNoJargon(page, 'a stopped chapter');
});

test('steering says what happens next: received — applied at the next step; then applied, or unused when the turn ended first', async ({
  page,
}) => {
  const projectId = await createProject(`Steer ${Date.now()}`);
  await script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    {
      match: { agent: 'writer' },
      reply: { content: 'Let me look first.', toolCalls: [{ name: 'query_files', arguments: { query: 'storm' } }] },
      ttftMs: 2500,
    },
    {
      match: { agent: 'writer' },
      reply: { content: `Here is the storm, shorter:\n${words(80)}` },
      tokensPerSecond: 60,
    },
    suggestionsEntry(['Write the calm after the storm']),
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    { match: { agent: 'writer' }, reply: { content: 'A short answer.' }, ttftMs: 2500 },
    suggestionsEntry(['Go on']),
  ]);
  await openChat(page, projectId);
  const turnId = await send(page, 'Write a storm scene');
  const turn = page.locator(`article[data-turn-id="${turnId}"]`);
  await page.getByLabel('Extra instruction for the running turn').fill('Keep it under 200 words');
  await page.getByRole('button', { name: 'Steer' }).click();
  await expect(turn.locator('.steer[data-state="pending"]')).toHaveText(
    '✎ Steering received — applied at the next step: “Keep it under 200 words”',
  );
  await shots(page, 'record-steer-pending');
  await expect(turn.locator('.steer[data-state="applied"]')).toHaveText(
    '✎ Steering applied from this step on: “Keep it under 200 words”',
  );
  await expect(turn.locator('.steer')).toHaveCount(1);
  await expect(turn.locator('.tool')).toContainText('Searched the files for “storm”');
  await expect(turn).toHaveAttribute('data-status', 'done');

  const last = await send(page, 'Answer briefly');
  const second = page.locator(`article[data-turn-id="${last}"]`);
  await page.getByLabel('Extra instruction for the running turn').fill('In one line');
  await page.getByRole('button', { name: 'Steer' }).click();
  await expect(second.locator('.steer[data-state="pending"]')).toBeVisible();
  await expect(second).toHaveAttribute('data-status', 'done');
  await expect(second.locator('.steer[data-state="unused"]')).toHaveText(
    '✎ Not used: the turn ended before its next step. Send it as a new message: “In one line”',
  );
  await shots(page, 'record-steer-unused');
});
