/**
 * Search across the manuscript as an author uses it: a word deep in a long chapter, found
 * with its snippet, opens the chapter with the word selected and scrolled into view; Chinese
 * is found inside words; a title matches too. The results are the API's.
 */
import { prose } from '../helpers/script';
import type { Page } from '@playwright/test';
import { api, authorFile, createProject, expectAccessible, shot, studio, expect, test } from './helpers';

/** The selection of the open file's editor, and how far it is scrolled (in-page code as a string: this file is type-checked without the DOM's types). */
async function editorSelection(
  page: Page,
): Promise<{ text: string; from: number; to: number; scrollTop: number; focused: boolean }> {
  return page.evaluate(`(() => {
    const area = document.querySelector('section.file textarea');
    if (area) return { text: area.value.slice(area.selectionStart, area.selectionEnd), from: area.selectionStart, to: area.selectionEnd, scrollTop: area.scrollTop, focused: document.activeElement === area };
    const cm = document.querySelector('section.file .cm-editor');
    const scroller = cm && cm.querySelector('.cm-scroller');
    return { text: String(window.getSelection() || ''), from: -1, to: -1, scrollTop: scroller ? scroller.scrollTop : 0, focused: !!cm && cm.contains(document.activeElement) };
  })()`);
}

test('search in English: a hit deep in a long chapter opens it with the match selected and in view', async ({
  page,
}) => {
  const projectId = await createProject(`Search ${Date.now()}`);
  const long = `${prose(2500)}\nAt last Mara opened the Ledger of Tides and read her own name.\n${prose(300)}`;
  const chapter = await authorFile(projectId, 'Chapter 1: The Storm', long);
  await authorFile(projectId, 'Chapter 2: The Ledger', 'The stranger kept the ledger closed.');
  await authorFile(projectId, 'Outline', 'Chapter 1: The Storm — the ledger is found.', 'outline');

  await page.goto(studio(`projects/${projectId}/search`));
  const box = page.getByRole('searchbox', { name: 'Search titles and text' });
  await expect(box).toBeFocused();
  await box.fill('ledger of tides');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/search\?q=ledger\+of\+tides$/);
  const results = page.locator('.search-results > li');
  await expect(results).toHaveCount(1);
  await expect(page.getByTestId('search-summary')).toHaveText('1 match in 1 file.');
  const hit = results.first().locator('.search-hit');
  await expect(hit.locator('mark')).toHaveText('Ledger of Tides');
  await expect(hit).toContainText('At last Mara opened the Ledger of Tides and read her own name.');

  // The word in three files: the title match first, then the manuscript's order.
  await box.fill('ledger');
  await page.getByRole('button', { name: 'Search' }).click();
  const api3 = await api<{ results: { fileId: string; count: number }[] }>(
    'GET',
    `/projects/${projectId}/search?q=ledger`,
  );
  await expect(results).toHaveCount(api3.body.results.length);
  await expect(results.locator('h3 a')).toHaveText(['Chapter 2: The Ledger', 'Outline', 'Chapter 1: The Storm']);
  await shot(page, 'search');
  await expectAccessible(page, 'search');

  await page.locator(`.search-results > li[data-file-id="${chapter}"] .search-hit`).first().click();
  await expect(page).toHaveURL(new RegExp(`/files/${chapter}\\?at=\\d+-\\d+$`));
  await expect(page.getByRole('heading', { level: 2, name: 'Chapter 1: The Storm' })).toBeVisible();
  await expect.poll(async () => (await editorSelection(page)).text).toBe('Ledger');
  const sel = await editorSelection(page);
  expect(sel.focused).toBe(true);
  if (sel.from >= 0) expect(long.slice(sel.from, sel.to)).toBe('Ledger');
  // Far down a 2,800-word chapter: the editor scrolled to it.
  expect(sel.scrollTop).toBeGreaterThan(1000);
  await shot(page, 'search-hit-open');
  await page.goBack();
  await expect(results).toHaveCount(3);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'search-phone');
});

test('search in Chinese: found inside words, the title too; the hit opens selected', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('scriptorium.lang', 'zh'));
  const projectId = await createProject(`雾港 ${Date.now()}`);
  const text = '远处的钟声在雾里回荡，一下，又一下。\n“灯塔还亮着吗？”她轻声问。\n他没有回答，只是把灯芯拨亮了一些。';
  const one = await authorFile(projectId, '第一章 雾起', text);
  await authorFile(projectId, '第二章 灯塔', '码头上站着一个陌生人。');
  await page.goto(studio(`projects/${projectId}/search?q=${encodeURIComponent('灯塔')}`));
  const results = page.locator('.search-results > li');
  await expect(results.locator('h3 a')).toHaveText(['第二章 灯塔', '第一章 雾起']);
  await expect(results.first()).toContainText('标题匹配');
  await expect(page.getByTestId('search-summary')).toHaveText('在2个文件中找到1处。');
  const hit = results.nth(1).locator('.search-hit');
  await expect(hit).toHaveText('“灯塔还亮着吗？”她轻声问。');
  await expect(hit.locator('mark')).toHaveText('灯塔');
  await shot(page, 'search-zh');
  await expectAccessible(page, 'search (zh)');
  await hit.click();
  await expect(page).toHaveURL(new RegExp(`/files/${one}\\?at=`));
  await expect.poll(async () => (await editorSelection(page)).text).toBe('灯塔');
  await page.goBack();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(results).toHaveCount(2);
  await shot(page, 'search-zh-phone');
  await expectAccessible(page, 'search (zh, phone)');
});
