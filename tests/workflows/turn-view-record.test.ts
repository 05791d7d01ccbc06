/**
 * The record of what the author saw (src/activities/turn/turn-view-record.ts): every turn that
 * ends leaves, keyed by its id, the fold of its whole stream — the same fold Studio applies
 * live — so `GET /sessions/:id/turns?record=true` shows a finished turn as it was shown, also
 * after its stream expired. A retried end writes it once. Prints what the record costs per turn.
 */
import { settledView, foldTurn, newTurnView, type TurnView } from '../../src/core/turn/turn-view';
import { type AnyEventDraft, draft } from '../../src/core/events';
import { readTurnStream, storeTurnView, viewAtEnd } from '../../src/activities/turn/turn-view-record';
import { parseStreamId, StreamPublisher, turnStreamKey } from '../../src/streams/redis-streams';
import {
  api,
  createAuthorFile,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
  turnEvents,
} from '../helpers/harness';
import { call, router, say, streamFile, words } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '30' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

const streamKey = (turnId: string) => turnStreamKey(h.config.REDIS_KEY_PREFIX, turnId);
type TurnItem = { record: TurnView | null; id: string };
const recordsOf = async (sessionId: string) =>
  (await api<{ items: TurnItem[] }>(h, 'GET', `/api/v1/sessions/${sessionId}/turns?record=true&limit=10`)).body.items;

test('a written and reviewed chapter: the record is the fold of the whole stream, without file bodies; it outlives the stream', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...streamFile('writer', 'Chapter 1', words(60)),
    say('writer', 'Chapter 1 is saved (60 words).'),
    say('quality_reviewer', 'Verdict: pass\nTight and clear.'),
  ]);
  const r = await runTurn(h, sessionId, 'Write chapter 1');
  expect(r.outcome.status).toBe('completed');
  const live = settledView(foldTurn(newTurnView(r.turnId, 'Write chapter 1'), r.events));
  const stored = (await h.runtime.models.TurnView.findById(r.turnId).lean())!;
  expect(stored.view).toEqual(live);
  const view = stored.view as TurnView;
  // What the author saw, item by item.
  expect(view.items.map((i) => i.kind)).toEqual(expect.arrayContaining(['agent', 'tool', 'file', 'text', 'handoff']));
  const file = view.items.find((i) => i.kind === 'file')!;
  expect(file).toMatchObject({ title: 'Chapter 1', op: 'created', words: 60, version: 1, body: '', live: 0 });
  expect(view.items.find((i) => i.kind === 'tool')).toMatchObject({
    tool: 'create_file',
    target: 'Chapter 1',
    ok: true,
  });
  expect(view).toMatchObject({ status: 'done', doneStatus: 'completed', verdict: 'pass', userText: 'Write chapter 1' });
  expect(view.tokens).toBe(
    r.events.filter((e) => e.type === 'usage').reduce((n, e) => n + (e.data as { totalTokens: number }).totalTokens, 0),
  );
  expect(view.tokens).toBeGreaterThan(0);
  // No body of the file in the record: the file holds it.
  expect(JSON.stringify(view)).not.toContain(words(60).slice(0, 40));

  // The route serves it; with the stream gone, the same.
  expect((await recordsOf(sessionId))[0]).toMatchObject({ id: r.turnId, record: live });
  await h.runtime.redis.del(streamKey(r.turnId));
  expect(await turnEvents(h, r.turnId)).toEqual([]);
  expect((await recordsOf(sessionId))[0]).toMatchObject({ id: r.turnId, record: live });
});

test('an approval asked and denied, then one approved: the decisions, the steps and the deleted file are on record', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const ch2 = await createAuthorFile(h, projectId, 'Chapter 2', 'The author wrote chapter two.');
  const ch3 = await createAuthorFile(h, projectId, 'Chapter 3', 'The author wrote chapter three.');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'delete_file', { id: ch2 }),
    call('writer', 'delete_file', { id: ch3 }),
    say('writer', 'Chapter 2 stays; Chapter 3 is in the trash.'),
  ]);
  const r = await runTurn(h, sessionId, 'Tidy up the project', {}, { approvals: ['deny', 'approve'] });
  expect(r.approvals.map((a) => a.decision)).toEqual(['deny', 'approve']);
  const view = (await recordsOf(sessionId))[0]!.record!;
  expect(view.items.filter((i) => i.kind === 'approval').map((i) => [i.title, i.decision])).toEqual([
    ['Chapter 2', 'deny'],
    ['Chapter 3', 'approve'],
  ]);
  expect(
    view.items.filter((i) => i.kind === 'tool').map((i) => [i.tool, i.target, i.approval, i.ok, i.refusal]),
  ).toEqual([
    ['delete_file', 'Chapter 2', 'deny', false, 'kept_your_edits'],
    ['delete_file', 'Chapter 3', 'approve', true, undefined],
  ]);
  expect(view.items.filter((i) => i.kind === 'file').map((i) => [i.title, i.op])).toEqual([['Chapter 3', 'deleted']]);
  // Never an id where a title is: the steps name files by their titles.
  expect(JSON.stringify(view.items.filter((i) => i.kind === 'tool'))).not.toMatch(/[0-9a-f]{24}/);
});

test('the end retried after it published: the same record, written once; the cost of the record per turn', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...streamFile('writer', 'Chapter 1', words(1200), 'draft'),
    say('writer', 'Chapter 1 is saved.'),
    say('quality_reviewer', 'Verdict: revise\nThe middle sags.'),
  ]);
  const r = await runTurn(h, sessionId, 'Write chapter 1');
  const stream = await readTurnStream(h.runtime.redis, streamKey(r.turnId));
  expect(stream.partial).toBe(false);
  expect(stream.events).toEqual(r.events);
  // The end's own slot is the stream's last: its events are what a retry would publish again.
  const finalSlot = parseStreamId(stream.ids[stream.ids.length - 1]!)!.slot;
  const closing = stream.events.filter(
    (_, i) => parseStreamId(stream.ids[i]!)!.slot === finalSlot,
  ) as unknown as AnyEventDraft[];
  expect(closing.map((e) => e.type)).toContain('done');
  const again = viewAtEnd(r.turnId, 'Write chapter 1', stream, finalSlot, closing);
  const stored = (await h.runtime.models.TurnView.findById(r.turnId).lean())!;
  expect(again).toEqual(stored.view);
  const owner = { turnId: r.turnId, sessionId, projectId: r.turn.projectId, ownerId: r.turn.ownerId, jobId: null };
  await storeTurnView(h.runtime.models, owner, again, { events: stream.events.length, partial: false });
  expect(await h.runtime.models.TurnView.countDocuments({ _id: r.turnId })).toBe(1);
  expect((await h.runtime.models.TurnView.findById(r.turnId).lean())!.view).toEqual(stored.view);

  // What the record adds to a turn's end: one stream read (beside finalize's reads), the
  // fold, one write (beside finalize's writes). Measured here whole, one after the other.
  const runs = 20;
  const started = performance.now();
  for (let i = 0; i < runs; i++) {
    const s = await readTurnStream(h.runtime.redis, streamKey(r.turnId));
    await storeTurnView(h.runtime.models, owner, viewAtEnd(r.turnId, 'Write chapter 1', s, finalSlot, closing), {
      events: s.events.length,
      partial: false,
    });
  }
  const perTurn = (performance.now() - started) / runs;

  // A turn as a real model streams it: a 5,000-word chapter in ~4-token batches (about 1,300
  // file_content events) with its chat text, on a stream of its own.
  const bigKey = `${streamKey(r.turnId)}:big`;
  const publisher = new StreamPublisher(h.runtime.redis, bigKey, 1, { maxLen: 100000 });
  const turnId = r.turnId;
  const chunks = words(5000).match(/(?:\S+\s*){1,4}/g)!;
  await publisher.publish([
    draft('agent_selected', { agent: 'writer', reason: 'r', run: 1 }, { turnId }),
    draft(
      'file_created',
      { fileId: 'f'.repeat(24), title: 'Chapter 9', fileType: 'draft', words: 0 },
      { turnId, step: 1 },
    ),
    ...chunks.map((delta) =>
      draft('file_content', { fileId: 'f'.repeat(24), delta }, { turnId, agent: 'writer', step: 2 }),
    ),
    draft(
      'file_updated',
      {
        fileId: 'f'.repeat(24),
        title: 'Chapter 9',
        fileType: 'draft',
        versionId: 'v',
        words: 5000,
        operation: 'stream',
        version: 1,
      },
      { turnId, step: 2 },
    ),
    ...Array.from({ length: 60 }, () =>
      draft('content', { delta: 'The chapter is saved and ' }, { turnId, agent: 'writer', step: 3 }),
    ),
  ]);
  const bigStarted = performance.now();
  for (let i = 0; i < runs; i++) {
    const s = await readTurnStream(h.runtime.redis, bigKey);
    await storeTurnView(h.runtime.models, owner, viewAtEnd(r.turnId, 'Write chapter 9', s, 2, closing), {
      events: s.events.length,
      partial: false,
    });
  }
  const bigPerTurn = (performance.now() - bigStarted) / runs;
  const big = await readTurnStream(h.runtime.redis, bigKey);
  const foldStarted = performance.now();
  for (let i = 0; i < runs; i++) viewAtEnd(r.turnId, 'Write chapter 9', big, 2, closing);
  const foldMs = (performance.now() - foldStarted) / runs;
  await h.runtime.redis.del(bigKey);
  console.log(
    `turn record: ${stream.events.length} events: read + fold + write ${perTurn.toFixed(1)} ms per turn; ` +
      `${big.events.length} events (a 5,000-word chapter): ${bigPerTurn.toFixed(1)} ms per turn, of which the fold ${foldMs.toFixed(2)} ms`,
  );
  expect(bigPerTurn).toBeLessThan(250);
});

test('a chapter still streaming when the author stops the turn is on record as not saved, not as streaming', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 4' }),
    { match: { agent: 'writer' }, reply: { content: `<file>\n${words(2000)}\n</file>` }, tokensPerSecond: 200 },
  ]);
  const turnId = (
    await api<{ turnId: string }>(h, 'POST', `/api/v1/sessions/${sessionId}/turns`, { message: 'Write chapter 4' })
  ).body.turnId;
  for (let i = 0; i < 400; i++) {
    const evs = await turnEvents(h, turnId);
    if (evs.some((e) => e.type === 'file_content')) break;
    await new Promise((res) => setTimeout(res, 25));
  }
  expect((await api(h, 'POST', `/api/v1/turns/${turnId}/interrupt`, {})).status).toBe(202);
  await h.runtime.temporal.workflow.getHandle(`turn-${turnId}`).result();
  h.model.reset();
  const view = (await recordsOf(sessionId))[0]!.record!;
  expect(view.doneStatus).toBe('interrupted');
  const card = view.items.find((i) => i.kind === 'file')!;
  expect(card).toMatchObject({ title: 'Chapter 4', op: 'discarded', live: 0, body: '' });
  expect(view.items.find((i) => i.kind === 'stopped')).toMatchObject({ reason: 'interrupted' });
});
