/**
 * Run control from the chat: approval cards (approve runs the delete, deny leaves the file),
 * steering a running turn and stopping it. What the page says is checked against the API.
 */
import type { Page } from '@playwright/test';
import { call, router, say, words } from '../helpers/script';
import {
  api,
  authorFile,
  createProject,
  expectAccessible,
  modelState,
  newestTurnId,
  persona,
  script,
  shot,
  studio,
  suggestionsEntry,
  turnEvents,
  waitTurnDone,
  expect,
  test,
} from './helpers';

test.beforeEach(async () => {
  await persona();
});
test.afterEach(async () => {
  const state = await modelState();
  expect(state.failures).toEqual([]);
});

async function openChat(page: Page, projectId: string) {
  await page.goto(studio(`projects/${projectId}/chat`));
  await expect(page.getByLabel('Message')).toBeVisible();
}

async function send(page: Page, message: string): Promise<string> {
  await page.getByLabel('Message').fill(message);
  await page.getByRole('button', { name: 'Send' }).click();
  return newestTurnId(page);
}

for (const decision of ['approve', 'deny'] as const) {
  test(`an approval card: ${decision}`, async ({ page }) => {
    const projectId = await createProject(`Approval ${decision} ${Date.now()}`);
    const fileId = await authorFile(projectId, 'Chapter 3', 'The author wrote chapter three.');
    await script([
      router({ current_agent: 'writer', workflow_plan: 'quick' }),
      call('writer', 'delete_file', { id: fileId }),
      say('writer', decision === 'approve' ? 'Chapter 3 is in the trash.' : 'I left chapter 3 as it is.'),
      suggestionsEntry(['Write chapter 3 again']),
    ]);
    await openChat(page, projectId);
    const turnId = await send(page, 'Tidy up the project please');
    const card = page.getByRole('group', { name: 'Approval needed' });
    await expect(card).toContainText('The team asks to delete your file: Chapter 3');
    await expect(card).toContainText('The author wrote chapter three.');
    const pending = await api<{ status: string; pendingApproval: { approvalId: string } }>('GET', `/turns/${turnId}`);
    expect(pending.body.status).toBe('awaiting_approval');
    await expect(card).toHaveAttribute('data-approval-id', pending.body.pendingApproval.approvalId);
    if (decision === 'approve') {
      await shot(page, 'approval');
      await expectAccessible(page, 'approval');
    }
    await card.getByRole('button', { name: decision === 'approve' ? 'Approve' : 'Deny' }).click();
    await expect(card.locator('.decision')).toHaveAttribute('data-decision', decision);
    await expect(page.locator(`article[data-turn-id="${turnId}"]`)).toHaveAttribute('data-status', 'done');
    expect((await waitTurnDone(turnId)).status).toBe('completed');
    const decided = (await turnEvents(turnId)).filter((e) => e.type === 'approval_decided').map((e) => e.data);
    expect(decided).toEqual([{ approvalId: pending.body.pendingApproval.approvalId, decision }]);
    const live = await api<{ items: { id: string }[] }>('GET', `/projects/${projectId}/files`);
    const trash = await api<{ items: { id: string }[] }>('GET', `/projects/${projectId}/files?deleted=true`);
    if (decision === 'approve') {
      expect(trash.body.items.map((f) => f.id)).toEqual([fileId]);
      await expect(page.getByTestId('file-tree').locator(`a[data-file-id="${fileId}"]`)).toHaveCount(0);
    } else {
      expect(live.body.items.map((f) => f.id)).toEqual([fileId]);
      await expect(page.getByTestId('file-tree').locator(`a[data-file-id="${fileId}"]`)).toBeVisible();
    }
  });
}

test('steer a running turn, then stop it', async ({ page }) => {
  const projectId = await createProject(`Control ${Date.now()}`);
  await script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    {
      match: { agent: 'writer' },
      reply: {
        reasoning: 'A storm scene: check the files for an earlier storm first.',
        content: 'Let me look at what is there first.',
        toolCalls: [{ name: 'query_files', arguments: { query: 'storm' } }],
      },
      ttftMs: 2500,
    },
    {
      match: { agent: 'writer' },
      reply: { content: `Here is the storm, shorter:\n${words(300)}` },
      tokensPerSecond: 20,
    },
  ]);
  await openChat(page, projectId);
  const turnId = await send(page, 'Write a storm scene');
  await page.getByLabel('Extra instruction for the running turn').fill('Keep it under 200 words');
  await page.getByRole('button', { name: 'Steer' }).click();
  const turn = page.locator(`article[data-turn-id="${turnId}"]`);
  await expect(turn.locator('.steer')).toContainText('Keep it under 200 words');
  // The model's thinking is there, folded away.
  const thinking = turn.locator('details.thinking');
  await thinking.locator('summary').click();
  await expect(thinking).toContainText('check the files for an earlier storm first');
  await expect(turn.locator('.msg-text').last()).toContainText('Here is the storm, shorter');
  await shot(page, 'steer');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(turn).toHaveAttribute('data-status', 'done');
  await expect(turn.locator('.stopped')).toHaveAttribute('data-reason', 'interrupted');
  expect((await waitTurnDone(turnId)).status).toBe('interrupted');
  const events = await turnEvents(turnId);
  expect(events.filter((e) => e.type === 'steering_received').map((e) => e.data.message)).toEqual([
    'Keep it under 200 words',
  ]);
  expect(events.find((e) => e.type === 'workflow_stopped')?.data).toMatchObject({ reason: 'interrupted' });
  // The composer is back for the next message.
  await expect(page.getByLabel('Message')).toBeVisible();
});
