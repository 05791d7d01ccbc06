/**
 * Every feature reachable with the default setup: the offline model's persona, unscripted,
 * carries out an author's order about whole files — delete a chapter, rewrite one from
 * scratch, add character sheets — and the engine's author protection decides whether to ask
 * first. An order in the author's own clear words goes ahead; one that does not clearly
 * order it (a question, a wording the rules do not read as an order) shows the approval, and
 * approve and deny both end in the truth, said in words: no tool name, id or error code.
 */
import { chatText, ofType } from '../helpers/script';
import { createAuthorFile, createHarness, createProjectAndSession, type Harness, runTurn } from '../helpers/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '100000' } });
});
afterAll(async () => h?.close());

const fileOf = (id: string) => h.runtime.models.File.findById(id).lean();
/** What the author reads must not carry a tool's name, an id or an error code. */
const JARGON = /_file\b|[0-9a-f]{24}|\b[a-z]+_[a-z_]+\b/;

test('"delete chapter 2" deletes the author’s chapter (their clear order), and says where it went', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const ch2 = await createAuthorFile(h, projectId, 'Chapter 2', 'The author wrote chapter two.');
  const r = await runTurn(h, sessionId, 'delete chapter 2');
  expect(r.outcome.status).toBe('completed');
  expect(r.approvals).toEqual([]);
  expect((await fileOf(ch2))?.deletedAt).not.toBeNull();
  expect(chatText(r.events)).toContain('"Chapter 2" is in the trash; you can restore it from the Trash.');
  expect(chatText(r.events)).not.toMatch(JARGON);
});

for (const decision of ['approve', 'deny'] as const)
  test(`"could you delete chapter 2?" asks first; ${decision} ends in the truth`, async () => {
    const { sessionId, projectId } = await createProjectAndSession(h);
    const ch2 = await createAuthorFile(h, projectId, 'Chapter 2', 'The author wrote chapter two.');
    const r = await runTurn(h, sessionId, 'Could you delete chapter 2?', {}, { approvals: decision });
    expect(r.outcome.status).toBe('completed');
    expect(r.approvals.map((a) => [a.title, a.decision])).toEqual([['Chapter 2', decision]]);
    expect(ofType(r.events, 'approval_requested')[0]!.data).toMatchObject({ action: 'delete', title: 'Chapter 2' });
    const text = chatText(r.events);
    if (decision === 'approve') {
      expect((await fileOf(ch2))?.deletedAt).not.toBeNull();
      expect(text).toContain('is in the trash');
    } else {
      expect(await fileOf(ch2)).toMatchObject({ deletedAt: null, content: 'The author wrote chapter two.' });
      expect(text).toContain('"Chapter 2" stays as it is: you chose not to delete it.');
    }
    expect(text).not.toMatch(JARGON);
  });

for (const decision of ['approve', 'deny'] as const)
  test(`"能把第一章推倒重写吗？" asks first (a question gives no order); ${decision} ends in the truth`, async () => {
    const { sessionId, projectId } = await createProjectAndSession(h);
    const ch1 = await createAuthorFile(h, projectId, '第一章', '作者亲手写的第一章。');
    const r = await runTurn(h, sessionId, '能把第一章推倒重写吗？', {}, { approvals: decision });
    expect(r.outcome.status).toBe('completed');
    expect(r.approvals.map((a) => [a.title, a.decision])).toEqual([['第一章', decision]]);
    expect(ofType(r.events, 'approval_requested')[0]!.data).toMatchObject({ action: 'rewrite' });
    const file = (await fileOf(ch1))!;
    const text = chatText(r.events);
    if (decision === 'approve') {
      expect(file.content).not.toBe('作者亲手写的第一章。');
      expect(file.latestAuthor).toBe('ai');
      expect(text).toMatch(/《第一章》已推倒重写（\d+字），原来的文字在历史版本里。/);
    } else {
      expect(file.content).toBe('作者亲手写的第一章。');
      expect(text).toContain('《第一章》保持原样：你没有同意重写。');
    }
    expect(text).not.toMatch(JARGON);
  });

test('"rewrite chapter 1 from scratch" rewrites the author’s chapter (their clear order); its old text stays in the history', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const ch1 = await createAuthorFile(h, projectId, 'Chapter 1', 'The author wrote chapter one.');
  const r = await runTurn(h, sessionId, 'rewrite chapter 1 from scratch');
  expect(r.approvals).toEqual([]);
  expect((await fileOf(ch1))!.content).toContain('# Chapter 1');
  expect(await h.runtime.models.FileVersion.countDocuments({ fileId: ch1 })).toBe(2);
  expect(chatText(r.events)).toMatch(
    /"Chapter 1" is rewritten from scratch \(\d+ words\); the earlier text is in its history\./,
  );
});

test('the suggestion "Add character sheets for the main cast" creates character files, not a chapter; asked again, it keeps them', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const r = await runTurn(h, sessionId, 'Add character sheets for the main cast');
  expect(r.outcome.status).toBe('completed');
  const files = await h.runtime.models.File.find({ projectId, deletedAt: null }).lean();
  expect(files.map((f) => [f.type, f.title]).sort()).toEqual([
    ['character', 'Mara'],
    ['character', 'Tomas'],
    ['character', 'the Archivist'],
  ]);
  expect(files.every((f) => f.words > 10)).toBe(true);
  expect(chatText(r.events)).toContain('Character sheets saved: "Mara", "Tomas", "the Archivist".');
  const again = await runTurn(h, sessionId, 'Add character sheets for the main cast');
  expect(await h.runtime.models.File.countDocuments({ projectId, deletedAt: null })).toBe(3);
  expect(chatText(again.events)).toContain('already have sheets');
  expect(chatText(again.events)).not.toMatch(JARGON);
});

test('a chapter that is not there: nothing is touched, and the agent asks which file was meant', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const r = await runTurn(h, sessionId, '删除第九章');
  expect(ofType(r.events, 'tool_call')).toEqual([]);
  expect(chatText(r.events)).toContain('这个项目里没有找到第9章，所以什么都没有改动。');
});
