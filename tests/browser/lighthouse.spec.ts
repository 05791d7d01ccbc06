/**
 * Lighthouse (the npm package, driving Debian's Chromium through chrome-launcher with the
 * run's own flags) scores performance and accessibility on the projects, board, chat and
 * editor screens of a book under way; the run prints each score and every one must be ≥ 90.
 *
 * Signing in: Studio keeps the author's token in localStorage. Playwright connects to the
 * same Chromium over its debugging port and stores the token on Studio's origin; Lighthouse
 * then runs with `disableStorageReset` so the token stays, and the HTTP cache is emptied
 * before each run (that is what the storage reset would have done), so every score is a
 * cold visit. Lighthouse's defaults otherwise: a phone on simulated slow 4G, with the CPU
 * slowed down as Lighthouse's guide says for this machine's BenchmarkIndex (4× on a fast
 * desktop; less on a slower or busier one, which is nearer a phone already). Each screen runs
 * three times and its median counts (Lighthouse's advice on variability).
 */
import { chromium } from '@playwright/test';
import { prose, router, say, streamFile } from '../helpers/script';
import {
  authorFile,
  createProject,
  createSession,
  persona,
  postTurn,
  script,
  studio,
  suggestionsEntry,
  waitTurnDone,
  expect,
  test,
} from './helpers';
import { CHROMIUM_ARGS } from './playwright.config';

interface Category {
  score: number | null;
  auditRefs: { id: string; weight: number }[];
}
interface Audit {
  id: string;
  title: string;
  score: number | null;
  displayValue?: string;
}
interface LighthouseResult {
  categories: Record<string, Category>;
  audits: Record<string, Audit>;
  environment: { benchmarkIndex: number };
}

/**
 * The CPU slowdown that makes this machine a mid-tier phone, from its BenchmarkIndex, as
 * Lighthouse's throttling guide (docs/throttling.md, "Calibrating the CPU slowdown") tables
 * it: a high-end desktop (1500 and up) 4×, the default; a low-end desktop (1000–1500) or a
 * high-end phone (800–1000) 2×; slower than that is a mid-tier phone already, 1×. A shared
 * machine under load benchmarks lower, and is not slowed down a second time.
 */
function cpuSlowdownFor(benchmarkIndex: number): number {
  if (benchmarkIndex >= 1500) return 4;
  if (benchmarkIndex >= 800) return 2;
  return 1;
}

/** What to read when a score is short: the failing audits that weigh in the category, worst first. */
function weakest(lhr: LighthouseResult, category: string): string {
  return lhr.categories[category]!.auditRefs.filter((r) => r.weight > 0)
    .map((r) => lhr.audits[r.id]!)
    .filter((a) => a.score !== null && a.score < 0.9)
    .sort((a, b) => a.score! - b.score!)
    .map((a) => `${a.id} ${a.score}${a.displayValue ? ` (${a.displayValue})` : ''}`)
    .join(', ');
}

const RUNS = 3;
const METRICS: Record<string, string> = {
  'first-contentful-paint': 'FCP',
  'largest-contentful-paint': 'LCP',
  'total-blocking-time': 'TBT',
  'cumulative-layout-shift': 'CLS',
};

test.afterEach(async () => {
  await persona();
});

test('Lighthouse: performance and accessibility ≥ 90 on the projects, board, chat and editor screens', async () => {
  test.setTimeout(600_000);
  // A book under way: an outline, twelve chapters of 2,000 words, a conversation with a chapter turn.
  const projectId = await createProject(`Lighthouse ${Date.now()}`);
  await authorFile(
    projectId,
    'Outline',
    Array.from({ length: 12 }, (_, i) => `Chapter ${i + 1}: the keeper's ${i + 1}th night.`).join('\n'),
    'outline',
  );
  const chapters: string[] = [];
  for (let i = 1; i <= 12; i++) chapters.push(await authorFile(projectId, `Chapter ${i}`, prose(2000)));
  await script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...streamFile('writer', 'Chapter 13', prose(400)),
    say('writer', 'Chapter 13 is written.'),
    say('quality_reviewer', 'Verdict: pass\nThe chapter holds together.'),
    suggestionsEntry(['Write chapter 14']),
  ]);
  const sessionId = await createSession(projectId);
  expect((await waitTurnDone(await postTurn(sessionId, 'Write chapter 13'))).status).toBe('completed');

  const { launch } = await import('chrome-launcher');
  const { default: lighthouse } = await import('lighthouse');
  const chrome = await launch({
    chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    chromeFlags: CHROMIUM_ARGS,
    logLevel: 'silent',
  });
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(studio());
    await page.evaluate(`localStorage.setItem('scriptorium.token', ${JSON.stringify(process.env.STUDIO_TOKEN)})`);
    const cdp = await page.context().newCDPSession(page);

    const screens: [string, string][] = [
      ['projects', ''],
      ['board', `projects/${projectId}/board`],
      ['chat', `projects/${projectId}/chat/${sessionId}`],
      ['editor', `projects/${projectId}/files/${chapters[0]}`],
    ];
    // Calibration: one run measures the machine (BenchmarkIndex), the slowdown follows from it.
    const audit = (path: string, cpuSlowdownMultiplier?: number) =>
      lighthouse(studio(path), {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        disableStorageReset: true,
        ...(cpuSlowdownMultiplier ? { throttling: { cpuSlowdownMultiplier } } : {}),
      }).then((r) => r!.lhr as unknown as LighthouseResult);
    await cdp.send('Network.clearBrowserCache');
    const benchmarkIndex = (await audit('')).environment.benchmarkIndex;
    const slowdown = cpuSlowdownFor(benchmarkIndex);
    console.log(
      `[lighthouse] this machine's BenchmarkIndex ${Math.round(benchmarkIndex)}: CPU slowed ${slowdown}× to stand for a mid-tier phone (slow 4G simulated)`,
    );

    const failures: string[] = [];
    for (const [name, path] of screens) {
      // Scores move with the machine's load: the median of three runs, as Lighthouse's own
      // guidance on variability advises; every run is printed.
      const runs: { perf: number; a11y: number; metrics: string; lhr: LighthouseResult }[] = [];
      for (let i = 0; i < RUNS; i++) {
        await cdp.send('Network.clearBrowserCache');
        const lhr = await audit(path, slowdown);
        const metrics = Object.entries(METRICS)
          .map(([id, short]) => `${short} ${lhr.audits[id]!.displayValue}`)
          .join(', ');
        runs.push({
          perf: Math.round((lhr.categories.performance!.score ?? 0) * 100),
          a11y: Math.round((lhr.categories.accessibility!.score ?? 0) * 100),
          metrics,
          lhr,
        });
      }
      const median = [...runs].sort((a, b) => a.perf - b.perf)[Math.floor(RUNS / 2)]!;
      const a11y = Math.min(...runs.map((r) => r.a11y));
      console.log(
        `[lighthouse] ${name}: performance ${median.perf} (runs ${runs.map((r) => r.perf).join(' / ')}; median run ${median.metrics}), accessibility ${a11y}`,
      );
      if (median.perf < 90) failures.push(`${name} performance ${median.perf}: ${weakest(median.lhr, 'performance')}`);
      if (a11y < 90)
        failures.push(
          `${name} accessibility ${a11y}: ${weakest(runs.find((r) => r.a11y === a11y)!.lhr, 'accessibility')}`,
        );
    }
    expect(failures).toEqual([]);
  } finally {
    await browser.close();
    chrome.kill();
  }
});
