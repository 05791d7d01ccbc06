/**
 * Typing in a 10,000-word chapter, measured in Chromium and printed: the main thread's CPU per
 * key (Chrome's ThreadTime, which the machine's other load does not inflate), the wall time of
 * each key's work, and key → next frame. Target: under 16 ms per key. No timing is asserted
 * (a loaded machine would make that flaky); what was typed must be the text, saved as one version.
 */
import os from 'node:os';
import { api, authorFile, createProject, expect, shot, studio, test } from './helpers';

// Playwright's trace snapshots the page at every action, on the page's main thread: not while measuring.
test.use({ trace: 'off' });

const EDITOR = 'Text: Chapter 1';
const fileOf = async (id: string) => (await api<{ content: string }>('GET', `/files/${id}`)).body;
const historyOf = async (id: string) =>
  (await api<{ items: { author: string; operation: string }[] }>('GET', `/files/${id}/versions`)).body.items.map(
    (v) => [v.author, v.operation],
  );

const VOCAB =
  'the keeper climbed stairs toward lamp while rain hammered glass and distant ships blinked once twice before vanishing into fog that smelled of salt iron and old rope'.split(
    ' ',
  );

/** Prose of exactly `n` words: sentences of 14 words, paragraphs of about 120. */
function prose(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = VOCAB[(i * 7 + Math.floor(i / 13)) % VOCAB.length]!;
    out.push(i % 14 === 13 ? `${w}.${i % 126 === 125 ? '\n' : ''}` : w);
  }
  return out.join(' ').replace(/\n /g, '\n');
}

/**
 * Per key, in the page: the main thread's time for it — from its keydown to the editor's change
 * of the text (the handlers, the editor's update, ours), plus the next frame's own work (style,
 * layout, paint) — and, for the record, from the key event to after that frame, which also
 * counts waiting for the frame and for any other task the machine ran first. (A string: this
 * file is type-checked without the DOM's types.)
 */
const MEASURE_KEYS = `(() => {
  window.__keys = [];
  const after = (fn) => { const c = new MessageChannel(); c.port1.onmessage = fn; c.port2.postMessage(0); };
  let pending = null;
  document.addEventListener('keydown', (e) => { pending = { t0: e.timeStamp, start: performance.now() }; }, true);
  new MutationObserver(() => {
    const p = pending;
    if (!p) return;
    pending = null;
    const changed = performance.now();
    requestAnimationFrame(() => {
      const frame = performance.now();
      after(() => {
        const painted = performance.now();
        window.__keys.push({ work: changed - p.start + (painted - frame), latency: painted - p.t0 });
      });
    });
  }).observe(document.querySelector('.cm-content'), { childList: true, subtree: true, characterData: true });
})()`;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

test('typing in a 10,000-word chapter: the time each key costs, printed (target under 16 ms)', async ({ page }) => {
  const text = prose(10_000);
  const projectId = await createProject(`Long chapter ${Date.now()}`);
  const chapter = await authorFile(projectId, 'Chapter 1', text);
  // Opened in the middle of the text (as a search hit opens it), where every key reflows what follows.
  const middle = text.indexOf('.', text.length / 2) + 1;
  await page.goto(studio(`projects/${projectId}/files/${chapter}?at=${middle}`));
  await expect(page.getByTestId('word-count')).toHaveText('10,000');
  const editor = page.getByRole('textbox', { name: EDITOR });
  await expect(editor).toBeFocused();
  await page.evaluate(MEASURE_KEYS);
  // The main thread's CPU time (Chrome's ThreadTime): what the keys cost whatever else the machine runs.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const threadTime = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')!.value;
  const cpuBefore = await threadTime();

  const typed =
    ' Mara counted every lamp along the harbour wall, and none of them were lit tonight; the ferry bell rang twice and then the whole town held its breath until dawn came.';
  const keys = (typed + typed).slice(0, 200);
  for (let i = 0; i < keys.length; i++) {
    await page.keyboard.type(keys[i]!);
    await page.waitForFunction(`window.__keys.length >= ${i + 1}`, undefined, { polling: 20 });
  }
  const cpuPerKey = (((await threadTime()) - cpuBefore) * 1000) / keys.length;
  const samples = (await page.evaluate('window.__keys')) as { work: number; latency: number }[];
  expect(samples).toHaveLength(200);
  const work = samples.map((s) => s.work);
  const latency = samples.map((s) => s.latency);
  console.log(
    `[editor] typing in a 10,000-word chapter, 200 keys: main-thread CPU per key ${ms(cpuPerKey)} on average (target < 16 ms); ` +
      `wall time per key (keydown → text changed, + the next frame's work) p50 ${ms(pct(work, 50))}, p95 ${ms(pct(work, 95))}, max ${ms(Math.max(...work))}; ` +
      `key → next frame p50 ${ms(pct(latency, 50))}, p95 ${ms(pct(latency, 95))}, max ${ms(Math.max(...latency))}; ` +
      `machine load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
  );
  // What was typed is the text, saved as one version of the author's.
  const expected = text.slice(0, middle) + keys + text.slice(middle);
  await expect.poll(async () => (await fileOf(chapter)).content, { timeout: 30_000 }).toBe(expected);
  expect(await historyOf(chapter)).toEqual([
    ['author', 'author_create'],
    ['author', 'author_autosave'],
  ]);
  await shot(page, 'editor-long-chapter');
});
