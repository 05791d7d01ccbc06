/**
 * The author's first session: create a project in Studio, send a turn, watch it stream to
 * `done` with its file cards, the reviewer's verdict, suggestions and usage — and the page
 * shows exactly the text the API streamed. Then a reload mid-stream and a dropped
 * connection mid-turn: the page ends with the same text, nothing missing or doubled.
 */
import {
  api,
  dropStreams,
  editorText,
  expectAccessible,
  newestTurnId,
  pageTexts,
  persona,
  shot,
  streamTexts,
  studio,
  turnEvents,
  waitTurnDone,
  expect,
  test,
} from './helpers';

test.beforeEach(async () => {
  await persona();
});

test('create a project, run a turn to done: file cards, verdict, suggestions, usage; the text is the stream’s', async ({
  page,
}) => {
  await page.goto(studio());
  const title = `Lighthouse ${Date.now()}`;
  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Type').selectOption('novel');
  await page.getByLabel(/^Author name/).fill('M. Lantern');
  await page.getByLabel('Summary').fill('A keeper finds a ship that is not on any chart.');
  await page.getByLabel('Style').fill('Quiet, precise, salt-worn.');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const projectId = /projects\/([0-9a-f]{24})/.exec(page.url())![1]!;
  const project = await api<{ title: string; summary: string; style: string; type: string; author: string }>(
    'GET',
    `/projects/${projectId}`,
  );
  expect(project.body).toMatchObject({
    title,
    type: 'novel',
    author: 'M. Lantern',
    summary: 'A keeper finds a ship that is not on any chart.',
    style: 'Quiet, precise, salt-worn.',
  });

  await page.getByLabel('Message').fill('Write chapter 1');
  await page.getByRole('button', { name: 'Send' }).click();
  const turnId = await newestTurnId(page);
  const turn = page.locator(`article[data-turn-id="${turnId}"]`);
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  await expect(turn).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  expect((await waitTurnDone(turnId)).status).toBe('completed');

  const events = await turnEvents(turnId);
  // Exactly the stream's text, in the stream's order.
  expect(await pageTexts(page, turnId)).toEqual(streamTexts(events));
  // A card per saved file, each opening its file.
  const saved = events.filter((e) => e.type === 'file_created' || e.type === 'file_updated');
  expect(saved.length).toBeGreaterThan(0);
  const cards = turn.locator('.file-card[data-op]');
  await expect(cards).toHaveCount(new Set(saved.map((e) => (e.data as { fileId: string }).fileId)).size);
  await expect(turn.locator('.verdict')).toBeVisible();
  const suggestions = events.find((e) => e.type === 'suggestions');
  if (suggestions)
    for (const s of suggestions.data.items) await expect(page.getByRole('button', { name: s })).toBeVisible();
  const tokens = events.filter((e) => e.type === 'usage').reduce((n, e) => n + e.data.totalTokens, 0);
  await expect(turn.getByTestId('usage')).toContainText(tokens.toLocaleString('en-US'));
  await shot(page, 'chat');
  await expectAccessible(page, 'chat');

  // The chapter is in the tree; its card opens it.
  const first = saved[0]!.data as { fileId: string; title: string };
  await expect(page.getByTestId('file-tree').locator(`a[data-file-id="${first.fileId}"]`)).toBeVisible();
  await cards.first().getByRole('link', { name: /Open/ }).click();
  await expect(page.getByRole('heading', { level: 2, name: first.title })).toBeVisible();
  const file = await api<{ content: string; version: number; words: number }>('GET', `/files/${first.fileId}`);
  // The editor draws only the paragraphs in view: its opening, and the words of the whole text.
  const opening = file.body.content.split('\n')[0]!;
  await expect
    .poll(async () => (await editorText(page, new RegExp(`Text: ${first.title}`))).startsWith(opening))
    .toBe(true);
  await expect(page.getByTestId('word-count')).toHaveText(String(file.body.words));
});

test('a reload mid-stream rejoins the running turn from its start: the same text, once', async ({ page }) => {
  await persona({ tokensPerSecond: 60 });
  const projectId = (await api<{ id: string }>('POST', '/projects', { title: `Reload ${Date.now()}`, type: 'novel' }))
    .body.id;
  await page.goto(studio(`projects/${projectId}/chat`));
  await page.getByLabel('Message').fill('Write chapter 1');
  await page.getByRole('button', { name: 'Send' }).click();
  const turnId = await newestTurnId(page);
  const turn = page.locator(`article[data-turn-id="${turnId}"]`);
  await expect(turn.locator('.msg-text, .file-card').first()).toBeVisible();
  await page.waitForTimeout(1500);
  await page.reload();
  await expect(page.locator(`article[data-turn-id="${turnId}"]`)).toHaveAttribute('data-status', 'running');
  await expect(page.locator(`article[data-turn-id="${turnId}"]`)).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
  expect(await pageTexts(page, turnId)).toEqual(streamTexts(await turnEvents(turnId)));
});

test('offline mid-turn, then back: EventSource resumes with Last-Event-ID; nothing missing or doubled', async ({
  page,
  context,
}) => {
  await persona({ tokensPerSecond: 60 });
  const projectId = (await api<{ id: string }>('POST', '/projects', { title: `Offline ${Date.now()}`, type: 'novel' }))
    .body.id;
  const resumes: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/events?') && r.url().includes('after=')) resumes.push(r.url());
  });
  await page.goto(studio(`projects/${projectId}/chat`));
  await page.getByLabel('Message').fill('Write chapter 1');
  await page.getByRole('button', { name: 'Send' }).click();
  const turnId = await newestTurnId(page);
  const turn = page.locator(`article[data-turn-id="${turnId}"]`);
  await expect(turn.locator('.msg-text, .file-card').first()).toBeVisible();
  await context.setOffline(true);
  await expect(page.getByText('Connection lost: reconnecting…')).toBeVisible();
  await page.waitForTimeout(2500);
  await context.setOffline(false);
  await expect(turn).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  expect(await pageTexts(page, turnId)).toEqual(streamTexts(await turnEvents(turnId)));
  // It resumed after the last event it had, not from the start.
  expect(resumes.some((u) => u.includes(`/turns/${turnId}/events?`))).toBe(true);
});

test('the server drops the stream mid-turn: the browser’s EventSource reconnects by itself with Last-Event-ID', async ({
  page,
}) => {
  await persona({ tokensPerSecond: 60 });
  const projectId = (await api<{ id: string }>('POST', '/projects', { title: `Drop ${Date.now()}`, type: 'novel' }))
    .body.id;
  const lastIds: string[] = [];
  page.on('request', (r) => {
    if (!r.url().includes(`/events`)) return;
    void r.allHeaders().then((h) => h['last-event-id'] && lastIds.push(h['last-event-id']));
  });
  await page.goto(studio(`projects/${projectId}/chat`));
  await page.getByLabel('Message').fill('Write chapter 1');
  await page.getByRole('button', { name: 'Send' }).click();
  const turnId = await newestTurnId(page);
  const turn = page.locator(`article[data-turn-id="${turnId}"]`);
  await expect(turn.locator('.msg-text, .file-card').first()).toBeVisible();
  await page.waitForTimeout(800);
  await dropStreams();
  await page.waitForTimeout(1500);
  await dropStreams();
  await expect(turn).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  expect(await pageTexts(page, turnId)).toEqual(streamTexts(await turnEvents(turnId)));
  expect(lastIds.length).toBeGreaterThan(0);
});

test('a second tab on the same session sees the turn live through the session feed', async ({ page, context }) => {
  const projectId = (await api<{ id: string }>('POST', '/projects', { title: `Two tabs ${Date.now()}`, type: 'novel' }))
    .body.id;
  const sessionId = (await api<{ id: string }>('POST', '/sessions', { projectId })).body.id;
  const other = await context.newPage();
  await other.goto(studio(`projects/${projectId}/chat/${sessionId}`));
  await expect(other.getByLabel('Message')).toBeVisible();
  // The feed is open once the stored conversation is on the page.
  await other.waitForTimeout(500);
  await page.goto(studio(`projects/${projectId}/chat/${sessionId}`));
  await page.getByLabel('Message').fill('Write chapter 1');
  await page.getByRole('button', { name: 'Send' }).click();
  const turnId = await newestTurnId(page);
  const there = other.locator(`article[data-turn-id="${turnId}"]`);
  await expect(there).toBeVisible();
  await expect(there.locator('.user-msg')).toContainText('Write chapter 1');
  await expect(there).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  expect(await pageTexts(other, turnId)).toEqual(streamTexts(await turnEvents(turnId)));
  await other.close();
});
