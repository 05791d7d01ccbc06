/**
 * The Chinese UI, as an author who picks 中文 sees it: every label in Chinese (kept across a
 * reload), a Chinese project created from the form, a turn in Chinese, chapters ordered by
 * their Chinese numerals, and word counts that count each CJK character.
 */
import {
  api,
  authorFile,
  expectAccessible,
  newestTurnId,
  pageTexts,
  persona,
  shot,
  streamTexts,
  studio,
  turnEvents,
  expect,
  test,
} from './helpers';

test('中文界面: projects, a turn, the manuscript tree in numeral order, CJK word counts', async ({ page }) => {
  await persona();
  await page.goto(studio());
  await page.getByLabel('Language').selectOption('zh');
  await expect(page.getByRole('heading', { name: '作品', exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await page.reload();
  await page.getByRole('button', { name: '新建作品' }).click();
  await expect(page.getByRole('heading', { name: '新建作品' })).toBeVisible();

  const title = `灯塔守望者 ${Date.now()}`;
  await page.getByLabel('标题').fill(title);
  await page.getByLabel('类型').selectOption('novel');
  await page.getByLabel('简介').fill('守塔人在海图上找不到的船。');
  await page.getByRole('button', { name: '创建' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const projectId = /projects\/([0-9a-f]{24})/.exec(page.url())![1]!;
  expect((await api<{ title: string }>('GET', `/projects/${projectId}`)).body.title).toBe(title);

  await page.getByLabel('消息').fill('写第一章');
  await page.getByRole('button', { name: '发送' }).click();
  const turnId = await newestTurnId(page);
  const turn = page.locator(`article[data-turn-id="${turnId}"]`);
  await expect(turn).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  expect(await pageTexts(page, turnId)).toEqual(streamTexts(await turnEvents(turnId)));
  await expect(turn.locator('.agent-chip').first()).toHaveText(/写手|策划|审稿|钩子设计/);
  await expect(turn.locator('.file-card[data-op]').first()).toContainText('字');
  await shot(page, 'chat-zh');
  await expectAccessible(page, 'chat (zh)');

  // Chapters by their numerals, whatever order they were made in; each CJK character is a word.
  const ten = await authorFile(projectId, '第十章 归航', '潮水在黄昏时涌来。Mara 数着灯，一盏也没亮。');
  const two = await authorFile(projectId, '第二章', '第二夜，钟响了两次。');
  await page.reload();
  const tree = page.getByTestId('file-tree');
  await expect(tree.locator(`a[data-file-id="${ten}"]`)).toBeVisible();
  await expect(tree.locator(`a[data-file-id="${two}"]`)).toBeVisible();
  const order = await tree
    .locator('a[data-file-id]')
    .evaluateAll((els) => els.map((e) => e.querySelector('.file-title')?.textContent ?? ''));
  const chapters = order.filter((x) => /^第.+章/.test(x));
  expect(chapters.indexOf('第二章')).toBeLessThan(chapters.indexOf('第十章 归航'));
  const firstChapter = chapters.findIndex((x) => x.startsWith('第一章') || x.includes('第1章'));
  if (firstChapter >= 0) expect(firstChapter).toBeLessThan(chapters.indexOf('第二章'));
  await tree.locator(`a[data-file-id="${ten}"]`).click();
  await expect(page.getByRole('heading', { level: 2, name: '第十章 归航' })).toBeVisible();
  // 潮水在黄昏时涌来 (8) + Mara (1) + 数着灯 (3) + 一盏也没亮 (5)
  await expect(page.getByTestId('word-count')).toHaveText('17');
  await expect(page.getByRole('button', { name: '保存' })).toBeVisible();
  await expect(page.getByRole('button', { name: '历史版本' })).toBeVisible();
  await shot(page, 'file-zh');
  await expectAccessible(page, 'file (zh)');
});
