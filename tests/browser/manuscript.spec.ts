/**
 * The manuscript as the author works on it: an edit saved while an agent edited the same
 * file (409: the newer text is shown, the author merges knowingly), the version history with
 * its side-by-side diff by words and a restore, delete to the trash and undelete. Every step is
 * checked against the API: the page never shows a save, version or delete that did not happen.
 */
import { router, call, say } from '../helpers/script';
import {
  api,
  authorFile,
  createProject,
  createSession,
  editorText,
  expectAccessible,
  postTurn,
  script,
  shot,
  studio,
  suggestionsEntry,
  waitTurnDone,
  expect,
  test,
} from './helpers';

test('edit while an agent edits (409 → merge), history diff and restore, delete and undelete', async ({
  page,
  context,
}) => {
  const projectId = await createProject(`Manuscript ${Date.now()}`);
  const original = 'The tide came in at dusk.\nMara counted the lamps.\nNone of them were lit.';
  const fileId = await authorFile(projectId, 'Chapter 1', original);
  await page.goto(studio(`projects/${projectId}/files/${fileId}`));
  const editor = page.getByRole('textbox', { name: 'Text: Chapter 1' });
  const text = () => editorText(page, 'Text: Chapter 1');
  await expect.poll(text).toBe(original);
  await expect(page.getByTestId('word-count')).toHaveText('15');
  await shot(page, 'file');
  await expectAccessible(page, 'file');

  // The author edits the first line, with the connection down (the edit cannot reach the server yet) …
  const mine = original.replace('The tide came in at dusk.', 'The tide came in early, at dusk.');
  await context.setOffline(true);
  await editor.click();
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < 'The tide came in'.length; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.type(' early,');
  await expect.poll(text).toBe(mine);
  await expect(page.getByTestId('save-status')).toHaveText('Offline — kept on this device');
  // … while a turn's writer appends to the same file.
  await script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'edit_file', { id: fileId, operation: 'append', text: '\nSomewhere a bell answered.' }),
    say('writer', 'I added a closing line to chapter 1.'),
    suggestionsEntry(['Write chapter 2']),
  ]);
  const turnId = await postTurn(await createSession(projectId), 'Add a closing line to chapter 1');
  expect((await waitTurnDone(turnId)).status).toBe('completed');
  const agentVersion = await api<{ content: string; version: number }>('GET', `/files/${fileId}`);
  expect(agentVersion.body.content).toContain('Somewhere a bell answered.');

  // Back online, the autosave finds the newer version (409).
  await context.setOffline(false);
  const conflict = page.getByRole('alertdialog');
  await expect(conflict).toBeVisible();
  await expect(conflict.getByTestId('their-text')).toHaveText(agentVersion.body.content);
  await expect(conflict.getByTestId('your-text')).toHaveText(mine);
  // Nothing was saved by the refused attempt.
  expect((await api<{ version: number }>('GET', `/files/${fileId}`)).body.version).toBe(agentVersion.body.version);
  await shot(page, 'conflict');
  await expectAccessible(page, 'conflict');

  await conflict.getByRole('button', { name: 'Merge my changes into it' }).click();
  await expect.poll(text).toMatch(/The tide came in early, at dusk\.[\s\S]*Somewhere a bell answered\./);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('save-status')).toHaveText(`Saved as version ${agentVersion.body.version + 1}`);
  const merged = await api<{ content: string; version: number; latestAuthor: string }>('GET', `/files/${fileId}`);
  expect(merged.body).toMatchObject({ version: agentVersion.body.version + 1, latestAuthor: 'author' });
  expect(merged.body.content).toContain('The tide came in early, at dusk.');
  expect(merged.body.content).toContain('Somewhere a bell answered.');
  await expect.poll(text).toBe(merged.body.content);

  // History: version 1 beside the current text, then restored.
  await page.getByRole('button', { name: 'History' }).click();
  const history = page.getByRole('region', { name: 'History' });
  const versions = await api<{ items: { version: number }[] }>('GET', `/files/${fileId}/versions`);
  await expect(history.locator('.versions li')).toHaveCount(versions.body.items.length);
  await history.getByRole('button', { name: 'Version 1', exact: true }).click();
  const diff = page.getByTestId('diff');
  await expect(diff.locator('td.del').first()).toHaveText('The tide came in at dusk.');
  await expect(diff.locator('td.add').first()).toHaveText('The tide came in early, at dusk.');
  // Only the words that changed are marked.
  await expect(diff.locator('ins').first()).toHaveText('early, ');
  await shot(page, 'history');
  await expectAccessible(page, 'history');
  await history.getByRole('button', { name: 'Restore this version' }).click();
  await expect(page.getByTestId('file-meta')).toContainText(`Version ${merged.body.version + 1}`);
  await expect(page.getByTestId('save-status')).toHaveText(`Restored version 1 as version ${merged.body.version + 1}`);
  const restored = await api<{ content: string; version: number }>('GET', `/files/${fileId}`);
  expect(restored.body).toMatchObject({ content: original, version: merged.body.version + 1 });
  await expect.poll(text).toBe(original);

  // Delete to the trash, and back.
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { name: 'Trash' })).toBeVisible();
  const trashed = page.locator(`.trash-list li[data-file-id="${fileId}"]`);
  await expect(trashed).toBeVisible();
  await expect(page.getByTestId('file-tree').locator(`a[data-file-id="${fileId}"]`)).toHaveCount(0);
  const trash = await api<{ items: { id: string }[] }>('GET', `/projects/${projectId}/files?deleted=true`);
  expect(trash.body.items.map((f) => f.id)).toEqual([fileId]);
  expect((await api<{ items: unknown[] }>('GET', `/projects/${projectId}/files`)).body.items).toHaveLength(0);
  await shot(page, 'trash');
  await expectAccessible(page, 'trash');
  await trashed.getByRole('button', { name: /Restore/ }).click();
  await expect(page.getByText('The trash is empty.')).toBeVisible();
  await expect(page.getByTestId('file-tree').locator(`a[data-file-id="${fileId}"]`)).toBeVisible();
  const back = await api<{ content: string; version: number }>('GET', `/files/${fileId}`);
  expect(back.body).toMatchObject({ content: original, version: restored.body.version });
});
