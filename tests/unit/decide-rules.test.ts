/**
 * decideAfterRun as it is today, rule by rule: each
 * test pins one rule and its boundary, so removing or loosening the rule fails here.
 */
import { decideAfterRun, type DecideState, type RunFacts } from '../../src/workflows/decide';
import { facts, routing, state } from '../helpers/rule-fixtures';

const decide = (f: Partial<RunFacts>, s: Partial<DecideState> = {}) => decideAfterRun(facts(f), state(s));

describe('explicit handoff', () => {
  test('runs the target, drops it from the remaining plan, carries reason and todo', () => {
    const d = decide(
      { handoff: { to: 'writer', reason: 'plan saved', todo: 'write chapter 1' } },
      { remaining: ['hook_designer', 'writer', 'quality_reviewer'] },
    );
    expect(d).toEqual({
      decision: {
        action: 'run',
        agent: 'writer',
        kind: 'explicit',
        remaining: ['hook_designer', 'quality_reviewer'],
        note: 'plan saved\nTodo: write chapter 1',
      },
      blockedHandoff: null,
      droppedHandoff: false,
    });
    expect(decide({ handoff: { to: 'writer', reason: 'go' } }).decision).toMatchObject({ note: 'go' });
  });
  test('read-only: blocked toward a writing agent with a card, and the turn goes on by the other rules', () => {
    const d = decide(
      {
        agent: 'quality_reviewer',
        handoff: { to: 'planner', reason: 'x' },
        endsWithQuestion: true,
        question: 'Fix it?',
      },
      { routing: routing({ read_only: true }), remaining: [] },
    );
    expect(d.blockedHandoff).toEqual({ to: 'planner', message: 'Handoff to planner blocked: this turn is read-only.' });
    expect(d.decision).toMatchObject({ action: 'stop', reason: 'question_to_author', message: 'Fix it?' });
    expect(d.droppedHandoff).toBe(false);
  });
  test('clarify-first: dropped, not blocked, and no handoff happens', () => {
    const d = decide(
      { agent: 'writer', handoff: { to: 'quality_reviewer', reason: 'x' } },
      { routing: routing({ clarify_first: true }), remaining: [] },
    );
    expect(d).toEqual({ decision: { action: 'complete' }, blockedHandoff: null, droppedHandoff: true });
  });
});

describe('clarification and closing questions', () => {
  test('request_clarification stops with the question and where to resume', () => {
    expect(
      decide({ agent: 'writer', clarification: { question: 'POV?' } }, { remaining: ['quality_reviewer'] }).decision,
    ).toEqual({
      action: 'stop',
      status: 'awaiting_author',
      reason: 'clarification_requested',
      message: 'POV?',
      resume: { agent: 'writer', remaining: ['quality_reviewer'] },
    });
  });
  test('a closing question stops with the question, or a plain message when it was not captured', () => {
    expect(
      decide({ agent: 'writer', endsWithQuestion: true, question: 'Darker?' }, { remaining: [] }).decision,
    ).toEqual({
      action: 'stop',
      status: 'awaiting_author',
      reason: 'question_to_author',
      message: 'Darker?',
      resume: { agent: 'writer', remaining: [] },
    });
    expect(decide({ agent: 'writer', endsWithQuestion: true }, { remaining: [] }).decision).toMatchObject({
      message: 'The agent asked the author a question.',
    });
  });
  test('the planner exception needs prose wanted and a writer still planned; it skips agents before the writer', () => {
    expect(
      decide(
        { agent: 'hook_designer', endsWithQuestion: true },
        { remaining: ['planner', 'writer', 'quality_reviewer'] },
      ).decision,
    ).toEqual({
      action: 'run',
      agent: 'writer',
      kind: 'writer_after_question',
      remaining: ['quality_reviewer'],
      note: 'The author already asked for the prose: go ahead with the recommended option and do not ask again.',
    });
    expect(
      decide({ agent: 'planner', endsWithQuestion: true }, { remaining: ['hook_designer'] }).decision,
    ).toMatchObject({ action: 'stop' });
    expect(
      decide({ agent: 'planner', endsWithQuestion: true }, { routing: routing({ write_content: false }) }).decision,
    ).toMatchObject({ action: 'stop' });
    expect(decide({ agent: 'writer', endsWithQuestion: true }, { remaining: ['writer'] }).decision).toMatchObject({
      action: 'stop',
    });
  });
  test('the review gate beats the closing question, but not on a read-only turn', () => {
    expect(
      decide(
        { agent: 'writer', endsWithQuestion: true, question: 'Q?' },
        { bodyWordsThisTurn: 500, remaining: ['quality_reviewer', 'planner'] },
      ).decision,
    ).toEqual({
      action: 'run',
      agent: 'quality_reviewer',
      kind: 'review_gate',
      remaining: ['planner'],
      note: 'review gate',
      writerQuestion: 'Q?',
    });
    expect(
      decide(
        { agent: 'writer', endsWithQuestion: true },
        { bodyWordsThisTurn: 900, routing: routing({ read_only: true }), remaining: [] },
      ).decision,
    ).toMatchObject({ action: 'stop' });
  });
});

describe('planner repair', () => {
  test('exactly at five units, only for the planner, only when a plan was asked for', () => {
    const five = [1, 2, 3, 4, 5];
    expect(decide({ planUnits: five }, { requestAsksForPlan: true }).decision).toEqual({
      action: 'run',
      agent: 'planner',
      kind: 'planner_repair',
      remaining: ['writer'],
      note: 'You posted 5 chapter entries in chat but no outline file holds them. Save them into the outline file now.',
    });
    expect(decide({ agent: 'hook_designer', planUnits: five }, { requestAsksForPlan: true }).decision).toMatchObject({
      kind: 'planned',
    });
    expect(decide({ planUnits: five }, { requestAsksForPlan: false }).decision).toMatchObject({ kind: 'planned' });
  });
  const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const asked = { requestAsksForPlan: true, wroteOutline: true };
  test('an outline saved this turn with part of the plan does not stop it: five or more entries in chat only do', () => {
    expect(decide({ planUnits: ten }, { ...asked, outlineUnits: [1, 2, 3] }).decision).toEqual({
      action: 'run',
      agent: 'planner',
      kind: 'planner_repair',
      remaining: ['writer'],
      note: 'You posted 10 chapter entries in chat, but the outline saved in this turn lacks 7 of them (chapters 4, 5, 6, 7, 8, 9, 10). Save them into the outline file now.',
    });
    expect(decide({ planUnits: ten }, { ...asked, outlineUnits: [1, 2, 3, 4, 5] }).decision).toMatchObject({
      kind: 'planner_repair',
    });
    // Four entries in chat only: below the bar.
    expect(decide({ planUnits: ten }, { ...asked, outlineUnits: [1, 2, 3, 4, 5, 6] }).decision).toMatchObject({
      kind: 'planned',
    });
    // Units of the outline that the chat never named do not count toward coverage.
    expect(
      decide({ planUnits: ten }, { ...asked, outlineUnits: [11, 12, 13, 14, 15, 16, 17, 18, 19, 20] }).decision,
    ).toMatchObject({ kind: 'planner_repair' });
  });
  test('an outline written whose units were not recorded (older steps) holds the whole plan', () => {
    expect(decide({ planUnits: ten }, { ...asked, outlineUnits: null }).decision).toMatchObject({ kind: 'planned' });
    expect(decide({ planUnits: ten }, { ...asked, outlineUnits: ten }).decision).toMatchObject({ kind: 'planned' });
  });
});

describe('continuation round', () => {
  test('needs a created file and a text ending on the block, and an agent that can write', () => {
    expect(
      decide({ agent: 'planner', createdFile: true, endsOnFileBlock: true }, { remaining: ['writer'] }).decision,
    ).toEqual({
      action: 'run',
      agent: 'planner',
      kind: 'continuation',
      remaining: ['writer'],
      note: 'continuation',
    });
    expect(decide({ agent: 'writer', createdFile: false, endsOnFileBlock: true }, { remaining: [] }).decision).toEqual({
      action: 'complete',
    });
    expect(decide({ agent: 'writer', createdFile: true, endsOnFileBlock: false }, { remaining: [] }).decision).toEqual({
      action: 'complete',
    });
  });
});

describe('review gate, next planned agent, completion', () => {
  test('the gate drops the reviewer from the remaining plan and passes no question', () => {
    expect(
      decide({ agent: 'writer' }, { bodyWordsThisTurn: 800, bodyWordsReviewed: 300, remaining: ['quality_reviewer'] })
        .decision,
    ).toEqual({
      action: 'run',
      agent: 'quality_reviewer',
      kind: 'review_gate',
      remaining: [],
      note: 'review gate',
      writerQuestion: null,
    });
    expect(
      decide({ agent: 'writer' }, { bodyWordsThisTurn: 799, bodyWordsReviewed: 300, remaining: [] }).decision,
    ).toEqual({ action: 'complete' });
    expect(
      decide({ agent: 'writer' }, { bodyWordsThisTurn: 900, routing: routing({ read_only: true }), remaining: [] })
        .decision,
    ).toEqual({ action: 'complete' });
  });
  test('next planned agent with the rest of the plan', () => {
    expect(decide({}, { remaining: ['hook_designer', 'writer'] }).decision).toEqual({
      action: 'run',
      agent: 'hook_designer',
      kind: 'planned',
      remaining: ['writer'],
      note: 'planned handoff',
    });
  });
});

describe('bounds', () => {
  test('below the cap another run starts; at the cap it becomes a resumable stop naming who is next', () => {
    expect(decide({}, { runsSoFar: 7, maxRuns: 8 }).decision).toMatchObject({ action: 'run', agent: 'writer' });
    expect(decide({}, { runsSoFar: 8, maxRuns: 8, remaining: ['writer', 'quality_reviewer'] }).decision).toEqual({
      action: 'stop',
      status: 'exhausted',
      reason: 'max_agent_runs',
      message: 'Stopped after 8 agent runs; say "continue" to pick up with writer.',
      resume: { agent: 'writer', remaining: ['quality_reviewer'] },
    });
    expect(decide({}, { runsSoFar: 9, maxRuns: 8, remaining: [] }).decision).toEqual({ action: 'complete' });
  });
  test('an open circuit stops first, whatever else happened', () => {
    const d = decide({
      circuitOpen: { reason: 'tool_failure_circuit_open', message: 'edit_file failed 3 times' },
      handoff: { to: 'writer', reason: 'x' },
    });
    expect(d.decision).toEqual({
      action: 'stop',
      status: 'failed',
      reason: 'tool_failure_circuit_open',
      message: 'edit_file failed 3 times',
      resume: null,
      errorCode: 'tool_failure_circuit_open',
    });
  });
});

describe('answers the provider ended early', () => {
  test('cut at the output limit: stops resumably, naming the unfinished file — before any correction round or continuation', () => {
    const d = decide(
      {
        agent: 'writer',
        cutShort: { reason: 'length', unfinished: { title: '第3章', words: 1200 } },
        createdFile: true,
        endsOnFileBlock: true,
        emptyFile: { fileId: 'f1', title: 'Other' },
      },
      { remaining: ['quality_reviewer'], emptyFileRepair: true, language: 'zh' },
    );
    expect(d.decision).toEqual({
      action: 'stop',
      status: 'exhausted',
      reason: 'output_truncated',
      message: '模型的回答在输出上限处被截断：《第3章》没有写完，已写的 1200 字已保存。说"继续"接着写。',
      resume: { agent: 'writer', remaining: ['quality_reviewer'] },
    });
  });
  test('a content filter fails the turn; an empty answer fails it too; a clean finish decides as before', () => {
    expect(
      decide({ agent: 'writer', cutShort: { reason: 'content_filter', unfinished: null } }).decision,
    ).toMatchObject({ status: 'failed', reason: 'content_filtered', errorCode: 'content_filtered' });
    expect(decide({ agent: 'writer', emptyAnswer: true }).decision).toMatchObject({
      status: 'failed',
      reason: 'empty_answer',
      message: 'The model returned an empty answer; nothing was written.',
    });
    expect(decide({ agent: 'writer', cutShort: null, emptyAnswer: false }, { remaining: [] }).decision).toEqual({
      action: 'complete',
    });
  });
});
