/**
 * The fold of a turn's events (src/core/turn/turn-view.ts) that Studio applies live and the end of
 * a turn stores: file cards through their life (opened, streaming, saved, deleted, discarded),
 * steps named by what they touched, approvals tied to their step, text per step, verdict and usage.
 */
import type { StreamEvent } from '../../src/core/events';
import { foldTurn, newTurnView, settledView, type TurnItem, type TurnView } from '../../src/core/turn/turn-view';

const ev = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ type, data, seq: 0, ts: '', ...extra }) as unknown as StreamEvent;
const F = 'a'.repeat(24);
const fold = (events: StreamEvent[], view: TurnView = newTurnView('t1', 'Plan the book')) => foldTurn(view, events);
const files = (v: TurnView) => v.items.filter((i): i is Extract<TurnItem, { kind: 'file' }> => i.kind === 'file');

test('a file opened empty, streamed after a lead-in line, then saved: one card, whose live box ends at the save', () => {
  let v = fold([
    ev('agent_selected', { agent: 'planner', reason: '', run: 1 }),
    ev(
      'tool_call',
      { name: 'create_file', arguments: { type: 'outline', title: 'Outline' }, summary: 'create_file Outline' },
      { toolCallId: 'c1', step: 1 },
    ),
    ev(
      'tool_result',
      { name: 'create_file', ok: true, result: { id: F, title: 'Outline' } },
      { toolCallId: 'c1', step: 1 },
    ),
    ev('file_created', { fileId: F, title: 'Outline', fileType: 'outline', words: 0 }, { step: 1 }),
    ev('content', { delta: 'Here is a ten-chapter outline.' }, { agent: 'planner', step: 2 }),
    ev('file_content', { fileId: F, delta: 'Chapter 1: The Lantern' }, { agent: 'planner', step: 2 }),
  ]);
  expect(files(v)).toEqual([expect.objectContaining({ op: 'created', live: 22, body: 'Chapter 1: The Lantern' })]);
  v = fold(
    [
      ev(
        'file_updated',
        {
          fileId: F,
          title: 'Outline',
          fileType: 'outline',
          versionId: 'v1',
          words: 120,
          operation: 'stream',
          version: 1,
        },
        { step: 2 },
      ),
    ],
    v,
  );
  // The card that streamed is the saved card: no live box left beside "Saved Outline".
  expect(files(v)).toEqual([
    expect.objectContaining({ op: 'created', live: 0, body: '', words: 120, version: 1, title: 'Outline' }),
  ]);
  expect(v.items.map((i) => i.kind)).toEqual(['agent', 'tool', 'file', 'text']);
  expect(v.items[1]).toEqual({ kind: 'tool', id: 'c1', tool: 'create_file', target: 'Outline', ok: true });
});

test('a body still streaming when the turn ends (a Stop) is discarded, not streaming; settled, the view keeps no body', () => {
  const v = fold([
    ev('file_created', { fileId: F, title: 'Chapter 2', fileType: 'draft', words: 0 }, { step: 1 }),
    ev('file_content', { fileId: F, delta: 'It was late' }, { agent: 'writer', step: 2 }),
    ev('workflow_stopped', { reason: 'interrupted', message: 'Stopped by the author.', terminal: true }),
    ev('done', { status: 'interrupted' }),
  ]);
  expect(files(v)).toEqual([expect.objectContaining({ op: 'discarded', live: 0, body: '', title: 'Chapter 2' })]);
  expect(v).toMatchObject({ status: 'done', doneStatus: 'interrupted' });
  const streaming = fold([ev('file_content', { fileId: F, delta: 'Once' }, { agent: 'writer', step: 2 })]);
  expect(settledView(streaming).items).toEqual([expect.objectContaining({ op: 'streaming', body: '', live: 0 })]);
});

test('steps name what they touched by title, never by id: from the arguments, the result, an earlier card or the approval', () => {
  const v = fold([
    ev('file_updated', {
      fileId: F,
      title: 'Chapter 3',
      fileType: 'draft',
      versionId: 'v',
      words: 900,
      operation: 'append',
      version: 4,
    }),
    ev('tool_call', { name: 'query_files', arguments: { id: F }, summary: '' }, { toolCallId: 'q' }),
    ev(
      'tool_call',
      { name: 'edit_file', arguments: { id: 'b'.repeat(24), operation: 'replace' }, summary: '' },
      { toolCallId: 'e' },
    ),
    ev(
      'tool_result',
      { name: 'edit_file', ok: true, result: { id: 'b'.repeat(24), title: 'Notes', version: 2 } },
      { toolCallId: 'e' },
    ),
    ev(
      'tool_call',
      { name: 'delete_file', arguments: { id: 'c'.repeat(24) }, summary: '' },
      { toolCallId: 'd', step: 5 },
    ),
    ev(
      'approval_requested',
      {
        approvalId: 's5-d',
        fileId: 'c'.repeat(24),
        title: 'Chapter 7',
        action: 'delete',
        files: [{ id: 'c'.repeat(24), title: 'Chapter 7' }],
        preview: 'x',
        expiresAt: '',
      },
      { toolCallId: 'd', step: 5 },
    ),
    ev(
      'tool_result',
      {
        name: 'delete_file',
        ok: false,
        errorType: 'author_declined',
        message: 'The author declined',
        refusal: 'kept_your_edits',
      },
      { toolCallId: 'd', step: 5 },
    ),
    ev('approval_decided', { approvalId: 's5-d', decision: 'deny' }),
    ev(
      'tool_call',
      { name: 'handoff_to_agent', arguments: { agent: 'quality_reviewer', reason: 'review' }, summary: '' },
      { toolCallId: 'h' },
    ),
    ev('tool_call', { name: 'parallel_execute', arguments: { tasks: [{}, {}, {}] }, summary: '' }, { toolCallId: 'p' }),
  ]);
  const steps = v.items.filter((i): i is Extract<TurnItem, { kind: 'tool' }> => i.kind === 'tool');
  expect(steps.map((s) => [s.tool, s.target, s.ok, s.approval, s.refusal, s.errorType])).toEqual([
    ['query_files', 'Chapter 3', undefined, undefined, undefined, undefined],
    ['edit_file', 'Notes', true, undefined, undefined, undefined],
    ['delete_file', 'Chapter 7', false, 'deny', 'kept_your_edits', 'author_declined'],
    ['handoff_to_agent', 'quality_reviewer', undefined, undefined, undefined, undefined],
    ['parallel_execute', undefined, undefined, undefined, undefined, undefined],
  ]);
  expect(steps[4]!.count).toBe(3);
  expect(v.items.find((i) => i.kind === 'approval')).toMatchObject({
    decision: 'deny',
    toolCallId: 'd',
    title: 'Chapter 7',
  });
  expect(JSON.stringify(steps)).not.toMatch(/[0-9a-f]{24}/);
});

test('a delete is a card of its own kind; a body the author kept out of their file names where it went', () => {
  const v = fold([
    ev('file_updated', {
      fileId: F,
      title: 'Chapter 3',
      fileType: 'draft',
      versionId: '',
      words: 0,
      operation: 'delete',
    }),
    ev('file_created', { fileId: 'b'.repeat(24), title: 'Chapter 5', fileType: 'draft', words: 0 }),
    ev('file_content', { fileId: 'b'.repeat(24), delta: 'Rain' }, { step: 2 }),
    ev(
      'tool_result',
      {
        name: 'file_stream',
        ok: false,
        errorType: 'stale_content',
        message: 'The body was not saved',
        refusal: 'kept_your_edits',
        result: { kept_in: { id: 'c'.repeat(24), title: 'Chapter 5 (AI draft)' } },
      },
      { toolCallId: `save:${'b'.repeat(24)}` },
    ),
  ]);
  expect(files(v)[0]).toMatchObject({ op: 'deleted', title: 'Chapter 3' });
  expect(v.items.find((i) => i.kind === 'tool')).toMatchObject({
    tool: 'file_stream',
    target: 'Chapter 5',
    keptIn: 'Chapter 5 (AI draft)',
    refusal: 'kept_your_edits',
  });
});

test('text per agent step; a retried step loses its partial text and body; steering, verdict, usage and suggestions', () => {
  let v = fold([
    ev('content', { delta: 'Hel' }, { agent: 'writer', step: 1 }),
    ev('content', { delta: 'lo' }, { agent: 'writer', step: 1 }),
    ev('file_created', { fileId: F, title: 'Chapter 1', fileType: 'draft', words: 0 }, { step: 1 }),
    ev('file_content', { fileId: F, delta: 'partial' }, { agent: 'writer', step: 2 }),
    ev('content', { delta: 'partial' }, { agent: 'writer', step: 2 }),
    ev('step_retry', { attempt: 2, message: '' }, { agent: 'writer', step: 2 }),
    ev('steering_received', { message: 'Shorter' }, { step: 3 }),
    ev('content', { delta: 'Verdict: revise\nTighten it.' }, { agent: 'quality_reviewer', step: 3 }),
    ev('usage', {
      promptTokens: 10,
      completionTokens: 5,
      totalTokens: 15,
      source: 'provider',
      model: 'm',
      costUsd: 0.001,
    }),
    ev('usage', { promptTokens: 1, completionTokens: 1, totalTokens: 2, source: 'provider', model: 'm' }),
    ev('suggestions', { items: ['Write chapter 2'], language: 'en' }),
    ev('done', { status: 'completed' }),
  ]);
  expect(v.items.filter((i) => i.kind === 'text').map((i) => (i as { text: string }).text)).toEqual([
    'Hello',
    'Verdict: revise\nTighten it.',
  ]);
  expect(files(v)[0]).toMatchObject({ live: 0, body: '', op: 'created' });
  expect(v.items.find((i) => i.kind === 'steer')).toEqual({ kind: 'steer', message: 'Shorter', step: 3 });
  expect(v).toMatchObject({
    verdict: 'revise',
    tokens: 17,
    costUsd: 0.001,
    suggestions: ['Write chapter 2'],
    status: 'done',
  });
  // An empty batch changes nothing; a batch gives a new array and leaves earlier items as they were.
  expect(foldTurn(v, [])).toBe(v);
  const before = v.items[0];
  v = foldTurn(v, [ev('content', { delta: '!' }, { agent: 'quality_reviewer', step: 3 })]);
  expect(v.items[0]).toBe(before);
});
