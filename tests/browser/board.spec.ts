/**
 * The board of the manuscript, used as an author would: chapters in order with their status
 * (planned from the outline, drafted, reviewed by a real turn), words and synopsis; word goals
 * set and met; adding, renaming, moving (buttons and drag and drop: numbered titles follow,
 * texts untouched, the tree and the export follow) and deleting chapters (to the trash, undo).
 * Every step is checked against the API.
 */
import { call, prose, router, say } from '../helpers/script';
import {
  api,
  authorFile,
  createProject,
  createSession,
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

type BoardItem = { fileId: string | null; number: number | null; title: string; status: string; words: number };
const boardOf = async (projectId: string) =>
  (await api<{ items: BoardItem[] }>('GET', `/projects/${projectId}/board`)).body.items;
const titles = async (projectId: string) =>
  (await api<{ items: { title: string; type: string }[] }>('GET', `/projects/${projectId}/files`)).body.items
    .filter((f) => f.type === 'draft')
    .map((f) => f.title);

const OUTLINE = [
  '# The Lighthouse — Outline',
  '',
  'Chapter 1: The Storm — Mara sees the lamp fail on the night of the storm.',
  'Chapter 2: The Visitor — A stranger waits at the pier with a sealed ledger.',
  'Chapter 3: Low Tide — The ledger names the keeper who drowned.',
  'Chapter 4: The Bell — The bell rings twice and the town wakes.',
].join('\n');

test('the board: status from the outline, a reviewed turn and an author draft; words, synopsis; goals set and met', async ({
  page,
}) => {
  const projectId = await createProject(`Board ${Date.now()}`);
  await authorFile(projectId, 'Outline', OUTLINE, 'outline');
  // Chapter 1 written by the team and passed by the reviewer (the review gate fires on 300 words).
  await script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 1: The Storm' }),
    say('writer', `<file>\n${prose(420)}\n</file>\nChapter 1 is written.`),
    say('quality_reviewer', 'Verdict: pass\nThe storm holds together.'),
    suggestionsEntry(['Write chapter 2']),
  ]);
  const turnId = await postTurn(await createSession(projectId), 'Write chapter 1');
  expect((await waitTurnDone(turnId)).status).toBe('completed');
  await authorFile(
    projectId,
    'Chapter 2: The Visitor',
    'The stranger set the ledger on the table and waited for the keeper to speak.',
  );

  await page.goto(studio(`projects/${projectId}/board`));
  const board = page.getByTestId('board');
  const row = (n: number) => board.locator(`.board-row[data-number="${n}"]`);
  await expect(row(1)).toHaveAttribute('data-status', 'reviewed');
  await expect(row(2)).toHaveAttribute('data-status', 'drafted');
  await expect(row(3)).toHaveAttribute('data-status', 'planned');
  await expect(row(4)).toHaveAttribute('data-status', 'planned');
  const api1 = (await boardOf(projectId))[0]!;
  await expect(row(1)).toContainText(`${api1.words} words`);
  await expect(row(1)).toContainText('Reviewed');
  await expect(row(2)).toContainText('Drafted');
  await expect(row(2)).toContainText('A stranger waits at the pier with a sealed ledger.');
  await expect(row(3)).toContainText('Low Tide');
  await expect(row(3)).toContainText('The ledger names the keeper who drowned.');
  await expect(page.getByTestId('board-totals')).toHaveText(
    `4 chapters · 1 reviewed · 1 drafted · 2 planned · ${(api1.words + 15).toLocaleString('en')} words`,
  );

  // Goals: 300 words a chapter (chapter 1 meets it, chapter 2 does not), 1,000 for the book.
  await page.getByText('Word goals').click();
  await page.getByLabel('Words for the whole book').fill('1000');
  await page.getByLabel('Words per chapter').fill('300');
  await page.getByRole('button', { name: 'Save goals' }).click();
  await expect(page.getByTestId('board-notice')).toHaveText('Goals saved.');
  const project = await api<{ wordGoal: number; chapterWordGoal: number }>('GET', `/projects/${projectId}`);
  expect(project.body).toMatchObject({ wordGoal: 1000, chapterWordGoal: 300 });
  await expect(row(1).locator('.board-words')).toHaveAttribute('data-goal-met', 'true');
  await expect(row(1)).toContainText('goal met');
  await expect(row(2).locator('.board-words')).toHaveAttribute('data-goal-met', 'false');
  await expect(row(2)).toContainText('15 of 300 words');
  await expect(page.getByTestId('book-goal')).toContainText(`${api1.words + 15} of 1,000 words`);
  await shot(page, 'board');
  await expectAccessible(page, 'board');

  // A chapter's own goal wins over the project's.
  await row(2).getByRole('button', { name: 'Edit “Chapter 2: The Visitor”' }).click();
  await row(2)
    .getByLabel(/^Word goal/)
    .fill('10');
  await row(2).getByRole('button', { name: 'Save' }).click();
  await expect(row(2).locator('.board-words')).toHaveAttribute('data-goal-met', 'true');
  expect(
    (await api<{ wordGoal: number }>('GET', `/files/${(await boardOf(projectId))[1]!.fileId}`)).body.wordGoal,
  ).toBe(10);

  // A planned chapter is started as a file with the outline's title.
  await row(3).getByRole('button', { name: 'Start this chapter' }).click();
  await expect(page.getByTestId('board-notice')).toHaveText('Added “Chapter 3: Low Tide”. Open it');
  await expect(row(3).getByRole('link', { name: 'Chapter 3: Low Tide' })).toBeVisible();
  expect(await titles(projectId)).toContain('Chapter 3: Low Tide');
  await expect(page.getByTestId('file-tree').getByRole('link', { name: /Chapter 3: Low Tide/ })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'board-phone');
  await page.setViewportSize({ width: 1360, height: 860 });
  await page.getByTestId('board-notice').getByRole('link', { name: 'Open it' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Chapter 3: Low Tide' })).toBeVisible();
});

test('create, rename, move (buttons and drag) and delete chapters: titles renumber, texts stay, tree and export follow', async ({
  page,
}) => {
  const projectId = await createProject(`Reorder ${Date.now()}`);
  const names = ['Storm', 'Visitor', 'The Bell', 'Tide'];
  const texts = names.map((n, i) => `# Chapter ${i + 1}: ${n}\n\nThe text of ${n.toLowerCase()}.`);
  const ids: string[] = [];
  for (const [i, n] of names.entries()) ids.push(await authorFile(projectId, `Chapter ${i + 1}: ${n}`, texts[i]!));

  await page.goto(studio(`projects/${projectId}/board`));
  const board = page.getByTestId('board');
  const notice = page.getByTestId('board-notice');
  const order = () => board.locator('.board-title').allTextContents();
  await expect
    .poll(order)
    .toEqual(['Chapter 1: Storm', 'Chapter 2: Visitor', 'Chapter 3: The Bell', 'Chapter 4: Tide']);

  // “Chapter 3: The Bell” moved to second place becomes chapter 2; chapter 2 becomes 3.
  await board.getByRole('button', { name: 'Move “Chapter 3: The Bell” up' }).click();
  await expect(notice).toHaveText(
    'Moved; 2 titles renumbered: Chapter 3: The Bell → Chapter 2: The Bell, Chapter 2: Visitor → Chapter 3: Visitor.',
  );
  await expect
    .poll(order)
    .toEqual(['Chapter 1: Storm', 'Chapter 2: The Bell', 'Chapter 3: Visitor', 'Chapter 4: Tide']);
  expect(await titles(projectId)).toEqual([
    'Chapter 1: Storm',
    'Chapter 2: The Bell',
    'Chapter 3: Visitor',
    'Chapter 4: Tide',
  ]);
  for (const [i, id] of ids.entries())
    expect((await api<{ content: string; version: number }>('GET', `/files/${id}`)).body).toMatchObject({
      content: texts[i],
      version: 1,
    });
  const tree = page.getByTestId('file-tree');
  await expect
    .poll(() => tree.locator('a[data-file-id] .file-title').allTextContents())
    .toEqual(['Chapter 1: Storm', 'Chapter 2: The Bell', 'Chapter 3: Visitor', 'Chapter 4: Tide']);
  const md = await fetch(`${process.env.STUDIO_URL}/api/v1/projects/${projectId}/export?format=md`, {
    headers: { authorization: `Bearer ${process.env.STUDIO_TOKEN}` },
  }).then((r) => r.text());
  expect(md.split('\n').filter((l) => l.startsWith('# Chapter'))).toEqual([
    '# Chapter 1: Storm',
    '# Chapter 2: The Bell',
    '# Chapter 3: Visitor',
    '# Chapter 4: Tide',
  ]);

  // Drag “Chapter 4: Tide” onto the first chapter: it becomes chapter 1 and the others shift.
  await board
    .locator(`li:has(.board-row[data-board-file="${ids[3]}"])`)
    .dragTo(board.locator(`li:has(.board-row[data-board-file="${ids[0]}"])`));
  await expect
    .poll(order)
    .toEqual(['Chapter 1: Tide', 'Chapter 2: Storm', 'Chapter 3: The Bell', 'Chapter 4: Visitor']);
  expect(await titles(projectId)).toEqual([
    'Chapter 1: Tide',
    'Chapter 2: Storm',
    'Chapter 3: The Bell',
    'Chapter 4: Visitor',
  ]);

  // Add a chapter (the next number is offered), then rename it: the name the author types
  // keeps the chapter's number, so the chapter keeps its place (the board, the outline, the book).
  await board.getByRole('button', { name: 'Add “Chapter 5”' }).click();
  await expect(notice).toHaveText('Added “Chapter 5”. Open it');
  const five = board.locator('.board-row[data-number="5"]');
  await five.getByRole('button', { name: 'Edit “Chapter 5”' }).click();
  await five.getByLabel('Title').fill('Homecoming');
  await five.getByRole('button', { name: 'Save' }).click();
  await expect(notice).toHaveText('Saved “Chapter 5: Homecoming”.');
  await expect
    .poll(order)
    .toEqual([
      'Chapter 1: Tide',
      'Chapter 2: Storm',
      'Chapter 3: The Bell',
      'Chapter 4: Visitor',
      'Chapter 5: Homecoming',
    ]);
  const fifth = (await boardOf(projectId))[4]!;
  expect((await api<{ versions: unknown[] }>('GET', `/files/${fifth.fileId}`)).body.versions).toHaveLength(1);

  // Delete “Chapter 3: The Bell”: asked first, then in the trash; undo brings it back.
  const bell = board.locator(`.board-row[data-board-file="${ids[2]}"]`);
  await bell.getByRole('button', { name: 'Delete “Chapter 3: The Bell”' }).click();
  await expect(bell.getByRole('group', { name: 'Move “Chapter 3: The Bell” to the trash?' })).toBeVisible();
  await shot(page, 'board-delete-confirm');
  await expectAccessible(page, 'board (delete)');
  await bell.getByRole('button', { name: 'Move to trash' }).click();
  await expect(notice).toContainText('“Chapter 3: The Bell” is in the trash.');
  await expect(bell).toHaveCount(0);
  const trash = await api<{ items: { id: string }[] }>('GET', `/projects/${projectId}/files?deleted=true`);
  expect(trash.body.items.map((f) => f.id)).toEqual([ids[2]]);
  // The gap is offered to close; first, undo.
  await expect(board.getByRole('button', { name: 'Renumber chapters in order' })).toBeVisible();
  await notice.getByRole('button', { name: 'Undo' }).click();
  await expect(notice).toHaveText('“Chapter 3: The Bell” is back.');
  await expect(bell).toBeVisible();
  expect((await api<{ content: string }>('GET', `/files/${ids[2]}`)).body.content).toBe(texts[2]);
  await shot(page, 'board-reordered');
});

test('Chinese: 第三章 moved up becomes 第二章; the board in Chinese on a phone', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('scriptorium.lang', 'zh'));
  const projectId = await createProject(`雾港 ${Date.now()}`);
  await authorFile(
    projectId,
    '大纲',
    '# 雾港 · 大纲\n\n第1章：雾起——灯塔熄灭的那一夜。\n第2章：来客——码头上的陌生人。\n第3章：钟声——钟响了两次。\n第4章：退潮——账本上的名字。',
    'outline',
  );
  await authorFile(projectId, '第一章 雾起', '远处的钟声在雾里回荡，一下，又一下。');
  await authorFile(projectId, '第二章 来客', '码头上站着一个陌生人。');
  const bell = await authorFile(projectId, '第三章 钟声', '钟响了两次，全镇都醒了。');
  await page.goto(studio(`projects/${projectId}/board`));
  const board = page.getByTestId('board');
  await expect(board.locator('.board-row[data-number="4"]')).toContainText('计划中');
  await expect(board.locator('.board-row[data-number="2"]')).toContainText('码头上的陌生人。');
  await expect(page.getByTestId('board-totals')).toHaveText('共4章 · 已审0章 · 初稿3章 · 计划中1章 · 35字');
  await board.getByRole('button', { name: '将“第三章 钟声”上移' }).click();
  await expect(page.getByTestId('board-notice')).toHaveText(
    '已移动，并重新编号2章：第三章 钟声 → 第二章 钟声；第二章 来客 → 第三章 来客。大纲没有改动：它仍按原来的顺序描述各章。',
  );
  // Each chapter keeps its own synopsis: found by its name, though the outline still numbers it 3.
  await expect(board.locator('.board-row[data-number="2"] .board-synopsis')).toHaveText('钟响了两次。');
  await expect(board.locator('.board-row[data-number="3"] .board-synopsis')).toHaveText('码头上的陌生人。');
  expect(await titles(projectId)).toEqual(['第一章 雾起', '第二章 钟声', '第三章 来客']);
  expect((await api<{ content: string; version: number }>('GET', `/files/${bell}`)).body).toMatchObject({
    content: '钟响了两次，全镇都醒了。',
    version: 1,
  });
  await shot(page, 'board-zh');
  await expectAccessible(page, 'board (zh)');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(board.getByRole('button', { name: '将“第二章 钟声”下移' })).toBeVisible();
  await shot(page, 'board-zh-phone');
  await expectAccessible(page, 'board (zh, phone)');
});
