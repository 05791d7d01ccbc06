/**
 * Dark mode: Studio follows the system's colour scheme until the author picks Light or Dark
 * in the header; the pick is remembered across reloads and "System" hands it back. Every
 * screen is checked by axe in the dark too (contrast included), and photographed in both
 * themes, both languages, on a desktop and a phone.
 */
import type { Page } from '@playwright/test';
import { router, say, streamFile } from '../helpers/script';
import { DICTS, type Lang } from '../../studio/src/i18n/parts';
import {
  authorFile,
  createProject,
  createSession,
  expectAccessible,
  persona,
  postTurn,
  script,
  shot,
  studio,
  suggestionsEntry,
  waitTurnDone,
  expect,
  test,
} from './helpers';
import { expectFits } from './layout';

/** The page's background, as a relative luminance from 0 (black) to 1 (white). */
async function backgroundLuminance(page: Page): Promise<number> {
  const rgb = (await page.evaluate('getComputedStyle(document.documentElement).backgroundColor')) as string;
  const [r, g, b] = (rgb.match(/[\d.]+/g) ?? []).slice(0, 3).map((c) => Number(c) / 255);
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
}
const isDark = async (page: Page) => (await backgroundLuminance(page)) < 0.05;

/** A project with an outline, a chapter the team wrote and the reviewer's verdict: every kind of card to see. */
async function seededProject(lang: Lang): Promise<{ projectId: string; sessionId: string; chapterId: string }> {
  const zh = lang === 'zh';
  const projectId = await createProject(zh ? `夜航 ${Date.now()}` : `Night Crossing ${Date.now()}`);
  await authorFile(
    projectId,
    zh ? '大纲' : 'Outline',
    zh
      ? '第1章：渡船在雾里出发。\n第2章：灯灭了。'
      : 'Chapter 1: the ferry leaves in fog.\nChapter 2: the lamp goes out.',
    'outline',
  );
  const chapterId = await authorFile(
    projectId,
    zh ? '第2章 灯灭' : 'Chapter 2: The Lamp',
    zh ? '灯灭的时候，没有人说话。' : 'When the lamp went out, nobody spoke.',
  );
  const body = zh
    ? '渡船在雾里出发，船长数着浮标。'.repeat(8)
    : 'The ferry left in fog and the captain counted the buoys. '.repeat(40);
  await script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...streamFile('writer', zh ? '第1章 雾中' : 'Chapter 1: Fog', body),
    say('writer', zh ? '第1章写好了。' : 'Chapter 1 is written.'),
    say('quality_reviewer', zh ? 'Verdict: pass\n节奏稳定。' : 'Verdict: pass\nThe pacing holds.'),
    suggestionsEntry([zh ? '写第2章' : 'Write chapter 2']),
  ]);
  const sessionId = await createSession(projectId);
  const turnId = await postTurn(sessionId, zh ? '写第1章' : 'Write chapter 1');
  expect((await waitTurnDone(turnId)).status).toBe('completed');
  return { projectId, sessionId, chapterId };
}

test.afterEach(async () => {
  await persona();
});

test.describe('the system says dark', () => {
  test.use({ colorScheme: 'dark' });

  test('Studio follows it; Light is remembered across a reload; System hands it back', async ({ page }) => {
    const t = DICTS.en;
    await page.goto(studio());
    await expect(page.getByRole('heading', { level: 1, name: t.projects })).toBeVisible();
    expect(await isDark(page)).toBe(true);
    const theme = page.getByLabel(t.theme);
    await expect(theme).toHaveValue('system');
    await expectAccessible(page, 'projects (dark)');
    await shot(page, 'theme-projects-dark-en');

    await theme.selectOption('light');
    expect(await isDark(page)).toBe(false);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: t.projects })).toBeVisible();
    expect(await isDark(page)).toBe(false);
    await expect(page.getByLabel(t.theme)).toHaveValue('light');

    await page.getByLabel(t.theme).selectOption('system');
    expect(await isDark(page)).toBe(true);
    await page.reload();
    await expect(page.getByLabel(t.theme)).toHaveValue('system');
    expect(await isDark(page)).toBe(true);
  });
});

test.describe('the system says light', () => {
  test.use({ colorScheme: 'light' });

  for (const lang of ['en', 'zh'] as Lang[]) {
    test(`Dark, picked by the author, reaches every screen, axe-clean (${lang})`, async ({ page }) => {
      // Sixteen screens, each checked by axe: longer than one scenario's usual minute and a half.
      test.setTimeout(240_000);
      const t = DICTS[lang];
      await page.addInitScript((l) => localStorage.setItem('scriptorium.lang', l), lang);
      const { projectId, sessionId, chapterId } = await seededProject(lang);
      const screens: [string, string, () => Promise<void>][] = [
        [
          'chat',
          `projects/${projectId}/chat/${sessionId}`,
          () =>
            expect(page.locator('article.turn').last()).toContainText(lang === 'zh' ? '写第1章' : 'Write chapter 1'),
        ],
        [
          'file',
          `projects/${projectId}/files/${chapterId}`,
          () => expect(page.getByRole('button', { name: t.save, exact: true })).toBeVisible(),
        ],
        [
          'jobs',
          `projects/${projectId}/jobs`,
          () => expect(page.getByRole('heading', { name: t.jobStartTitle })).toBeVisible(),
        ],
        [
          'trash',
          `projects/${projectId}/trash`,
          () => expect(page.getByRole('heading', { level: 2, name: t.trash })).toBeVisible(),
        ],
      ];
      // Light first, as the system says; then the author's Dark on the same screens.
      for (const mode of ['light', 'dark'] as const) {
        await page.goto(studio(screens[0]![1]));
        await screens[0]![2]();
        if (mode === 'dark') await page.getByLabel(t.theme).selectOption('dark');
        for (const size of [
          { width: 1360, height: 860, name: 'desktop' },
          { width: 390, height: 844, name: 'phone' },
        ]) {
          await page.setViewportSize(size);
          for (const [name, path, ready] of screens) {
            await page.goto(studio(path));
            await ready();
            expect(await isDark(page), `${name} in ${mode}`).toBe(mode === 'dark');
            await expectFits(page, `${name} ${size.name} ${mode}`);
            await expectAccessible(page, `${name} (${mode}, ${size.name}, ${lang})`);
            await shot(page, `theme-${name}-${size.name}-${mode}-${lang}`);
          }
        }
      }
    });
  }
});
