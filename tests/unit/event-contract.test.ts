/**
 * The stream contract, pinned. Front ends render these names; renaming or removing one
 * breaks them silently, so every name is listed here explicitly. Adding a type or a field
 * is safe and passes; renaming fails: the contract only ever grows.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import {
  type AnyEventDraft,
  draft,
  eventDataSchemas,
  EVENT_TYPES,
  makeEvent,
  refusalOf,
  streamEventSchema,
  TOOL_EVENT_TYPES,
  toSseFrame,
  toSseResetFrame,
} from '../../src/core/events';

/** type → the data field names clients rely on. */
const PINNED: Record<string, string[]> = {
  turn_started: ['sessionId'],
  agent_selected: ['agent', 'reason', 'plan', 'run'],
  thinking: ['delta'],
  content: ['delta'],
  tool_call: ['name', 'arguments', 'summary'],
  tool_result: ['name', 'ok', 'errorType', 'message', 'result', 'refusal'],
  file_created: ['fileId', 'title', 'fileType', 'versionId', 'words'],
  file_updated: ['fileId', 'title', 'fileType', 'versionId', 'words', 'operation'],
  file_content: ['fileId', 'delta'],
  handoff: ['from', 'to', 'kind', 'reason'],
  workflow_stopped: ['reason', 'message', 'terminal'],
  steering_received: ['message'],
  usage: ['promptTokens', 'completionTokens', 'totalTokens', 'source', 'model'],
  step_retry: ['attempt', 'message'],
  step_resumed: ['step', 'attempt', 'keptChars', 'message'],
  job_progress: [
    'chapter',
    'of',
    'from',
    'to',
    'chaptersDone',
    'status',
    'words',
    'usage',
    'turnId',
    'message',
    'kind',
    'turnKind',
    'round',
    'costUsd',
    'unpricedCalls',
  ],
  reset: ['reason', 'stateUrl', 'lastAvailableId'],
  error: ['code', 'message', 'retryable'],
  suggestions: ['items', 'language'],
  done: ['status'],
  // The session feed's own events.
  turn_finished: ['status', 'stopReason'],
  job_started: ['from', 'to'],
  job_finished: ['status'],
  job_summary: ['status', 'message'],
};
const ENVELOPE = [
  'type',
  'turnId',
  'jobId',
  'sessionId',
  'agent',
  'step',
  'attempt',
  'seq',
  'ts',
  'toolCallId',
  'data',
];
const STOP_REASONS = [
  'interrupted',
  'clarification_requested',
  'question_to_author',
  'max_agent_runs',
  'read_only_handoff_blocked',
  'invalid_handoff',
  'tool_failure_circuit_open',
  'paused',
  'cancelled',
];

const shapeKeys = (schema: z.ZodType): string[] => Object.keys((schema as unknown as z.ZodObject).shape);
const optionFor = (type: string) =>
  streamEventSchema.options.find((o) => (o.shape.type as unknown as z.ZodLiteral).value === type)!;

test('every pinned event type exists (more may be added)', () => {
  for (const type of Object.keys(PINNED)) expect(EVENT_TYPES).toContain(type);
  for (const type of Object.keys(PINNED)) expect(optionFor(type)).toBeDefined();
});

test.each(Object.entries(PINNED))('%s keeps its data field names', (type, fields) => {
  const actual = shapeKeys(eventDataSchemas[type as keyof typeof eventDataSchemas]);
  for (const f of fields) expect(actual).toContain(f);
});

test('every event carries the envelope fields', () => {
  for (const type of EVENT_TYPES) {
    const keys = shapeKeys(optionFor(type));
    for (const f of ENVELOPE) expect({ type, has: f, ok: keys.includes(f) }).toEqual({ type, has: f, ok: true });
  }
});

test('stop reasons and handoff kinds keep their values', () => {
  const reasons = (eventDataSchemas.workflow_stopped.shape.reason as unknown as z.ZodEnum).options;
  for (const r of STOP_REASONS) expect(reasons).toContain(r);
  const kinds = (eventDataSchemas.handoff.shape.kind as unknown as z.ZodEnum).options;
  for (const k of ['explicit', 'planned', 'review_gate', 'continuation']) expect(kinds).toContain(k);
  expect((eventDataSchemas.usage.shape.source as unknown as z.ZodEnum).options).toEqual(
    expect.arrayContaining(['provider', 'estimate']),
  );
});

test('tool cards tell the truth: intentional refusals carry their kind, real failures none', () => {
  expect(refusalOf('author_edit_protected')).toBe('kept_your_edits');
  expect(refusalOf('stale_content')).toBe('kept_your_edits');
  expect(refusalOf('clarify_first')).toBe('asking_first');
  expect(refusalOf('read_only_request')).toBe('read_only');
  for (const failure of [
    'not_found',
    'anchor_not_found',
    'tool_not_found',
    'notes_over_budget',
    undefined,
    'toString',
    '__proto__',
  ])
    expect(refusalOf(failure)).toBeUndefined();
  const card = draft(
    'tool_result',
    { name: 'delete_file', ok: false, errorType: 'author_edit_protected', refusal: 'kept_your_edits' },
    { turnId: 't', toolCallId: 'c' },
  );
  expect(makeEvent(card, 1, 'now').data).toMatchObject({ refusal: 'kept_your_edits' });
  expect(() => makeEvent({ ...card, data: { ...card.data, refusal: 'failed' } } as never, 1, 'now')).toThrow();
});

test('tool events require toolCallId (cards are keyed by it); other events may omit it', () => {
  expect([...TOOL_EVENT_TYPES].sort()).toEqual(['tool_call', 'tool_result']);
  const call: AnyEventDraft = draft(
    'tool_call',
    { name: 'create_file', arguments: { title: 'Ch 1' }, summary: 'create_file Ch 1' },
    { turnId: 't' },
  );
  expect(() => makeEvent(call, 1, new Date().toISOString())).toThrow();
  expect(() => makeEvent({ ...call, toolCallId: '' }, 1, new Date().toISOString())).toThrow();
  expect(makeEvent({ ...call, toolCallId: 'call_1' }, 1, new Date().toISOString())).toMatchObject({
    type: 'tool_call',
    toolCallId: 'call_1',
  });
  const result: AnyEventDraft = draft('tool_result', { name: 'create_file', ok: true }, { turnId: 't' });
  expect(() => makeEvent(result, 2, new Date().toISOString())).toThrow();
  expect(makeEvent(draft('content', { delta: 'x' }), 3, new Date().toISOString())).not.toHaveProperty('toolCallId');
});

test('a bad event is a bug: makeEvent refuses wrong data', () => {
  expect(() => makeEvent({ type: 'content', data: { text: 'x' } } as never, 1, 'now')).toThrow();
  expect(() => makeEvent({ type: 'nope', data: {} } as never, 1, 'now')).toThrow();
});

test('SSE frames: one id line, one event line, one single-line data line; reset frames carry no id', () => {
  const ev = makeEvent(
    draft('content', { delta: 'line one\nline two\r\n"quoted"' }, { turnId: 't', agent: 'writer' }),
    7,
    '2025-01-01T00:00:00.000Z',
  );
  const frame = toSseFrame('3-4', ev);
  expect(frame).toBe(`id: 3-4\nevent: content\ndata: ${JSON.stringify(ev)}\n\n`);
  expect(frame.split('\n').filter((l) => l.startsWith('data:'))).toHaveLength(1);
  expect(JSON.parse(frame.split('\n')[2]!.slice(6))).toEqual(ev);
  const reset = makeEvent(
    draft('reset', { reason: 'trimmed', stateUrl: '/api/v1/turns/t', lastAvailableId: null }, { turnId: 't' }),
    0,
    'now',
  );
  const r = toSseResetFrame(reset);
  expect(r.startsWith('event: reset\n')).toBe(true);
  expect(r).not.toMatch(/^id:/m);
});

test('no module outside the contract writes SSE frames by hand', () => {
  const root = path.resolve(__dirname, '../../src');
  const offenders: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        // The offline model speaks OpenAI's wire format, not ours.
        if (p !== path.join(root, 'offline-model')) walk(p);
      } else if (p.endsWith('.ts') && p !== path.join(root, 'core/events.ts')) {
        if (/[`'"]\s*(data|event|id):\s/.test(fs.readFileSync(p, 'utf8'))) offenders.push(path.relative(root, p));
      }
    }
  };
  walk(root);
  expect(offenders).toEqual([]);
});
