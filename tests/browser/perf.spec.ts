/**
 * Studio's figures, printed by the run: the JavaScript of the first load of /studio
 * (gzipped; target ≤ 250 KB) and the longest main-thread task while a ~5,000-token chapter
 * streams into the page (PerformanceObserver 'longtask'; target ≤ 200 ms).
 */
import zlib from 'node:zlib';
import { call, router, say } from '../helpers/script';
import { createProject, modelState, newestTurnId, script, studio, suggestionsEntry, turnEvents, expect, test } from './helpers';

const VOCAB = 'the keeper climbed stairs toward lamp while rain hammered glass and distant ships blinked once twice before vanishing into fog that smelled of salt iron and old rope'.split(' ');

/** Prose of `n` words with sentence breaks and paragraphs, varied enough to tokenize like text. */
function prose(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = VOCAB[(i * 7 + Math.floor(i / 13)) % VOCAB.length]!;
    out.push(i % 14 === 13 ? `${w}.${i % 70 === 69 ? '\n\n' : ''}` : w);
  }
  return out.join(' ');
}

test('first-load JavaScript and the longest task while a 5,000-token chapter streams', async ({ page }) => {
  // First load: every script the page fetched to show its first screen.
  const js: { url: string; bytes: number }[] = [];
  page.on('response', async (r) => {
    if (r.request().resourceType() !== 'script') return;
    const body = await r.body().catch(() => null);
    if (body) js.push({ url: r.url(), bytes: zlib.gzipSync(body, { level: 9 }).length });
  });
  // In the page (a string: this file is type-checked for Node, without the DOM's types).
  await page.addInitScript({
    content: `window.__longtasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });`,
  });
  await page.goto(studio());
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const firstLoadGz = js.reduce((n, f) => n + f.bytes, 0);
  console.log(`[studio] first-load JavaScript: ${(firstLoadGz / 1024).toFixed(1)} KB gzipped (${js.length} file${js.length === 1 ? '' : 's'}; target ≤ 250 KB)`);
  expect(firstLoadGz).toBeLessThanOrEqual(250 * 1024);

  const projectId = await createProject(`Long chapter ${Date.now()}`);
  const body = prose(4600);
  await script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 1' }),
    { match: { agent: 'writer' }, reply: { content: `<file>\n${body}\n</file>` }, tokensPerSecond: 1200, ttftMs: 300 },
    say('writer', 'Chapter 1 is written.'),
    say('quality_reviewer', 'Verdict: pass\nThe chapter holds together.'),
    suggestionsEntry(['Write chapter 2']),
  ]);
  await page.goto(studio(`projects/${projectId}/chat`));
  await page.getByLabel('Message').fill('Write chapter 1, a long one');
  await page.getByRole('button', { name: 'Send' }).click();
  const turnId = await newestTurnId(page);
  const live = page.getByTestId('file-live');
  await expect(live).toBeVisible();
  const from = await page.evaluate(() => performance.now());
  await expect(page.locator(`article[data-turn-id="${turnId}"]`)).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  const to = await page.evaluate(() => performance.now());
  const tasks = (await page.evaluate('window.__longtasks')) as { start: number; duration: number }[];
  const during = tasks.filter((t) => t.start >= from - 50 && t.start <= to);
  const longest = Math.max(0, ...during.map((t) => t.duration));
  const events = await turnEvents(turnId);
  const chapterTokens = events.filter((e) => e.type === 'usage' && e.step === 2).reduce((n, e) => n + (e.type === 'usage' ? e.data.completionTokens : 0), 0);
  const deltas = events.filter((e) => e.type === 'file_content').length;
  console.log(
    `[studio] streaming a ${chapterTokens}-token chapter (${deltas} file_content events in ${((to - from) / 1000).toFixed(1)} s): longest task ${longest.toFixed(0)} ms, ${during.length} long task(s) over 50 ms (target ≤ 200 ms)`,
  );
  expect(chapterTokens).toBeGreaterThanOrEqual(5000);
  expect(longest).toBeLessThanOrEqual(200);
  // The saved chapter is the streamed one.
  expect((await modelState()).failures).toEqual([]);
  await expect(page.locator(`article[data-turn-id="${turnId}"] .file-card[data-op]`).first()).toContainText('Chapter 1');
});
