/**
 * Sign-in with a bearer token from API_TOKENS (the run's stack has tokens on): a wrong token
 * is refused, the right one opens the author's projects — only theirs — and signing out asks
 * again. Streams then open with the stream tokens the API mints (every other scenario).
 */
import { api, AUTH, BASE, createProject, expectAccessible, expect, shot, studio, test } from './helpers';

test.use({ signedIn: false });

test('sign in with a bearer token; another author’s projects stay hidden; sign out', async ({ page }) => {
  const mine = await createProject(`Mine ${Date.now()}`);
  const theirs = await fetch(`${BASE()}/api/v1/projects`, {
    method: 'POST',
    headers: { ...AUTH(process.env.STUDIO_OTHER_TOKEN), 'content-type': 'application/json' },
    body: JSON.stringify({ title: `Someone else’s ${Date.now()}`, type: 'novel' }),
  }).then((r) => r.json() as Promise<{ id: string; title: string }>);
  expect((await fetch(`${BASE()}/api/v1/projects`)).status).toBe(401);

  await page.goto(studio());
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expectAccessible(page, 'sign-in');
  await shot(page, 'signin');
  await page.getByLabel('API token').fill('not-a-real-token-at-all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('That token was not accepted.');

  await page.getByLabel('API token').fill(process.env.STUDIO_TOKEN!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  const title = (await api<{ title: string }>('GET', `/projects/${mine}`)).body.title;
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  await expect(page.getByRole('link', { name: theirs.title })).toHaveCount(0);
  // Their project is not found for this author, in Studio as in the API.
  await page.goto(studio(`projects/${theirs.id}/chat`));
  await expect(page.getByRole('alert')).toContainText('not found');

  await page.goto(studio());
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});
