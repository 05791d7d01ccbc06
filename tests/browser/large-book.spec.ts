/**
 * A book of 1,000 chapters (seeded through the API): the project opens and says how many
 * chapters it has, the tree scrolls to chapter 1000 and opens it, and the board lists all
 * of them — nothing cut at 500. Only the rows in view are in the page. The run prints how
 * long opening the project, loading the whole list and opening the board take, and the
 * frame times while the tree scrolls from top to bottom.
 */
import { api, createProject, expectAccessible, shot, studio, expect, test } from './helpers';

const CHAPTERS = 1000;

/** Runs `fn` over `items` with at most `width` at a time. */
async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

test('a 1,000-chapter book opens, counts its chapters, scrolls to chapter 1000 and lists them all on the board', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const projectId = await createProject(`Long book ${Date.now()}`);
  const seeded = Date.now();
  const outline = Array.from(
    { length: CHAPTERS },
    (_, i) => `Chapter ${i + 1}: Tide ${i + 1} — The sea turns for the ${i + 1}th time.`,
  ).join('\n');
  expect(
    (await api('POST', '/files', { projectId, type: 'outline', title: 'Outline', content: `# Outline\n\n${outline}` }))
      .status,
  ).toBe(201);
  await pool(
    Array.from({ length: CHAPTERS }, (_, i) => i + 1),
    8,
    async (n) => {
      const r = await api('POST', '/files', {
        projectId,
        type: 'draft',
        title: `Chapter ${n}`,
        order: n,
        content: `The tide came in for the ${n}th time, and Mara counted the lamps.`,
      });
      expect(r.status).toBe(201);
    },
  );
  console.log(`[studio] seeded ${CHAPTERS} chapters through the API in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

  // Open: from navigation to the tree saying how many chapters there are, with its first rows.
  const opening = Date.now();
  await page.goto(studio(`projects/${projectId}/chat`));
  const tree = page.getByTestId('file-tree');
  await expect(page.getByTestId('chapter-count')).toHaveText('1,000 chapters', { timeout: 60_000 });
  await expect(tree.getByRole('link', { name: /^Chapter 1\b/ }).first()).toBeVisible();
  const opened = Date.now() - opening;
  await expect(tree.getByRole('status')).toHaveCount(0, { timeout: 60_000 });
  const whole = Date.now() - opening;
  await expect(tree.locator('h3', { hasText: 'Chapters' })).toContainText('1,000');
  // Virtualised: a few dozen rows in the page, not a thousand.
  const rendered = await tree.locator('a[data-file-id]').count();
  expect(rendered).toBeLessThan(100);
  await shot(page, 'large-book-open');
  await expectAccessible(page, 'large book (tree)');

  // Scroll the tree from top to bottom, a screen at a time, timing the frames (and idle frames, for the machine's own pace).
  const frames = (await page.evaluate(`(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(null)));
    const el = document.querySelector('[data-testid="tree-scroll"]');
    const idle = [];
    const scroll = [];
    let last = performance.now();
    for (let i = 0; i < 30; i++) {
      await frame();
      const now = performance.now();
      idle.push(now - last);
      last = now;
    }
    while (el.scrollTop + el.clientHeight < el.scrollHeight - 1) {
      el.scrollTop += el.clientHeight;
      await frame();
      const now = performance.now();
      scroll.push(now - last);
      last = now;
    }
    const sort = (a) => a.sort((x, y) => x - y);
    return { idle: sort(idle), scroll: sort(scroll) };
  })()`)) as { idle: number[]; scroll: number[] };
  const p95 = (a: number[]) => (a[Math.floor(a.length * 0.95)] ?? 0).toFixed(1);
  console.log(
    `[studio] 1,000-chapter tree: opened in ${opened} ms (chapter count and first rows), whole list in ${whole} ms; ${rendered} rows in the page; ` +
      `scrolled top to bottom in ${frames.scroll.length} frames: p95 ${p95(frames.scroll)} ms, max ${(frames.scroll[frames.scroll.length - 1] ?? 0).toFixed(1)} ms (idle frames p95 ${p95(frames.idle)} ms)`,
  );
  const last = tree.getByRole('link', { name: /^Chapter 1000\b/ });
  await expect(last).toBeVisible();
  await shot(page, 'large-book-tree-end');
  await last.click();
  await expect(page.getByRole('heading', { level: 2, name: 'Chapter 1000' })).toBeVisible();
  await expect(last).toHaveAttribute('aria-current', 'page');

  // The board: all 1,000, with the outline's synopsis, down to the last.
  const boarding = Date.now();
  await page.getByRole('link', { name: 'Board', exact: true }).click();
  await expect(page.getByTestId('board-totals')).toContainText('1,000 chapters', { timeout: 60_000 });
  console.log(`[studio] 1,000-chapter board opened in ${Date.now() - boarding} ms`);
  await page.getByTestId('board-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  const thousand = page.locator('.board-row[data-number="1000"]');
  await expect(thousand).toBeVisible();
  await expect(thousand).toContainText('The sea turns for the 1000th time.');
  expect(await page.locator('.board-row').count()).toBeLessThan(100);
  await shot(page, 'large-book-board-end');
  await expectAccessible(page, 'large book (board)');

  // Search across the 1,000 chapters: the hit in the last one opens it.
  const searching = Date.now();
  await page.getByRole('link', { name: 'Search', exact: true }).click();
  await page.getByRole('searchbox').fill('1000th time, and Mara');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const hit = page.locator('.search-hit');
  await expect(hit).toHaveCount(1, { timeout: 60_000 });
  const took = (
    await api<{ tookMs: number }>(
      'GET',
      `/projects/${projectId}/search?q=${encodeURIComponent('1000th time, and Mara')}`,
    )
  ).body.tookMs;
  console.log(
    `[studio] search across 1,000 chapters: results shown in ${Date.now() - searching} ms (the server's search took ${took} ms)`,
  );
  await hit.click();
  await expect(page.getByRole('heading', { level: 2, name: 'Chapter 1000' })).toBeVisible();
});
