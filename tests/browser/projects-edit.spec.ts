/**
 * Editing and deleting a project from the projects list: the edit is saved as the API has
 * it; a delete first says what happens to the project's chapters and files (kept, restorable)
 * and happens only when confirmed; the deleted project comes back whole.
 */
import { api, authorFile, createProject, expectAccessible, shot, studio, expect, test } from './helpers';

test('edit a project, delete it (asked first, files kept) and restore it', async ({ page }) => {
  const projectId = await createProject(`Working title ${Date.now()}`);
  const chapter = await authorFile(projectId, 'Chapter 1', 'The tide came in at dusk.');
  await authorFile(projectId, 'Chapter 2', 'Mara counted the lamps.');
  await authorFile(projectId, 'Outline', 'Chapter 1: tide.', 'outline');
  const title = (await api<{ title: string }>('GET', `/projects/${projectId}`)).body.title;

  await page.goto(studio());
  const item = page.getByTestId('project-list').locator(`li[data-project-id="${projectId}"]`);
  await item.getByRole('button', { name: `Edit “${title}”` }).click();
  const form = item.getByRole('form', { name: `Edit “${title}”` });
  await form.getByLabel('Title').fill('The Lighthouse');
  await form.getByLabel('Summary').fill('A keeper, a storm, a visitor.');
  await form.getByLabel(/^Author name/).fill('Mara Quill');
  await shot(page, 'project-edit');
  await expectAccessible(page, 'project edit');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('projects-notice')).toHaveText('Saved “The Lighthouse”.');
  await expect(item.getByRole('link', { name: 'The Lighthouse' })).toBeVisible();
  expect((await api('GET', `/projects/${projectId}`)).body).toMatchObject({
    title: 'The Lighthouse',
    summary: 'A keeper, a storm, a visitor.',
    author: 'Mara Quill',
  });

  // Delete: the question says what happens to the files; Cancel changes nothing.
  await item.getByRole('button', { name: 'Delete “The Lighthouse”' }).click();
  const dialog = item.getByRole('alertdialog', { name: 'Delete “The Lighthouse”?' });
  await expect(dialog).toContainText(
    'Its 2 chapters, 1 other file and its conversations are not erased: the project moves to Deleted projects. You can restore it from there, whole, at any time.',
  );
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await shot(page, 'project-delete');
  await expectAccessible(page, 'project delete');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await api('GET', `/projects/${projectId}`)).status).toBe(200);

  await item.getByRole('button', { name: 'Delete “The Lighthouse”' }).click();
  await dialog.getByRole('button', { name: 'Delete project' }).click();
  await expect(page.getByTestId('projects-notice')).toHaveText('“The Lighthouse” moved to Deleted projects.');
  await expect(item).toHaveCount(0);
  expect((await api('GET', `/projects/${projectId}`)).status).toBe(404);

  // Restore: the project and its chapters come back as they were.
  await page.getByText(/^Deleted projects \(\d+\)$/).click();
  const gone = page.locator(`.deleted-projects li[data-project-id="${projectId}"]`);
  await expect(gone).toContainText('The Lighthouse');
  await gone.getByRole('button', { name: 'Restore “The Lighthouse”' }).click();
  await expect(page.getByTestId('projects-notice')).toHaveText('“The Lighthouse” is back.');
  await expect(item.getByRole('link', { name: 'The Lighthouse' })).toBeVisible();
  expect((await api<{ content: string; version: number }>('GET', `/files/${chapter}`)).body).toMatchObject({
    content: 'The tide came in at dusk.',
    version: 1,
  });
  await item.getByRole('link', { name: 'The Lighthouse' }).click();
  await expect(page.getByTestId('file-tree').locator(`a[data-file-id="${chapter}"]`)).toBeVisible();
});

test('the projects list in Chinese, with the delete question', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('scriptorium.lang', 'zh'));
  const projectId = await createProject(`雾港 ${Date.now()}`);
  await authorFile(projectId, '第一章', '远处的钟声在雾里回荡。');
  const title = (await api<{ title: string }>('GET', `/projects/${projectId}`)).body.title;
  await page.goto(studio());
  const item = page.getByTestId('project-list').locator(`li[data-project-id="${projectId}"]`);
  await item.getByRole('button', { name: `删除“${title}”` }).click();
  await expect(item.getByRole('alertdialog')).toContainText(
    '其中的1个章节、0个其他文件和所有对话都不会被抹去：作品会移到“已删除的作品”，之后随时可以从那里完整恢复。',
  );
  await shot(page, 'project-delete-zh');
  await expectAccessible(page, 'project delete (zh)');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'project-delete-zh-phone');
  await item.getByRole('button', { name: '取消' }).click();
  expect((await api('GET', `/projects/${projectId}`)).status).toBe(200);
});
