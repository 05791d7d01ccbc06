import { endsWithQuestion, FileStreamProcessor, planUnits, type StreamPiece } from '../../src/core/model/file-stream';
import { decideAfterRun } from '../../src/workflows/decide';
import { facts, routing, state } from '../helpers/rule-fixtures';
import { buildPacket, FIXED_HANDOFF_RULES } from '../../src/workflows/packets';
import { FailureBreaker } from '../../src/workflows/failure-breaker';

describe('decideAfterRun, in order', () => {
  test('explicit handoff wins over everything after it', () => {
    const d = decideAfterRun(
      facts({ handoff: { to: 'hook_designer', reason: 'hooks first' }, endsWithQuestion: true }),
      state(),
    );
    expect(d.decision).toMatchObject({
      action: 'run',
      agent: 'hook_designer',
      kind: 'explicit',
      remaining: ['writer'],
    });
  });
  test('on a read-only turn a handoff to a writing agent is blocked with a card; to the reviewer it is allowed', () => {
    const ro = state({ routing: routing({ read_only: true }), remaining: [] });
    const blocked = decideAfterRun(
      facts({ agent: 'quality_reviewer', handoff: { to: 'writer', reason: 'fix it' } }),
      ro,
    );
    expect(blocked.blockedHandoff?.to).toBe('writer');
    expect(blocked.decision).toEqual({ action: 'complete' });
    const allowed = decideAfterRun(
      facts({ agent: 'planner', handoff: { to: 'quality_reviewer', reason: 'check' } }),
      ro,
    );
    expect(allowed.decision).toMatchObject({ action: 'run', agent: 'quality_reviewer' });
  });
  test('clarify_first drops explicit handoffs', () => {
    const d = decideAfterRun(
      facts({ agent: 'writer', handoff: { to: 'planner', reason: 'x' } }),
      state({ routing: routing({ clarify_first: true }), remaining: [] }),
    );
    expect(d.droppedHandoff).toBe(true);
    expect(d.decision).toEqual({ action: 'complete' });
  });
  test('request_clarification stops the turn waiting for the author, resumable', () => {
    const d = decideAfterRun(facts({ clarification: { question: 'Which POV?' } }), state());
    expect(d.decision).toMatchObject({
      action: 'stop',
      status: 'awaiting_author',
      reason: 'clarification_requested',
      resume: { agent: 'planner', remaining: ['writer'] },
    });
  });
  test('a closing question stops planned handoffs…', () => {
    const d = decideAfterRun(
      facts({ agent: 'planner', endsWithQuestion: true, question: 'Which ending?' }),
      state({ routing: routing({ write_content: false }) }),
    );
    expect(d.decision).toMatchObject({ action: 'stop', reason: 'question_to_author' });
  });
  test('…except a planner asking while prose is wanted and the writer is planned: the writer proceeds', () => {
    const d = decideAfterRun(facts({ agent: 'planner', endsWithQuestion: true, question: 'A or B?' }), state());
    expect(d.decision).toMatchObject({ action: 'run', agent: 'writer', kind: 'writer_after_question' });
    expect((d.decision as { note: string }).note).toMatch(/do not ask again/);
  });
  test('the review gate ignores the writer’s closing question and passes it on', () => {
    const d = decideAfterRun(
      facts({ agent: 'writer', endsWithQuestion: true, question: 'Shall I write chapter 2?' }),
      state({ bodyWordsThisTurn: 900, remaining: [] }),
    );
    expect(d.decision).toMatchObject({
      action: 'run',
      agent: 'quality_reviewer',
      kind: 'review_gate',
      writerQuestion: 'Shall I write chapter 2?',
    });
  });
  test('planner repair: plan units pasted only in chat, once per turn', () => {
    const f = facts({ agent: 'planner', planUnits: [1, 2, 3, 4, 5, 6] });
    expect(decideAfterRun(f, state({ requestAsksForPlan: true })).decision).toMatchObject({
      action: 'run',
      agent: 'planner',
      kind: 'planner_repair',
    });
    expect(decideAfterRun(f, state({ requestAsksForPlan: true, plannerRepairDone: true })).decision).toMatchObject({
      agent: 'writer',
      kind: 'planned',
    });
    expect(decideAfterRun(f, state({ requestAsksForPlan: true, wroteOutline: true })).decision).toMatchObject({
      agent: 'writer',
    });
    expect(
      decideAfterRun(facts({ agent: 'planner', planUnits: [1, 2, 3, 4] }), state({ requestAsksForPlan: true }))
        .decision,
    ).toMatchObject({ agent: 'writer' });
  });
  test('continuation round comes before the review gate and the planned handoff', () => {
    const d = decideAfterRun(
      facts({ agent: 'writer', createdFile: true, endsOnFileBlock: true }),
      state({ bodyWordsThisTurn: 2000, remaining: ['quality_reviewer'] }),
    );
    expect(d.decision).toMatchObject({ action: 'run', agent: 'writer', kind: 'continuation' });
    // The reviewer cannot write, so it never gets a continuation round.
    expect(
      decideAfterRun(
        facts({ agent: 'quality_reviewer', createdFile: true, endsOnFileBlock: true }),
        state({ remaining: [] }),
      ).decision,
    ).toEqual({ action: 'complete' });
  });
  test('review gate: only the writer, only at the threshold, only for new words', () => {
    expect(
      decideAfterRun(facts({ agent: 'writer' }), state({ bodyWordsThisTurn: 499, remaining: [] })).decision,
    ).toEqual({ action: 'complete' });
    expect(
      decideAfterRun(facts({ agent: 'writer' }), state({ bodyWordsThisTurn: 500, remaining: [] })).decision,
    ).toMatchObject({ agent: 'quality_reviewer' });
    expect(
      decideAfterRun(
        facts({ agent: 'writer' }),
        state({ bodyWordsThisTurn: 900, bodyWordsReviewed: 600, remaining: [] }),
      ).decision,
    ).toEqual({ action: 'complete' });
    expect(
      decideAfterRun(facts({ agent: 'planner' }), state({ bodyWordsThisTurn: 900, remaining: [] })).decision,
    ).toEqual({ action: 'complete' });
  });
  test('MAX_AGENT_RUNS exhaustion is a resumable stop', () => {
    const d = decideAfterRun(facts(), state({ runsSoFar: 8 }));
    expect(d.decision).toMatchObject({
      action: 'stop',
      status: 'exhausted',
      reason: 'max_agent_runs',
      resume: { agent: 'writer', remaining: [] },
    });
  });
  test('an open circuit ends the turn with its reason as the error code', () => {
    const d = decideAfterRun(
      facts({ circuitOpen: { reason: 'repeated_unavailable_tool_call', message: 'x' } }),
      state(),
    );
    expect(d.decision).toMatchObject({ action: 'stop', status: 'failed', errorCode: 'repeated_unavailable_tool_call' });
  });
});

describe('failure breaker', () => {
  test('three identical consecutive failures trip it; a success resets', () => {
    const b = new FailureBreaker();
    const nf = { name: 'edit_file', ok: false, errorType: 'tool_not_found' };
    expect(b.record(nf)).toBeNull();
    expect(b.record(nf)).toBeNull();
    expect(b.record({ name: 'query_files', ok: true })).toBeNull();
    expect(b.record(nf)).toBeNull();
    expect(b.record(nf)).toBeNull();
    expect(b.record(nf)?.reason).toBe('repeated_unavailable_tool_call');
    // A listed tool outside the agent's role is as unavailable as an unknown one.
    const permitted = new FailureBreaker();
    const np = { name: 'edit_file', ok: false, errorType: 'tool_not_permitted' };
    permitted.record(np);
    permitted.record(np);
    expect(permitted.record(np)?.reason).toBe('repeated_unavailable_tool_call');
    const other = new FailureBreaker();
    ['anchor_not_found', 'anchor_not_found', 'anchor_not_found'].forEach((e, i) => {
      const r = other.record({ name: 'edit_file', ok: false, errorType: e });
      if (i === 2) expect(r?.reason).toBe('tool_failure_circuit_open');
    });
  });
});

describe('handoff packet', () => {
  test('carries the fixed rules, the scope and the todo; review packets carry evidence and the writer’s question', () => {
    const p = buildPacket({
      from: 'writer',
      to: 'quality_reviewer',
      kind: 'review_gate',
      scope: 'chapter 3, 2000 words',
      note: 'review chapter 3',
      delivered: [{ fileId: 'f1', title: 'Chapter 3', type: 'draft' }],
      review: { bodyWords: 1834, lengthRequirements: ['about 2000 words'], writerQuestion: 'Shall I continue?' },
    });
    for (const rule of FIXED_HANDOFF_RULES) expect(p).toContain(rule);
    expect(p).toContain('chapter 3, 2000 words');
    expect(p).toContain('Body words written in this turn: 1834');
    expect(p).toContain('about 2000 words');
    expect(p).toContain('[writer question for the author] Shall I continue?');
    expect(
      buildPacket({ from: 'writer', to: 'writer', kind: 'continuation', scope: 's', note: '', delivered: [] }),
    ).toMatch(/^\[file-stream continuation\]/);
  });
});

const collect = (p: FileStreamProcessor, deltas: string[]): StreamPiece[] => [
  ...deltas.flatMap((d) => p.push(d)),
  ...p.end(),
];
const textOf = (pieces: StreamPiece[], kind: 'chat' | 'file'): string =>
  pieces
    .filter((x) => x.kind === kind)
    .map((x) => (x as { text: string }).text)
    .join('');

describe('file stream processor', () => {
  test('splits chat and file body across arbitrary delta boundaries', () => {
    const text = 'Here it is.\n<file>\nLine one.\nLine two.\n</file>\n';
    for (const size of [1, 2, 3, 5, 7, 100]) {
      const deltas = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      const p = new FileStreamProcessor(true);
      const out = collect(p, deltas);
      expect(textOf(out, 'chat')).toBe('Here it is.\n');
      expect(textOf(out, 'file')).toBe('Line one.\nLine two.\n');
      expect(p.endsOnFileBlock).toBe(true);
      expect(p.closed).toBe(true);
    }
  });
  test('text after the block means it did not end on the block', () => {
    const p = new FileStreamProcessor(true);
    collect(p, ['<file>\nBody\n</file>\nDone: chapter saved.']);
    expect(p.endsOnFileBlock).toBe(false);
  });
  test('lone markers outside a capture are dropped; inline mentions and fenced ones are kept', () => {
    const p = new FileStreamProcessor(false);
    const out = collect(p, ['Start\n<file>\nmiddle\n</file>\nuse the `<file>` tag\n```\n</file>\n```\n']);
    const chat = textOf(out, 'chat');
    expect(chat).toBe('Start\nmiddle\nuse the `<file>` tag\n```\n</file>\n```\n');
    expect(textOf(out, 'file')).toBe('');
  });
  test('question detection and plan units', () => {
    expect(endsWithQuestion('Shall I continue?')).toBe(true);
    expect(endsWithQuestion('要我继续写第二章吗？')).toBe(true);
    expect(endsWithQuestion('“Why?” she asked. Then she left.')).toBe(false);
    expect(planUnits('Chapter 1: x\nChapter 2: y\n第3章：z\nEpisode 4')).toEqual([1, 2, 3, 4]);
  });
});
