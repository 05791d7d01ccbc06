/**
 * Studio on a phone (390×844), as an author uses it: from the projects list open a project,
 * open the file drawer, open a chapter and edit it, open the task board's drawer, send a chat
 * message, open the trash. At every screen: nothing wider or taller than the screen (the
 * header never scrolls away), every control the author can see lies across the screen, the
 * controls the journey needs are tapped for real, axe is clean. English and Chinese.
 */
import { router, say } from '../helpers/script';
import { DICTS, type Lang } from '../../studio/src/i18n/parts';
import {
  api,
  authorFile,
  createProject,
  expectAccessible,
  newestTurnId,
  persona,
  script,
  shot,
  studio,
  suggestionsEntry,
  expect,
  test,
} from './helpers';
import { expectControlsOnScreen, expectFits, expectOnScreen } from './layout';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test.afterEach(async () => {
  await persona();
});

for (const lang of ['en', 'zh'] as Lang[]) {
  test(`a phone reaches every action (${lang})`, async ({ page }) => {
    const t = DICTS[lang];
    const zh = lang === 'zh';
    await page.addInitScript((l) => localStorage.setItem('scriptorium.lang', l), lang);
    const title = zh ? `雾港灯塔 ${Date.now()}` : `The Lighthouse Keeper ${Date.now()}`;
    const projectId = await createProject(title);
    await authorFile(
      projectId,
      zh ? '大纲' : 'Outline',
      zh ? '第1章：守灯人发现一艘船。' : 'Chapter 1: the keeper finds a ship.',
      'outline',
    );
    const chapter = zh ? '第1章 雨夜' : 'Chapter 1: The Rain';
    const chapterId = await authorFile(projectId, chapter, zh ? '雨下了一整夜。' : 'It rained all night.');
    const check = async (name: string) => {
      await expectFits(page, name);
      await expectControlsOnScreen(page, name);
      await expectAccessible(page, `${name} (${lang}, phone)`);
      await shot(page, `phone-${name}-${lang}`);
    };

    // The projects list.
    await page.goto(studio());
    await expect(page.getByRole('heading', { level: 1, name: t.projects })).toBeVisible();
    await check('projects');

    // A project: its chat, the drawers shut.
    await page.getByRole('link', { name: title }).click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const tree = page.getByTestId('file-tree');
    await expect(tree).toBeHidden();
    await expect(page.getByTestId('task-board')).toBeHidden();
    await expectOnScreen(page.getByRole('button', { name: t.send }));
    await check('chat');

    // The file drawer, and a chapter from it: the drawer closes, the chapter fills the screen.
    const filesToggle = page.getByRole('button', { name: t.fileTree });
    await filesToggle.click();
    await expect(filesToggle).toHaveAttribute('aria-expanded', 'true');
    await expect(tree).toBeVisible();
    const link = tree.locator(`a[data-file-id="${chapterId}"]`);
    await expectOnScreen(link);
    await check('files-drawer');
    await link.click();
    await expect(page.getByRole('heading', { level: 2, name: chapter })).toBeVisible();
    await expect(tree).toBeHidden();
    const editor = page.getByRole('textbox', { name: new RegExp(chapter) });
    await expectOnScreen(editor);
    await editor.click();
    await page.keyboard.press('End');
    await page.keyboard.type(zh ? '灯塔还亮着。' : ' The lamp was still lit.');
    const save = page.getByRole('button', { name: t.save, exact: true });
    await expectOnScreen(save);
    await save.click();
    await expect
      .poll(async () => (await api<{ content: string }>('GET', `/files/${chapterId}`)).body.content)
      .toContain(zh ? '灯塔还亮着。' : 'The lamp was still lit.');
    await check('chapter');

    // The task board's drawer, beside the chat; Escape shuts it and gives the focus back.
    await page.getByRole('link', { name: t.chat, exact: true }).click();
    const tasksToggle = page.getByRole('button', { name: t.taskBoard });
    await tasksToggle.click();
    const board = page.getByTestId('task-board');
    await expect(board).toBeVisible();
    await expectOnScreen(board.getByRole('heading', { name: t.taskBoard }));
    await check('tasks-drawer');
    await page.keyboard.press('Escape');
    await expect(board).toBeHidden();
    await expect(tasksToggle).toBeFocused();
    // A tap beside an open drawer shuts it too.
    await filesToggle.click();
    await expect(tree).toBeVisible();
    await page.getByRole('button', { name: t.closePanel }).click({ position: { x: 370, y: 400 } });
    await expect(tree).toBeHidden();

    // A chat message, sent and answered.
    await script([
      router({ current_agent: 'writer', workflow_plan: 'quick' }),
      say(
        'writer',
        zh ? '第2章可以从灯塔看见那艘船开始。' : 'Chapter 2 could open with the ship seen from the lamp room.',
      ),
      suggestionsEntry([zh ? '写第2章' : 'Write chapter 2']),
    ]);
    const message = page.getByLabel(t.message);
    await expectOnScreen(message);
    await message.fill(zh ? '第2章怎么开头？' : 'How should chapter 2 open?');
    await page.getByRole('button', { name: t.send }).click();
    const turnId = await newestTurnId(page);
    await expect(page.locator(`article[data-turn-id="${turnId}"]`)).toHaveAttribute('data-status', 'done', {
      timeout: 60_000,
    });
    await expect(page.locator(`article[data-turn-id="${turnId}"] .msg-text`)).toContainText(
      zh ? '从灯塔看见那艘船' : 'seen from the lamp room',
    );
    await check('chat-answered');

    // The trash.
    const trashTab = page.getByRole('link', { name: t.trash, exact: true });
    await expectOnScreen(trashTab);
    await trashTab.click();
    await expect(page.getByRole('heading', { level: 2, name: t.trash })).toBeVisible();
    await check('trash');
  });
}

test.describe('a tablet', () => {
  test.use({ viewport: { width: 1000, height: 760 }, isMobile: false, hasTouch: true });

  test('keeps the file tree in place and slides the task board in, so the chat keeps its width', async ({ page }) => {
    const t = DICTS.en;
    const projectId = await createProject(`Tablet ${Date.now()}`);
    await authorFile(projectId, 'Chapter 1', 'It rained all night.');
    await page.goto(studio(`projects/${projectId}/chat`));
    await expect(page.getByTestId('file-tree')).toBeVisible();
    await expect(page.getByRole('button', { name: t.fileTree })).toBeHidden();
    await expect(page.getByTestId('task-board')).toBeHidden();
    const log = await page.getByRole('log').boundingBox();
    expect(log!.width).toBeGreaterThan(500);
    await page.getByRole('button', { name: t.taskBoard }).click();
    await expectOnScreen(page.getByTestId('task-board').getByRole('heading', { name: t.taskBoard }));
    await expectFits(page, 'tablet tasks drawer');
    await expectControlsOnScreen(page, 'tablet tasks drawer');
    await expectAccessible(page, 'tablet tasks drawer');
    await shot(page, 'tablet-tasks-drawer-en');
  });
});
