/**
 * The prose editor as an author uses it: nothing typed is lost (switching files, a reload, a
 * dropped connection, a closed tab), a burst of autosaves is one version, undo across saves,
 * find and replace, focus mode, the shortcuts sheet, the selection's words and the chapter's
 * goal, a restore that says what it did, History's diff by words in both languages, and the
 * phone. Every save the page reports is checked against the API.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { api, authorFile, createProject, editorText, expect, expectAccessible, shot, studio, test } from './helpers';

const EDITOR = 'Text: Chapter 1';

interface FileBody {
  content: string;
  version: number;
}
interface VersionsBody {
  items: { version: number; author: string; operation: string; saves: number }[];
}
const fileOf = async (id: string) => (await api<FileBody>('GET', `/files/${id}`)).body;
const historyOf = async (id: string) =>
  (await api<VersionsBody>('GET', `/files/${id}/versions`)).body.items.map((v) => [v.author, v.operation]);

/** A project with an outline and chapter 1 (written by the author: version 1). */
async function book(
  chapter = 'The tide came in at dusk.',
): Promise<{ projectId: string; outline: string; chapter: string }> {
  const projectId = await createProject(`Editor ${Date.now()}`);
  const outline = await authorFile(projectId, 'Outline', '1. The tide.\n2. The bell.', 'outline');
  return { projectId, outline, chapter: await authorFile(projectId, 'Chapter 1', chapter) };
}

/** Opens the chapter and puts the caret at the end of its text. */
async function openAtEnd(page: Page, projectId: string, fileId: string, name = EDITOR): Promise<void> {
  await page.goto(studio(`projects/${projectId}/files/${fileId}`));
  const editor = page.getByRole('textbox', { name });
  await editor.click();
  await page.keyboard.press('Control+End');
}

const status = (page: Page) => page.getByTestId('save-status');

async function offline(context: BrowserContext, page: Page, on: boolean): Promise<void> {
  await context.setOffline(on);
  // The page sees the change as the browser reports it.
  await page.waitForFunction(on ? '!navigator.onLine' : 'navigator.onLine');
}

test('typed text survives opening the Outline and coming back, and is saved on leaving', async ({ page }) => {
  const { projectId, outline, chapter } = await book();
  await openAtEnd(page, projectId, chapter);
  await page.keyboard.type(' The bell rang twice.');
  // Straight to the Outline, before the pause that autosaves.
  await page.getByTestId('file-tree').locator(`a[data-file-id="${outline}"]`).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Outline' })).toBeVisible();
  await page.getByTestId('file-tree').locator(`a[data-file-id="${chapter}"]`).click();
  await expect.poll(() => editorText(page, EDITOR)).toBe('The tide came in at dusk. The bell rang twice.');
  await expect.poll(async () => (await fileOf(chapter)).content).toBe('The tide came in at dusk. The bell rang twice.');
  expect(await historyOf(chapter)).toEqual([
    ['author', 'author_create'],
    ['author', 'author_edit'],
  ]);
  await shot(page, 'editor');
  await expectAccessible(page, 'editor');
});

test('a reload asks first, keeps the text and saves it; undo still works after the save', async ({ page }) => {
  const { projectId, chapter } = await book();
  await openAtEnd(page, projectId, chapter);
  await page.keyboard.type(' Lamps.');
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.type());
    void d.accept();
  });
  await page.reload();
  expect(dialogs).toEqual(['beforeunload']);
  await expect.poll(() => editorText(page, EDITOR)).toBe('The tide came in at dusk. Lamps.');
  await expect.poll(async () => (await fileOf(chapter)).content).toBe('The tide came in at dusk. Lamps.');

  // Undo reaches past an autosave: the editor's history is not reset by saving.
  await page.getByRole('textbox', { name: EDITOR }).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' Rain.');
  await expect(status(page)).toHaveText('Saved just now');
  await expect.poll(async () => (await fileOf(chapter)).content).toBe('The tide came in at dusk. Lamps. Rain.');
  await page.keyboard.press('Control+z');
  await expect.poll(() => editorText(page, EDITOR)).toBe('The tide came in at dusk. Lamps.');
  await expect.poll(async () => (await fileOf(chapter)).content).toBe('The tide came in at dusk. Lamps.');
});

test('offline: the text is kept on the device, leaving asks, and back online it is saved as one version', async ({
  page,
  context,
}) => {
  const { projectId, outline, chapter } = await book();
  await openAtEnd(page, projectId, chapter);
  await page.keyboard.type(' Mara');
  await expect(status(page)).toHaveText('Saved just now');
  await offline(context, page, true);
  await page.keyboard.type(' counted the lamps.');
  await expect(status(page)).toHaveText('Offline — kept on this device');
  await page.keyboard.type(' None were lit.');
  await shot(page, 'editor-offline');

  // Leaving with text that cannot be saved now asks; staying keeps everything as it was.
  const asked: string[] = [];
  page.once('dialog', (d) => {
    asked.push(d.message());
    void d.dismiss();
  });
  await page.getByTestId('file-tree').locator(`a[data-file-id="${outline}"]`).click();
  expect(asked).toHaveLength(1);
  expect(asked[0]).toContain('not on the server yet');
  await expect(page.getByRole('heading', { level: 2, name: 'Chapter 1' })).toBeVisible();

  await offline(context, page, false);
  const full = 'The tide came in at dusk. Mara counted the lamps. None were lit.';
  await expect.poll(async () => (await fileOf(chapter)).content).toBe(full);
  await expect(status(page)).toHaveText('Saved just now');
  expect(await editorText(page, EDITOR)).toBe(full);
  // The whole burst, online and offline, is one version after the author's first.
  const versions = (await api<VersionsBody>('GET', `/files/${chapter}/versions`)).body.items;
  expect(versions.map((v) => [v.author, v.operation])).toEqual([
    ['author', 'author_create'],
    ['author', 'author_autosave'],
  ]);
  expect(versions[1]!.saves).toBeGreaterThanOrEqual(2);
});

test('a tab that dies with unsaved offline text: reopened, the text is back and saved', async ({ page, context }) => {
  const { projectId, chapter } = await book();
  await openAtEnd(page, projectId, chapter);
  await offline(context, page, true);
  await page.keyboard.type(' The harbour slept.');
  await expect(status(page)).toHaveText('Offline — kept on this device');
  // The tab's process dies: no unload handler runs, so only what the draft already holds can come
  // back. (A plain close is not a fair test here: Chromium's offline emulation ends with the page,
  // and the save sent as it closes sometimes reaches the server, which a device really offline
  // never lets happen.)
  const tab = await context.newCDPSession(page);
  const crashed = page.waitForEvent('crash');
  void tab.send('Page.crash').catch(() => undefined);
  await crashed;
  await page.close();
  await context.setOffline(false);
  expect((await fileOf(chapter)).content).toBe('The tide came in at dusk.');

  const again = await context.newPage();
  await again.goto(studio(`projects/${projectId}/files/${chapter}`));
  await expect.poll(() => editorText(again, EDITOR)).toBe('The tide came in at dusk. The harbour slept.');
  await expect(status(again)).toContainText('Your unsaved text was kept on this device and is back');
  await expect.poll(async () => (await fileOf(chapter)).content).toBe('The tide came in at dusk. The harbour slept.');
  await shot(again, 'editor-draft-restored');
});

test('a kept draft older than the file: both texts side by side, and the merge keeps both changes', async ({
  page,
  context,
}) => {
  const { projectId, chapter } = await book('The tide came in at dusk.\nMara counted the lamps.');
  await openAtEnd(page, projectId, chapter);
  await offline(context, page, true);
  await page.keyboard.type(' None were lit.');
  await expect(status(page)).toHaveText('Offline — kept on this device');
  // Meanwhile the file moved on (another device, an agent).
  const moved = await api<FileBody>('PUT', `/files/${chapter}`, {
    content: 'The tide came in early, at dusk.\nMara counted the lamps.',
    baseVersion: 1,
  });
  expect(moved.status).toBe(200);
  // The closing page's last attempt is refused (409): the draft stays on the device.
  await page.close();
  await context.setOffline(false);

  const again = await context.newPage();
  await again.goto(studio(`projects/${projectId}/files/${chapter}`));
  const conflict = again.getByRole('alertdialog');
  await expect(conflict).toBeVisible();
  await expect(conflict).toContainText('was an edit of version 1');
  await expect(conflict.getByTestId('their-text')).toHaveText(
    'The tide came in early, at dusk.\nMara counted the lamps.',
  );
  await expect(conflict.getByTestId('your-text')).toHaveText(
    'The tide came in at dusk.\nMara counted the lamps. None were lit.',
  );
  // Nothing is saved until the author chooses.
  expect((await fileOf(chapter)).version).toBe(2);
  await expectAccessible(again, 'conflict from a kept draft');
  await conflict.getByRole('button', { name: 'Merge my changes into it' }).click();
  const merged = 'The tide came in early, at dusk.\nMara counted the lamps. None were lit.';
  await expect.poll(() => editorText(again, EDITOR)).toBe(merged);
  await expect.poll(async () => (await fileOf(chapter)).content).toBe(merged);
});

test('restore says what it did; History compares by words, in English and Chinese', async ({ page }) => {
  const { projectId, chapter } = await book(
    'The tide came in at dusk.\nMara counted the lamps.\nNone of them were lit.',
  );
  const v2 = await api<FileBody>('PUT', `/files/${chapter}`, {
    content: 'The tide came in early, at dusk.\nMara counted the lamps.\nNone of them were lit.',
    baseVersion: 1,
  });
  expect(v2.body.version).toBe(2);
  await page.goto(studio(`projects/${projectId}/files/${chapter}`));
  await page.getByRole('button', { name: 'History' }).click();
  const history = page.getByRole('region', { name: 'History' });
  await expect(history.locator('.versions li')).toHaveCount(2);
  await expect(history.locator('.versions li').first()).toContainText('Saved by you');
  await history.getByRole('button', { name: 'Version 1', exact: true }).click();
  const diff = page.getByTestId('diff');
  // The changed words, not the whole paragraph.
  await expect(diff.locator('ins')).toHaveText(['early, ']);
  await expect(diff.locator('del')).toHaveCount(0);
  await expect(diff.locator('tr.change td.add')).toHaveText('The tide came in early, at dusk.');
  await shot(page, 'history-words');
  await expectAccessible(page, 'history by words');
  await page.getByRole('radio', { name: 'Running text' }).check();
  await expect(page.getByTestId('diff').locator('ins')).toHaveText(['early, ']);

  await history.getByRole('button', { name: 'Restore this version' }).click();
  await expect(status(page)).toHaveText('Restored version 1 as version 3');
  await expect(page.getByTestId('file-meta')).toContainText('Version 3');
  await expect
    .poll(() => editorText(page, EDITOR))
    .toBe('The tide came in at dusk.\nMara counted the lamps.\nNone of them were lit.');
  expect(await fileOf(chapter)).toMatchObject({
    version: 3,
    content: 'The tide came in at dusk.\nMara counted the lamps.\nNone of them were lit.',
  });
  await expect(history.locator('.versions li').first()).toContainText('Version 1 restored');

  // Chinese: words found without spaces; the restore said in Chinese.
  const zh = await authorFile(projectId, '第二章', '潮水在黄昏时涌来。\n灯一盏也没亮。');
  await api('PUT', `/files/${zh}`, { content: '潮水在清晨时涌来。\n灯一盏也没亮。', baseVersion: 1 });
  await page.getByLabel('Language').selectOption('zh');
  await page.goto(studio(`projects/${projectId}/files/${zh}`));
  await page.getByRole('button', { name: '历史版本' }).click();
  await page.getByRole('button', { name: '第1版', exact: true }).click();
  await expect(page.getByTestId('diff').locator('del')).toHaveText(['黄昏']);
  await expect(page.getByTestId('diff').locator('ins')).toHaveText(['清晨']);
  await shot(page, 'history-words-zh');
  await expectAccessible(page, 'history by words (zh)');
  await page.getByRole('button', { name: '恢复此版本' }).click();
  await expect(status(page)).toHaveText('已将第1版恢复为第3版');
});

test('find and replace, in both languages', async ({ page }) => {
  const { projectId, chapter } = await book('The tide came in. The tide went out.');
  await openAtEnd(page, projectId, chapter);
  await page.keyboard.press('Control+f');
  const find = page.getByRole('textbox', { name: 'Find' });
  await expect(find).toBeFocused();
  await find.fill('tide');
  await page.getByRole('textbox', { name: 'Replace' }).fill('sea');
  await shot(page, 'editor-find');
  await expectAccessible(page, 'find and replace');
  await page.getByRole('button', { name: 'Replace all' }).click();
  await expect.poll(() => editorText(page, EDITOR)).toBe('The sea came in. The sea went out.');
  await expect.poll(async () => (await fileOf(chapter)).content).toBe('The sea came in. The sea went out.');
  await page.keyboard.press('Escape');
  await expect(find).toHaveCount(0);

  await page.getByLabel('Language').selectOption('zh');
  await page.getByRole('button', { name: '查找' }).click();
  await expect(page.getByRole('textbox', { name: '查找' })).toBeVisible();
  await expect(page.getByRole('button', { name: '全部替换' })).toBeVisible();
  await shot(page, 'editor-find-zh');
  await expectAccessible(page, 'find and replace (zh)');
});

test('focus mode hides the desk around the text; Esc leaves it. The ? sheet lists the shortcuts', async ({ page }) => {
  const { projectId, chapter } = await book();
  await openAtEnd(page, projectId, chapter);
  await page.keyboard.press('Control+Shift+F');
  const section = page.locator('section.file');
  await expect(section).toHaveClass(/focus/);
  await expect(page.locator('header.top')).toHaveAttribute('inert', '');
  await expect(page.getByRole('button', { name: 'Leave focus mode' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'History' })).toHaveCount(0);
  // Writing goes on in focus mode, and is saved.
  await page.keyboard.type(' Quiet.');
  await expect.poll(async () => (await fileOf(chapter)).content).toBe('The tide came in at dusk. Quiet.');
  await shot(page, 'editor-focus');
  await expectAccessible(page, 'focus mode');
  await page.keyboard.press('Escape');
  await expect(section).not.toHaveClass(/focus/);
  await expect(page.locator('header.top')).not.toHaveAttribute('inert', '');

  // In the text, ? is a question mark; outside it, the shortcuts sheet.
  await page.keyboard.type('?');
  await expect.poll(() => editorText(page, EDITOR)).toBe('The tide came in at dusk. Quiet.?');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('heading', { level: 2, name: 'Chapter 1' }).click();
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  for (const what of ['Save now', 'Find and replace', 'Focus mode on or off', 'Undo, also after a save'])
    await expect(sheet).toContainText(what);
  await shot(page, 'editor-shortcuts');
  await expectAccessible(page, 'shortcuts sheet');
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  // Ctrl+S saves by hand: a version of its own, and the status names it.
  await page.getByRole('textbox', { name: EDITOR }).click();
  await page.keyboard.press('Control+s');
  // The file is read once the status says the save is done: read before, it can still be the last version.
  await expect(status(page)).toHaveText(/^Saved as version \d+$/);
  const head = await fileOf(chapter);
  await expect(status(page)).toHaveText(`Saved as version ${head.version}`);
});

test("the selection's words, and the chapter's goal with its progress", async ({ page }) => {
  const { projectId, chapter } = await book('The tide came in at dusk.');
  // The goal fields are optional in the API: the page reads them when they are there.
  await page.route(`**/api/v1/files/${chapter}`, async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...(await res.json()), wordGoal: 8 } });
  });
  await openAtEnd(page, projectId, chapter);
  await expect(page.getByTestId('word-count')).toHaveText('6');
  const goal = page.getByTestId('goal');
  await expect(goal).toContainText('6 of 8');
  await expect(goal.getByRole('progressbar', { name: 'Progress towards the goal of 8 words' })).toHaveAttribute(
    'value',
    '6',
  );
  await page.keyboard.press('Shift+Home');
  await expect(page.getByTestId('selection-words')).toHaveText(' · 6 selected');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(page.getByTestId('selection-words')).toHaveText(' · 5 selected');
  await page.keyboard.press('End');
  await expect(page.getByTestId('selection-words')).toHaveCount(0);
  await page.keyboard.type(' Bells rang.');
  await expect(page.getByTestId('word-count')).toHaveText('8');
  await expect(goal).toContainText('Goal met');
  await shot(page, 'editor-goal');
});

test('at 390×844 the editor is usable, in English and Chinese', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { projectId, chapter } = await book();
  await openAtEnd(page, projectId, chapter);
  await page.keyboard.type(' Small screen.');
  await expect.poll(async () => (await fileOf(chapter)).content).toBe('The tide came in at dusk. Small screen.');
  await shot(page, 'editor-phone');
  // The desk fits the room the page gives it (the page's own phone layout, a drawer for the
  // files, is the shell's and its scenario checks the viewport): the text fills the width,
  // the actions wrap instead of running off, and they stay the size of a finger.
  const room = (await page.locator('section.file').boundingBox())!;
  const text = (await page.getByRole('textbox', { name: EDITOR }).boundingBox())!;
  expect(text.width).toBeGreaterThan(room.width - 40);
  for (const name of ['Save', 'Find', 'Focus', 'History', 'Shortcuts', 'Delete']) {
    const b = (await page.getByRole('button', { name, exact: true }).boundingBox())!;
    expect(b.x + b.width, name).toBeLessThanOrEqual(room.x + room.width + 1);
    expect(b.height, name).toBeGreaterThanOrEqual(32);
  }
  await expectAccessible(page, 'editor (phone)');
  await page.getByLabel('Language').selectOption('zh');
  await expect(page.getByRole('button', { name: '保存' })).toBeVisible();
  await shot(page, 'editor-phone-zh');
  await page.getByRole('button', { name: '历史版本' }).click();
  await page.getByRole('button', { name: '第1版', exact: true }).click();
  // Two columns do not fit a phone: the changes show as running text.
  await expect(page.getByRole('radio', { name: '连续文本' })).toBeChecked();
  await expect(page.getByTestId('diff').locator('ins')).toHaveText([' Small screen.']);
  await shot(page, 'history-phone-zh');
  await expectAccessible(page, 'history (phone, zh)');
});
