/** Studio is served by the API at /studio (SPA fallback included) and lists projects. */
import { api, BASE, createProject, expectAccessible, shot, studio, expect, test } from './helpers';

test('the API serves Studio at /studio; a deep link loads the app; the projects page lists projects', async ({
  page,
}) => {
  const title = `Smoke ${Date.now()}`;
  await createProject(title);
  const res = await fetch(`${BASE()}/studio/projects/000000000000000000000000/chat`, {
    headers: { accept: 'text/html' },
  });
  expect(res.status).toBe(200);
  expect(await res.text()).toContain('<div id="root">');
  expect((await api('GET', '/projects')).status).toBe(200);
  await page.goto(studio());
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  await shot(page, 'projects');
  await expectAccessible(page, 'projects');
});
