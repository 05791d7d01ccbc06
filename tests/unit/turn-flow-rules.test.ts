/**
 * Pure rules of the turn flow: the empty-file correction round, the signals carried over it
 * and the review-round cap, decided in src/workflows/decide.ts.
 */
import { decideAfterRun, type DecideState, type RunFacts } from '../../src/workflows/decide';
import { buildPacket } from '../../src/workflows/packets';
import { changedSpan, renderReviewContent } from '../../src/activities/step/review-evidence';
import type { RoutingDecision } from '../../src/core/plans';

const routing = (over: Partial<RoutingDecision> = {}): RoutingDecision => ({
  current_agent: 'writer',
  workflow_plan: 'quick',
  workflow_agents: [],
  write_content: true,
  read_only: false,
  scope: 'chapter 3',
  clarify_first: false,
  source: 'llm',
  notes: [],
  ...over,
});
const facts = (over: Partial<RunFacts> = {}): RunFacts => ({
  agent: 'writer',
  kind: 'initial',
  handoff: null,
  clarification: null,
  endsWithQuestion: false,
  question: null,
  createdFile: true,
  endsOnFileBlock: false,
  circuitOpen: null,
  planUnits: [],
  emptyFile: null,
  ...over,
});
const state = (over: Partial<DecideState> = {}): DecideState => ({
  routing: routing(),
  remaining: [],
  runsSoFar: 1,
  maxRuns: 8,
  bodyWordsThisTurn: 0,
  bodyWordsReviewed: 0,
  reviewThreshold: 300,
  plannerRepairDone: false,
  requestAsksForPlan: false,
  wroteOutline: false,
  emptyFileRepair: true,
  ...over,
});
const empty = { fileId: 'f'.repeat(24), title: 'Chapter 3' };

describe('empty-file correction round', () => {
  test('the agent that created the empty file gets the correction round, whoever it is', () => {
    const d = decideAfterRun(facts({ agent: 'hook_designer', emptyFile: empty }), state({ remaining: ['writer'] }));
    expect(d.decision).toMatchObject({
      action: 'run',
      agent: 'hook_designer',
      kind: 'empty_file_repair',
      remaining: ['writer'],
    });
    expect((d.decision as { note: string }).note).toContain(
      `"Chapter 3" (id=${empty.fileId}) was created but is still empty`,
    );
  });
  test('read-only turns get no correction round (the empty file is rolled back at finalize)', () => {
    const d = decideAfterRun(facts({ emptyFile: empty }), state({ routing: routing({ read_only: true }) }));
    expect(d.decision).toEqual({ action: 'complete' });
  });
  test('the correction round comes before an explicit handoff, which is carried over and applies after it', () => {
    const handoff = { to: 'quality_reviewer' as const, reason: 'check it' };
    const d = decideAfterRun(facts({ emptyFile: empty, handoff }), state());
    expect(d.decision).toMatchObject({ action: 'run', kind: 'empty_file_repair', repair: { carried: { handoff } } });
    const carried = (d.decision as { repair: { carried: DecideState['carried'] } }).repair.carried;
    const after = decideAfterRun(
      facts({ kind: 'empty_file_repair', createdFile: false }),
      state({ carried, repairedFileIds: [empty.fileId] }),
    );
    expect(after.decision).toMatchObject({ action: 'run', agent: 'quality_reviewer', kind: 'explicit' });
  });
  test('a clarification request waits until the repair is done, then stops the turn', () => {
    const d = decideAfterRun(facts({ emptyFile: empty, clarification: { question: 'Which POV?' } }), state());
    const carried = (d.decision as { repair: { carried: DecideState['carried'] } }).repair.carried;
    const after = decideAfterRun(
      facts({ kind: 'empty_file_repair', createdFile: false }),
      state({ carried, repairedFileIds: [empty.fileId] }),
    );
    expect(after.decision).toMatchObject({
      action: 'stop',
      status: 'awaiting_author',
      reason: 'clarification_requested',
      message: 'Which POV?',
    });
  });
  test('the correction round’s own question wins over the carried one', () => {
    const carried = { handoff: null, clarification: null, endsWithQuestion: true, question: 'Old question?' };
    const after = decideAfterRun(
      facts({ kind: 'empty_file_repair', endsWithQuestion: true, question: 'New question?' }),
      state({ carried, repairedFileIds: [empty.fileId] }),
    );
    expect(after.decision).toMatchObject({ action: 'stop', message: 'New question?' });
  });
  test('one correction round per file: still empty after it, the turn stops as failed with empty_file_unwritten', () => {
    const d = decideAfterRun(
      facts({ kind: 'empty_file_repair', emptyFile: empty }),
      state({ repairedFileIds: [empty.fileId], language: 'en' }),
    );
    expect(d.decision).toMatchObject({
      action: 'stop',
      status: 'failed',
      reason: 'empty_file_unwritten',
      errorCode: 'empty_file_unwritten',
    });
    expect((d.decision as { message: string }).message).toMatch(/"Chapter 3" was not written/);
  });
  test('without the patch flag the old flow is kept (replay of older turns)', () => {
    const d = decideAfterRun(facts({ emptyFile: empty }), state({ emptyFileRepair: false }));
    expect(d.decision).toEqual({ action: 'complete' });
  });
  test('the correction packet names the file and carries no handoff rules', () => {
    const p = buildPacket({
      from: 'writer',
      to: 'writer',
      kind: 'empty_file_repair',
      scope: 'chapter 3',
      note: 'Write it.',
      delivered: [],
    });
    expect(p.split('\n')[0]).toBe('[empty file correction]');
    expect(p).toContain('Write it.');
    expect(p).not.toContain('[handoff packet]');
  });
});

describe('review-round cap', () => {
  test('at the cap the review gate does not fire again', () => {
    const due = state({ bodyWordsThisTurn: 900, bodyWordsReviewed: 400 });
    expect(
      decideAfterRun(facts({ createdFile: false }), { ...due, reviewRounds: 1, maxReviewRounds: 2 }).decision,
    ).toMatchObject({ kind: 'review_gate' });
    expect(
      decideAfterRun(facts({ createdFile: false }), { ...due, reviewRounds: 2, maxReviewRounds: 2 }).decision,
    ).toEqual({ action: 'complete' });
  });
  test('at the cap an explicit handoff back to the reviewer is dropped, not run', () => {
    const d = decideAfterRun(
      facts({ createdFile: false, handoff: { to: 'quality_reviewer', reason: 'again' } }),
      state({ reviewRounds: 2, maxReviewRounds: 2 }),
    );
    expect(d.droppedHandoff).toBe(true);
    expect(d.decision).toEqual({ action: 'complete' });
  });
});

describe('review content (pure rendering)', () => {
  test('the changed span is the changed paragraphs of the saved text, nothing before them', () => {
    const before = 'Para one.\nPara two.\nPara three.';
    const now = 'Para one.\nPara two, rewritten.\nPara three.';
    const { start, end } = changedSpan(before, now);
    expect(now.slice(start, end)).toBe('Para two, rewritten.');
    const appended = changedSpan('A\nB', 'A\nB\nC NEW');
    expect('A\nB\nC NEW'.slice(appended.start, appended.end)).toBe('B\nC NEW');
  });
  test('files that fit go whole with their word count; a long file that had text goes as its changed segment only', () => {
    const long = `${'old '.repeat(500)}\nNEW PART here`;
    const text = renderReviewContent(
      [
        { fileId: 'a'.repeat(24), title: '第1章', type: 'draft', content: '雨下了一整夜。', before: '' },
        { fileId: 'b'.repeat(24), title: 'Prologue', type: 'draft', content: long, before: 'old '.repeat(500) },
      ],
      200,
    );
    expect(text).toContain('### 第1章 (id=aaaaaaaaaaaaaaaaaaaaaaaa, draft) — 6 words as saved\n雨下了一整夜。');
    expect(text).toContain(
      '### Prologue (id=bbbbbbbbbbbbbbbbbbbbbbbb, draft) — 503 words as saved; the file had text before this turn',
    );
    expect(text).toContain('NEW PART here');
    expect(text).not.toContain('old old old old');
  });
  test('no body written: says so', () => {
    expect(renderReviewContent([], 100)).toMatch(/No draft or script text/);
  });
});
