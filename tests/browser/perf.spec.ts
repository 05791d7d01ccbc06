/**
 * Studio's figures, printed by the run: the bytes each screen transfers on a cold visit
 * (opening a project: target ≤ 150 KB; and no request for the API's 106 KB openapi.json), the
 * JavaScript of the first load of /studio (gzipped; target ≤ 250 KB) and the longest
 * main-thread task while a ~5,000-token chapter streams into the page (PerformanceObserver
 * 'longtask'; target ≤ 200 ms).
 */
import zlib from 'node:zlib';
import { call, prose as numberedProse, router, say, streamFile } from '../helpers/script';
import {
  authorFile,
  createProject,
  createSession,
  modelState,
  newestTurnId,
  postTurn,
  script,
  studio,
  suggestionsEntry,
  turnEvents,
  waitTurnDone,
  expect,
  test,
} from './helpers';
import { kb, TransferMeter } from './layout';

const VOCAB =
  'the keeper climbed stairs toward lamp while rain hammered glass and distant ships blinked once twice before vanishing into fog that smelled of salt iron and old rope'.split(
    ' ',
  );

/** Prose of `n` words with sentence breaks and paragraphs, varied enough to tokenize like text. */
function prose(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = VOCAB[(i * 7 + Math.floor(i / 13)) % VOCAB.length]!;
    out.push(i % 14 === 13 ? `${w}.${i % 70 === 69 ? '\n\n' : ''}` : w);
  }
  return out.join(' ');
}

test('bytes per screen on a cold visit: opening a project ≤ 150 KB, assets compressed, no openapi.json', async ({
  page,
}) => {
  // A book under way: an outline, twelve chapters of 2,000 words, a conversation with a chapter turn.
  const projectId = await createProject(`Weights ${Date.now()}`);
  await authorFile(
    projectId,
    'Outline',
    Array.from({ length: 12 }, (_, i) => `Chapter ${i + 1}: the keeper's ${i + 1}th night.`).join('\n'),
    'outline',
  );
  const chapters: string[] = [];
  for (let i = 1; i <= 12; i++) chapters.push(await authorFile(projectId, `Chapter ${i}`, numberedProse(2000)));
  await script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...streamFile('writer', 'Chapter 13', numberedProse(400)),
    say('writer', 'Chapter 13 is written.'),
    say('quality_reviewer', 'Verdict: pass\nThe chapter holds together.'),
    suggestionsEntry(['Write chapter 14']),
  ]);
  const sessionId = await createSession(projectId);
  expect((await waitTurnDone(await postTurn(sessionId, 'Write chapter 13'))).status).toBe('completed');

  const meter = await TransferMeter.attach(page);
  const screens: [string, string, () => Promise<unknown>][] = [
    ['projects', '', () => expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible()],
    [
      'project (chat)',
      `projects/${projectId}/chat/${sessionId}`,
      () => expect(page.locator('article.turn').first()).toBeVisible(),
    ],
    ['board', `projects/${projectId}/board`, () => expect(page.getByRole('heading', { level: 1 })).toBeVisible()],
    [
      'editor (2,000 words)',
      `projects/${projectId}/files/${chapters[0]}`,
      () => expect(page.getByRole('button', { name: 'Save', exact: true })).toBeVisible(),
    ],
    [
      'jobs',
      `projects/${projectId}/jobs`,
      () => expect(page.getByRole('heading', { name: 'Start a job' })).toBeVisible(),
    ],
    [
      'trash',
      `projects/${projectId}/trash`,
      () => expect(page.getByRole('heading', { level: 2, name: 'Trash' })).toBeVisible(),
    ],
  ];
  const figures: Record<string, number> = {};
  const requested: string[] = [];
  for (const [name, path, ready] of screens) {
    meter.reset();
    await page.goto(studio(path));
    await ready();
    await meter.settle();
    const { bytes, top } = meter.total();
    figures[name] = bytes;
    requested.push(...meter.requested());
    console.log(
      `[studio] ${name}: ${kb(bytes)} transferred (cold) — largest: ${top.map((r) => `${new URL(r.url).pathname.split('/').filter(Boolean).pop() ?? '/'} ${kb(r.bytes)}`).join(', ')}`,
    );
  }
  // From the list into a project, as an author goes (the app's code is already loaded).
  await page.goto(studio());
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await meter.settle();
  meter.reset();
  await page
    .getByRole('link', { name: /^Weights/ })
    .first()
    .click();
  await expect(page.locator('article.turn').first()).toBeVisible();
  await meter.settle();
  requested.push(...meter.requested());
  console.log(`[studio] projects → project in the app: ${kb(meter.total().bytes)} transferred`);

  expect(figures['project (chat)']).toBeLessThanOrEqual(150 * 1024);
  expect(requested.filter((u) => u.includes('openapi.json'))).toEqual([]);
  // The scripts and styles came compressed (the meter counts bytes on the wire).
  const js = requested.filter((u) => /\/assets\/index-[^/]+\.js$/.test(u));
  expect(js.length).toBeGreaterThan(0);
  const wire = await page.evaluate(
    `performance.getEntriesByType('resource').filter((e) => /\\/assets\\/index-[^/]+\\.js$/.test(e.name)).map((e) => [e.encodedBodySize, e.decodedBodySize])`,
  );
  for (const [encoded, decoded] of wire as [number, number][]) expect(encoded).toBeLessThan(decoded / 3);
});

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
  console.log(
    `[studio] first-load JavaScript: ${(firstLoadGz / 1024).toFixed(1)} KB gzipped (${js.length} file${js.length === 1 ? '' : 's'}; target ≤ 250 KB)`,
  );
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
  await expect(page.locator(`article[data-turn-id="${turnId}"]`)).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
  const to = await page.evaluate(() => performance.now());
  const tasks = (await page.evaluate('window.__longtasks')) as { start: number; duration: number }[];
  const during = tasks.filter((t) => t.start >= from - 50 && t.start <= to);
  const longest = Math.max(0, ...during.map((t) => t.duration));
  const events = await turnEvents(turnId);
  const chapterTokens = events
    .filter((e) => e.type === 'usage' && e.step === 2)
    .reduce((n, e) => n + (e.type === 'usage' ? e.data.completionTokens : 0), 0);
  const deltas = events.filter((e) => e.type === 'file_content').length;
  console.log(
    `[studio] streaming a ${chapterTokens}-token chapter (${deltas} file_content events in ${((to - from) / 1000).toFixed(1)} s): longest task ${longest.toFixed(0)} ms, ${during.length} long task(s) over 50 ms (target ≤ 200 ms)`,
  );
  expect(chapterTokens).toBeGreaterThanOrEqual(5000);
  expect(longest).toBeLessThanOrEqual(200);
  // The saved chapter is the streamed one.
  expect((await modelState()).failures).toEqual([]);
  await expect(page.locator(`article[data-turn-id="${turnId}"] .file-card[data-op]`).first()).toContainText(
    'Chapter 1',
  );
});
