/**
 * One chapter-number parser: Studio's manuscript tree orders chapters by the core's reading of
 * their titles, the same reading the export orders the book by. "Chapter Ten" is chapter 10
 * (between 9 and 11); "Scene 3" and "第12节" name no chapter, so the tree lists them after the
 * numbered chapters and the export (which keeps numbered chapters when there are any) leaves
 * them out. Files are made out of order, so nothing but the titles can put them right.
 */
import { authorFile, createProject, expectAccessible, shot, studio, expect, test } from './helpers';

test('the tree and the export order chapters the same way, by the core parser ("Chapter Ten" is 10)', async ({
  page,
}) => {
  const projectId = await createProject(`Order ${Date.now()}`);
  const titles = ['Chapter 11: The Harbour', 'Scene 3', 'Chapter Ten: The Bell', '第12节 潮水', 'Chapter 9: The Fog'];
  const ids = new Map<string, string>();
  for (const title of titles)
    ids.set(title, await authorFile(projectId, title, `The text of ${title}, one paragraph long.`));

  await page.goto(studio(`projects/${projectId}/chat`));
  const tree = page.getByTestId('file-tree');
  await expect(tree.locator('a[data-file-id]')).toHaveCount(titles.length);
  const treeOrder = await tree
    .locator('a[data-file-id]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('data-file-id')));
  const byId = new Map([...ids].map(([title, id]) => [id, title]));
  const treeTitles = treeOrder.map((id) => byId.get(id!));
  expect(treeTitles).toEqual([
    'Chapter 9: The Fog',
    'Chapter Ten: The Bell',
    'Chapter 11: The Harbour',
    'Scene 3',
    '第12节 潮水',
  ]);

  const res = await fetch(`${process.env.STUDIO_URL}/api/v1/projects/${projectId}/export?format=md`, {
    headers: { authorization: `Bearer ${process.env.STUDIO_TOKEN}` },
  });
  expect(res.status).toBe(200);
  const exported = [...(await res.text()).matchAll(/^# (.+)$/gm)].map((m) => m[1]);
  // The export reads each chapter's own title, in the tree's order: every file the tree lists
  // as body text is in the book, the ones whose titles name no chapter number where the tree has them.
  expect(exported).toEqual(treeTitles);
  await shot(page, 'chapter-order');
  await expectAccessible(page, 'chapter order');
});
