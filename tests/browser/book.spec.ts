/**
 * A book written the way an author writes one, start to finish in Studio: a new project, a
 * ten-chapter job, two chapters revised in the editor (one reloaded before its autosave, one
 * after), two chapters reordered on the board, a search that finds a revision, a word goal
 * met, and the EPUB exported in the new order and passing EPUBCheck. Every step is checked
 * against the API, so the desk cannot show a book the server does not have.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import type { Page } from '@playwright/test';
import { epubcheck, epubcheckClasspath } from '../helpers/epubcheck';
import { api, expect, expectAccessible, persona, shot, studio, test } from './helpers';

interface FileItem {
  id: string;
  type: string;
  title: string;
  words: number;
}

const chaptersOf = async (projectId: string): Promise<FileItem[]> =>
  (await api<{ items: FileItem[] }>('GET', `/projects/${projectId}/files?limit=200`)).body.items.filter(
    (f) => f.type === 'draft',
  );
const contentOf = async (id: string) => (await api<{ content: string }>('GET', `/files/${id}`)).body.content;
const numberOf = (title: string) => Number(/(\d+)/.exec(title)?.[1] ?? NaN);

/** The text of XHTML pages: tags out, the entities a writer's punctuation becomes decoded. */
const plain = (html: string): string =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(
      /&(lt|gt|quot|apos|#39|#x27);/g,
      (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", '#x27': "'" })[e]!,
    )
    .replace(/&amp;/g, '&');

/** A sentence of a chapter's prose (not its heading), to find the chapter in the book. */
const sentenceOf = (text: string): string =>
  text
    .split('\n')
    .find((l) => /^[A-Za-z][^*_#`[]{30,}$/.test(l.trim()))!
    .trim()
    .slice(0, 30);

/**
 * The editor's last line, scrolled into view, when it ends with `text`. CodeMirror draws only the
 * lines near the view, so a long chapter is read at its end, where the author typed.
 */
async function lineAtEnd(page: Page, text: string) {
  await page.getByRole('textbox', { name: /^Text: / }).press('Control+End');
  return page.locator('.cm-line').filter({ hasText: text }).last();
}

/** Opens a chapter from the board and puts the caret at the end of its text. */
async function openFromBoard(page: Page, projectId: string, n: number): Promise<void> {
  await page.goto(studio(`projects/${projectId}/board`));
  await page.getByTestId('board').locator(`.board-row[data-number="${n}"]`).getByRole('link').first().click();
  const editor = page.getByRole('textbox', { name: /^Text: / });
  await editor.click();
  await page.keyboard.press('Control+End');
}

test('an author writes a book: a 10-chapter job, revisions with autosave across a reload, a reorder, search, a goal, EPUB', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await persona({ tokensPerSecond: 1500, ttftMs: 20 });

  // A new book, from the projects page.
  await page.goto(studio());
  await page.getByRole('button', { name: 'New project' }).click();
  const title = `The Lantern Coast ${Date.now()}`;
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Type').selectOption('novel');
  await page.getByLabel(/^Author name/).fill('M. Lantern');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/projects\/[0-9a-f]{24}\//);
  const projectId = /projects\/([0-9a-f]{24})/.exec(page.url())![1]!;

  // Ten chapters in one job, without review (the reviewer has its own scenarios).
  await page.getByRole('link', { name: 'Jobs' }).click();
  await page.getByLabel('From chapter').fill('1');
  await page.getByLabel('To chapter').fill('10');
  await page.getByLabel('Review each chapter').uncheck();
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f]{24}$/);
  const view = page.locator('section[data-job-id]');
  await expect(view).toHaveAttribute('data-status', 'completed', { timeout: 240_000 });
  await expect(page.getByTestId('job-status')).toHaveText('completed');
  await expect(view.locator('li[data-chapter][data-state="done"]')).toHaveCount(10);
  await shot(page, 'book-job-done');
  const written = await chaptersOf(projectId);
  expect(written.map((f) => numberOf(f.title)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  const byNumber = new Map(written.map((f) => [numberOf(f.title), f]));

  // Chapter 3 revised and the page reloaded at once, before the autosave's pause: the text is
  // kept on the device, back after the reload, and saved.
  await openFromBoard(page, projectId, 3);
  const three = byNumber.get(3)!;
  const before3 = await contentOf(three.id);
  await page.keyboard.type(' The lamp guttered over the quay.');
  await page.reload();
  await expect.poll(() => contentOf(three.id), { timeout: 30_000 }).toBe(`${before3} The lamp guttered over the quay.`);
  await expect(await lineAtEnd(page, 'The lamp guttered over the quay.')).toBeVisible();

  // Chapter 7 revised, autosaved, then reloaded: the saved text is what comes back.
  await openFromBoard(page, projectId, 7);
  const seven = byNumber.get(7)!;
  const before7 = await contentOf(seven.id);
  await page.keyboard.type(' Nobody answered the bell.');
  await expect(page.getByTestId('save-status')).toHaveText('Saved just now');
  await page.reload();
  await expect(await lineAtEnd(page, 'Nobody answered the bell.')).toBeVisible();
  expect(await contentOf(seven.id)).toBe(`${before7} Nobody answered the bell.`);

  // Chapter 5 moved up: it becomes chapter 4 and chapter 4 becomes 5, texts unchanged.
  const four = byNumber.get(4)!;
  const five = byNumber.get(5)!;
  const [text4, text5] = [await contentOf(four.id), await contentOf(five.id)];
  await page.goto(studio(`projects/${projectId}/board`));
  const board = page.getByTestId('board');
  await board
    .locator('.board-row[data-number="5"]')
    .getByRole('button', { name: /^Move .* up$/ })
    .click();
  await expect(page.getByTestId('board-notice')).toContainText('Moved;');
  await expect(board.locator(`.board-row[data-number="4"][data-board-file="${five.id}"]`)).toBeVisible();
  const reordered = await chaptersOf(projectId);
  const titleOf = (id: string) => reordered.find((f) => f.id === id)!.title;
  expect([numberOf(titleOf(five.id)), numberOf(titleOf(four.id))]).toEqual([4, 5]);
  expect([await contentOf(four.id), await contentOf(five.id)]).toEqual([text4, text5]);
  await shot(page, 'book-board');
  await expectAccessible(page, 'book board');

  // A search finds the revision and opens its chapter with the words selected.
  await page.getByRole('link', { name: 'Search' }).click();
  await page.getByRole('searchbox', { name: 'Search titles and text' }).fill('lamp guttered');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.locator('.search-results > li')).toHaveCount(1);
  await page.locator(`.search-results > li[data-file-id="${three.id}"] .search-hit`).first().click();
  await expect(page).toHaveURL(new RegExp(`/files/${three.id}\\?at=\\d+-\\d+$`));

  // A book goal the manuscript already meets.
  const totals = reordered.reduce((sum, f) => sum + f.words, 0);
  await page.goto(studio(`projects/${projectId}/board`));
  await page.getByText('Word goals').click();
  await page.getByLabel('Words for the whole book').fill(String(Math.max(1, totals - 10)));
  await page.getByRole('button', { name: 'Save goals' }).click();
  await expect(page.getByTestId('board-notice')).toHaveText('Goals saved.');
  await expect(page.getByTestId('book-goal')).toContainText('goal met');
  await shot(page, 'book-goal');

  // The EPUB: chapters in the new order, the revisions in it, and EPUBCheck finds nothing.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('group', { name: 'Export' }).getByRole('button', { name: 'EPUB' }).click(),
  ]);
  const bytes = fs.readFileSync((await download.path())!);
  const zip = await JSZip.loadAsync(bytes);
  const opf = await zip.file('OEBPS/content.opf')!.async('string');
  const spine = [...opf.matchAll(/<itemref idref="([^"]+)"/g)].map((m) => m[1]!);
  const hrefs = new Map([...opf.matchAll(/<item id="([^"]+)" href="([^"]+)"/g)].map((m) => [m[1]!, m[2]!]));
  const pages = await Promise.all(
    spine.map((id) => zip.file(`OEBPS/${hrefs.get(id)}`)?.async('string') ?? Promise.resolve('')),
  );
  const book = plain(pages.join('\n'));
  expect(book).toContain('The lamp guttered over the quay.');
  expect(book).toContain('Nobody answered the bell.');
  // The chapters in the book's reading order: the moved one first, each page with its own text.
  const texts = pages.map(plain);
  const pageOf = (id: string) => texts.findIndex((p) => p.includes(titleOf(id)));
  expect(pageOf(five.id)).toBeGreaterThan(-1);
  expect(pageOf(five.id)).toBeLessThan(pageOf(four.id));
  expect(texts[pageOf(five.id)]).toContain(sentenceOf(text5));
  expect(texts[pageOf(four.id)]).toContain(sentenceOf(text4));
  const cp = epubcheckClasspath();
  if (cp) {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'book-')), 'book.epub');
    fs.writeFileSync(file, bytes);
    const check = epubcheck(cp, file);
    expect({ status: check.status, clean: check.clean }, check.out).toEqual({ status: 0, clean: true });
  } else console.warn('[studio] no java on this machine: EPUBCheck not run on the book');
});
