/**
 * Durable approvals: an agent that asks to delete or wholly rewrite a file the
 * author wrote, which the author's message did not authorise, waits for the author's
 * decision instead of only refusing: approve runs the call, deny / timeout / interrupt do
 * not; a plain yes or no sent to the session decides it; anything else denies it and runs
 * next. Also: edits that replace the whole text are rewrites, one AI line does not lift
 * the protection, and a streamed body never lands over the author's edit or in the trash.
 */
import { writeVersion } from '../../src/db/file-store';
import {
  api,
  createAuthorFile,
  answerApprovals,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  postTurn,
  runTurn,
  turnEvents,
  waitTurn,
} from '../helpers/harness';
import { call, chatText, ofType, router, say, streamFile, words } from '../helpers/script';

let duringSave: ((fileId: string) => Promise<void>) | null = null;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    config: { REVIEW_WORD_THRESHOLD: '100000' },
    faults: {
      hit: () => undefined,
      async pause(point, info) {
        if (point !== 'llm.before_capture_save' || !duringSave) return;
        const act = duringSave;
        duringSave = null;
        await act(String(info.fileId));
      },
    },
  });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

const authorFile = (projectId: string, title: string, content: string) =>
  createAuthorFile(h, projectId, title, content);
const fileOf = (id: string) => h.runtime.models.File.findById(id).lean();

/** Waits until the turn shows a pending approval (the Turn record and the live state query both). */
async function pendingApprovalOf(turnId: string): Promise<{ approvalId: string; title: string; action: string }> {
  for (let i = 0; i < 400; i++) {
    const t = await api<{
      status: string;
      pendingApproval: { approvalId: string; title: string; action: string } | null;
      live: { pendingApproval?: { approvalId: string } | null } | null;
    }>(h, 'GET', `/api/v1/turns/${turnId}`);
    if (
      t.body.status === 'awaiting_approval' &&
      t.body.pendingApproval &&
      t.body.live?.pendingApproval?.approvalId === t.body.pendingApproval.approvalId
    )
      return t.body.pendingApproval;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no approval was requested');
}

test('approve: the call runs after the author says yes; the wait shows in the turn, its state query and the stream', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const ch3 = await authorFile(projectId, 'Chapter 3', 'The author wrote chapter three.');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'delete_file', { id: ch3 }),
    say('writer', 'Chapter 3 is in the trash.'),
  ]);
  const turnId = await postTurn(h, sessionId, 'Tidy up the project please');
  const pending = await pendingApprovalOf(turnId);
  expect(pending).toMatchObject({ title: 'Chapter 3', action: 'delete' });
  expect(await fileOf(ch3)).toMatchObject({ deletedAt: null });
  const decided = await api(h, 'POST', `/api/v1/turns/${turnId}/approvals/${pending.approvalId}`, {
    decision: 'approve',
  });
  expect(decided).toMatchObject({ status: 200, body: { turnId, approvalId: pending.approvalId, decision: 'approve' } });
  // Decided once: a second answer is a conflict, not a second decision.
  expect(
    (await api(h, 'POST', `/api/v1/turns/${turnId}/approvals/${pending.approvalId}`, { decision: 'deny' })).status,
  ).toBe(409);
  expect(await waitTurn(h, turnId)).toMatchObject({ status: 'completed' });
  expect((await fileOf(ch3))?.deletedAt).not.toBeNull();
  const events = await turnEvents(h, turnId);
  expect(ofType(events, 'approval_requested')[0]!.data).toMatchObject({
    approvalId: pending.approvalId,
    fileId: ch3,
    action: 'delete',
    preview: expect.stringContaining('The author wrote chapter three.'),
  });
  expect(ofType(events, 'approval_decided').map((e) => e.data)).toEqual([
    { approvalId: pending.approvalId, decision: 'approve' },
  ]);
  expect(ofType(events, 'tool_result').map((e) => [e.data.name, e.data.ok])).toEqual([['delete_file', true]]);
  expect(
    (await api(h, 'POST', `/api/v1/turns/${turnId}/approvals/${pending.approvalId}`, { decision: 'approve' })).status,
  ).toBe(409);
});

test('bad input to the approval route is 400; an unknown approval of a running turn is 409', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const ch = await authorFile(projectId, 'Chapter 4', 'Mine.');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'delete_file', { id: ch }),
    say('writer', 'OK.'),
  ]);
  const turnId = await postTurn(h, sessionId, 'Look around the project');
  const pending = await pendingApprovalOf(turnId);
  expect(
    (await api(h, 'POST', `/api/v1/turns/${turnId}/approvals/${pending.approvalId}`, { decision: 'maybe' })).status,
  ).toBe(400);
  expect(
    (await api(h, 'POST', `/api/v1/turns/${turnId}/approvals/${pending.approvalId}`, { decision: 'approve', extra: 1 }))
      .status,
  ).toBe(400);
  expect((await api(h, 'POST', `/api/v1/turns/${turnId}/approvals/not*valid`, { decision: 'approve' })).status).toBe(
    400,
  );
  expect((await api(h, 'POST', `/api/v1/turns/${turnId}/approvals/s9-other`, { decision: 'approve' })).status).toBe(
    409,
  );
  expect(
    (await api(h, 'POST', `/api/v1/turns/${turnId}/approvals/${pending.approvalId}`, { decision: 'deny' })).status,
  ).toBe(200);
  await waitTurn(h, turnId);
  expect(await fileOf(ch)).toMatchObject({ deletedAt: null, content: 'Mine.' });
});

test.each([
  ['no', 'deny'],
  ['不用了', 'deny'],
  ['好的', 'approve'],
  ['yes', 'approve'],
])(
  'the session message "%s" while the turn waits decides the approval (%s) instead of a 409',
  async (message, decision) => {
    const { sessionId, projectId } = await createProjectAndSession(h);
    const ch = await authorFile(projectId, 'Chapter 5', 'Author text.');
    h.model.script([
      router({ current_agent: 'writer', workflow_plan: 'quick' }),
      call('writer', 'delete_file', { id: ch }),
      say('writer', 'Done.'),
    ]);
    const turnId = await postTurn(h, sessionId, 'Go through the project files');
    const pending = await pendingApprovalOf(turnId);
    const r = await api<{ turnId: string; approval: { approvalId: string; decision: string } }>(
      h,
      'POST',
      `/api/v1/sessions/${sessionId}/turns`,
      { message },
    );
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ turnId, approval: { approvalId: pending.approvalId, decision } });
    await waitTurn(h, turnId);
    expect(((await fileOf(ch))?.deletedAt ?? null) === null).toBe(decision === 'deny');
  },
);

test('any other message denies the approval and runs as the next turn once this one ends', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const ch = await authorFile(projectId, 'Chapter 6', 'Keep me.');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'delete_file', { id: ch }),
    say('writer', 'Left it alone.'),
    router({ current_agent: 'writer', workflow_plan: 'quick', write_content: false }),
    say('writer', 'Here is what chapter 6 is about.'),
  ]);
  const first = await postTurn(h, sessionId, 'Go through the project files');
  await pendingApprovalOf(first);
  const r = await api<{ turnId: string }>(h, 'POST', `/api/v1/sessions/${sessionId}/turns`, {
    message: 'What is chapter 6 about?',
  });
  expect(r.status).toBe(202);
  expect(r.body.turnId).not.toBe(first);
  expect(await waitTurn(h, first)).toMatchObject({ status: 'completed' });
  expect(ofType(await turnEvents(h, first), 'approval_decided').map((e) => e.data.decision)).toEqual(['deny']);
  expect(await waitTurn(h, r.body.turnId)).toMatchObject({ status: 'completed' });
  expect(await fileOf(ch)).toMatchObject({ deletedAt: null, content: 'Keep me.' });
});

test('no answer in time counts as no (approval_timeout); an interrupt while waiting is a no and ends the turn', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const ch = await authorFile(projectId, 'Chapter 7', 'Seven.');
  const wait = h.config.APPROVAL_WAIT_SECONDS;
  h.config.APPROVAL_WAIT_SECONDS = 2;
  try {
    h.model.script([
      router({ current_agent: 'writer', workflow_plan: 'quick' }),
      call('writer', 'delete_file', { id: ch }),
      say('writer', 'I could not delete it.'),
    ]);
    const r = await runTurn(h, sessionId, 'Go through the project files', {}, { approvals: 'ignore' });
    expect(ofType(r.events, 'approval_decided').map((e) => e.data.decision)).toEqual(['timeout']);
    expect(ofType(r.events, 'tool_result')[0]!.data).toMatchObject({
      ok: false,
      errorType: 'approval_timeout',
      refusal: 'kept_your_edits',
    });
  } finally {
    h.config.APPROVAL_WAIT_SECONDS = wait;
  }
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'edit_file', { id: ch, operation: 'rewrite', text: 'All new.' }),
  ]);
  const turnId = await postTurn(h, sessionId, 'Look at chapter 7');
  const pending = await pendingApprovalOf(turnId);
  expect(pending.action).toBe('rewrite');
  expect((await api(h, 'POST', `/api/v1/turns/${turnId}/interrupt`, {})).status).toBe(202);
  expect(await waitTurn(h, turnId)).toMatchObject({ status: 'interrupted' });
  expect(ofType(await turnEvents(h, turnId), 'approval_decided').map((e) => e.data.decision)).toEqual(['deny']);
  expect(await fileOf(ch)).toMatchObject({ deletedAt: null, content: 'Seven.' });
});

test('requests in one turn are asked one at a time, in order', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const a = await authorFile(projectId, 'Notes', 'n');
  const b = await authorFile(projectId, 'Notes 2', 'n2');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'delete_file', { id: a }),
    call('writer', 'delete_file', { id: b }),
    say('writer', 'Done.'),
  ]);
  // "Notes 2" is named; "Notes" only as the start of it: only Notes is asked about.
  const r = await runTurn(h, sessionId, 'delete Notes 2', {}, { approvals: ['approve'] });
  expect(r.approvals.map((x) => [x.title, x.decision, x.status])).toEqual([['Notes', 'approve', 200]]);
  expect((await fileOf(a))?.deletedAt).not.toBeNull();
  expect((await fileOf(b))?.deletedAt).not.toBeNull();

  const c = await authorFile(projectId, 'Chapter 8', 'c');
  const d = await authorFile(projectId, 'Chapter 9', 'd');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'delete_file', { id: c }),
    call('writer', 'delete_file', { id: d }),
    say('writer', 'Done.'),
  ]);
  const r2 = await runTurn(h, sessionId, 'clean up the old chapters', {}, { approvals: ['deny', 'approve'] });
  expect(r2.approvals.map((x) => [x.title, x.decision])).toEqual([
    ['Chapter 8', 'deny'],
    ['Chapter 9', 'approve'],
  ]);
  expect((await fileOf(c))?.deletedAt).toBeNull();
  expect((await fileOf(d))?.deletedAt).not.toBeNull();
});

test('an edit that replaces or empties the whole text is a rewrite; one AI line in an author chapter does not lift its protection', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const ch = await authorFile(projectId, 'Chapter 11', 'Every word is mine.');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'query_files', { id: ch }),
    call('writer', 'edit_file', {
      id: ch,
      operation: 'replace',
      anchor: 'Every word is mine.',
      text: 'Every word is the AI’s.',
    }),
    call('writer', 'edit_file', { id: ch, operation: 'delete', anchor: 'Every word is mine.' }),
    say('writer', 'Done.'),
  ]);
  const r = await runTurn(h, sessionId, 'Improve the rhythm of chapter 11');
  expect(ofType(r.events, 'approval_requested').map((e) => e.data.action)).toEqual(['rewrite', 'rewrite']);
  expect((await fileOf(ch))?.content).toBe('Every word is mine.');

  // The AI appends a line: its version is the latest, but most of the text is still the author's.
  await writeVersion(h.runtime.models, ch, 'Every word is mine.\nOne AI line.', {
    author: 'ai',
    operation: 'edit:append',
  });
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'delete_file', { id: ch }),
    say('writer', 'Done.'),
  ]);
  const r2 = await runTurn(h, sessionId, 'Tidy the project');
  expect(ofType(r2.events, 'approval_requested')).toHaveLength(1);
  expect((await fileOf(ch))?.deletedAt).toBeNull();
});

test('a streamed chapter never lands over the author’s edit, nor in the trash: it is kept aside and the reply says where', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const body = words(120);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...streamFile('writer', 'Chapter 12', body, 'draft', '\nChapter 12 is saved.'),
  ]);
  duringSave = async (fileId) => {
    const put = await api(h, 'PUT', `/api/v1/files/${fileId}`, { content: 'The author typed this meanwhile.' });
    if (put.status !== 200) throw new Error(`author save failed: ${put.status}`);
  };
  const r = await runTurn(h, sessionId, 'Write chapter 12');
  const ch = await h.runtime.models.File.findOne({ projectId, title: 'Chapter 12' }).lean();
  expect(ch).toMatchObject({ content: 'The author typed this meanwhile.', latestAuthor: 'author' });
  const kept = await h.runtime.models.File.findOne({ projectId, title: 'Chapter 12 (AI draft)' }).lean();
  expect(kept?.content.trim()).toBe(body.trim());
  expect(ofType(r.events, 'file_updated').filter((e) => e.data.fileId === String(ch!._id))).toEqual([]);
  expect(ofType(r.events, 'tool_result').map((e) => [e.data.name, e.data.errorType])).toEqual([
    ['create_file', undefined],
    ['file_stream', 'stale_content'],
  ]);
  const reply = await h.runtime.models.Message.find({ turnId: r.turnId, role: 'assistant' }).lean();
  expect(reply.map((m) => m.content).join('\n')).toContain('Not saved into "Chapter 12"');
  expect(reply.map((m) => m.content).join('\n')).toContain('"Chapter 12 (AI draft)"');

  // Deleted to the trash while it streamed: the trashed file gets nothing.
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...streamFile('writer', 'Chapter 13', body, 'draft', '\nDone.'),
  ]);
  duringSave = async (fileId) => {
    const del = await api(h, 'DELETE', `/api/v1/files/${fileId}`);
    if (del.status !== 204) throw new Error(`author delete failed: ${del.status}`);
  };
  const r2 = await runTurn(h, sessionId, 'Write chapter 13');
  const trashed = await h.runtime.models.File.findOne({ projectId, title: 'Chapter 13' }).lean();
  expect(trashed?.deletedAt).not.toBeNull();
  expect(trashed?.content ?? '').toBe('');
  expect(
    await h.runtime.models.FileVersion.countDocuments({
      fileId: String(trashed!._id),
      author: 'ai',
      operation: 'stream',
    }),
  ).toBe(0);
  expect(ofType(r2.events, 'tool_result').map((e) => e.data.errorType)).toContain('file_deleted');
  expect(chatText(r2.events)).not.toContain('<file>');
});

test('"不用了" to an offered step writes nothing and costs no model call', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'quality_reviewer', workflow_plan: 'review_only', read_only: true, write_content: false }),
    say('quality_reviewer', '第3章节奏偏慢，建议压缩开头两段。要这样改吗？'),
  ]);
  await runTurn(h, sessionId, '帮我看看第三章');
  const before = h.model.requests.length;
  const r = await runTurn(h, sessionId, '不用了');
  expect(h.model.requests.length).toBe(before);
  expect(r.outcome).toMatchObject({ status: 'completed' });
  expect(r.turn.routing).toMatchObject({ source: 'decline_offer', read_only: true });
  expect(chatText(r.events)).toBe('好的，先不动。需要的时候随时告诉我。');
});

test('answerApprovals answers nothing when nothing is asked', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', write_content: false }),
    say('writer', 'Hello.'),
  ]);
  const turnId = await postTurn(h, sessionId, 'hello there');
  expect(await answerApprovals(h, turnId, 'approve', waitTurn(h, turnId))).toEqual([]);
});
