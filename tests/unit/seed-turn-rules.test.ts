/**
 * Three rules of a turn's state: which chapter units the outlines written this turn hold (for
 * the outline coverage repair), when the writer's chat is held, and a routing decision that
 * nothing can change once the turn has taken it.
 */
import {
  type Decision,
  decideAfterRun,
  freshRunFacts,
  REVIEW_GATE_OFF,
  reviewGateOff,
} from '../../src/workflows/decide';
import { heldTextMove, settleHeldText } from '../../src/workflows/held-text';
import type { TurnActivities } from '../../src/workflows/activities-proxy';
import type { WorkAgent } from '../../src/core/plans';
import { type ChatHoldFacts, holdsWriterChat } from '../../src/workflows/chat-hold';
import { freezeRouting, TurnRunState } from '../../src/workflows/turn-state';
import type { PreparedTurn, RunKind, ToolOutcome, TurnInput } from '../../src/core/turn/turn-types';
import type { RoutingDecision } from '../../src/core/plans';
import type { UsageData } from '../../src/core/events';
import { routing } from '../helpers/rule-fixtures';

const input = (over: Partial<TurnInput['settings']> = {}): TurnInput => ({
  turnId: 't1',
  sessionId: 's1',
  projectId: 'p1',
  ownerId: 'local',
  message: 'Outline a ten-chapter novel',
  settings: {
    maxAgentRuns: 8,
    maxAgentSteps: 12,
    reviewWordThreshold: 800,
    llmStartToCloseSeconds: 600,
    llmHeartbeatTimeoutSeconds: 30,
    storeHeartbeatTimeoutSeconds: 10,
    ...over,
  },
});

const prepared = { language: 'en', lengthRequirements: [] } as unknown as PreparedTurn;

/** A turn routed to `r`, with its first run (the router's first agent) started. */
function startedTurn(r: RoutingDecision, over: Partial<TurnInput['settings']> = {}): TurnRunState {
  const st = new TurnRunState(input(over));
  st.apply({ type: 'routed', routing: r });
  st.apply({
    type: 'runStarted',
    next: { agent: r.current_agent, kind: 'initial', note: '', remaining: [...r.workflow_agents] },
    from: null,
  });
  return st;
}

const outlineWrite = (over: Partial<ToolOutcome>): ToolOutcome => ({
  name: 'edit_file',
  ok: true,
  fileId: 'o'.repeat(24),
  fileType: 'outline',
  title: 'Outline',
  op: 'edited',
  ...over,
});

describe('outline coverage: the units the outlines written this turn hold', () => {
  const plannerFacts = { ...freshRunFacts('planner', 'initial'), planUnits: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] };

  test('each outline write adds the units of its saved text; the decision reads them', () => {
    const st = startedTurn(routing());
    expect(st.decideState('initial', plannerFacts, prepared)).toMatchObject({ wroteOutline: false, outlineUnits: [] });
    st.apply({ type: 'toolFinished', agent: 'planner', outcome: outlineWrite({ outlineUnits: [1, 2, 3] }) });
    st.apply({
      type: 'bodySaved',
      agent: 'planner',
      saved: outlineWrite({ name: 'file_stream', outlineUnits: [3, 4] }),
      capture: { fileId: 'o'.repeat(24), closed: true, chars: 40 },
    });
    expect(st.decideState('initial', plannerFacts, prepared)).toMatchObject({
      wroteOutline: true,
      outlineUnits: [1, 2, 3, 4],
    });
  });

  test('an outline write that did not report its units (an older step) counts as holding everything', () => {
    const st = startedTurn(routing());
    st.apply({ type: 'toolFinished', agent: 'planner', outcome: outlineWrite({ outlineUnits: [1, 2] }) });
    st.apply({ type: 'toolFinished', agent: 'planner', outcome: outlineWrite({}) });
    st.apply({ type: 'toolFinished', agent: 'planner', outcome: outlineWrite({ outlineUnits: [5] }) });
    expect(st.decideState('initial', plannerFacts, prepared)).toMatchObject({ wroteOutline: true, outlineUnits: null });
  });

  test('an outline created empty, or a write that failed, holds nothing yet', () => {
    const st = startedTurn(routing());
    st.apply({
      type: 'toolFinished',
      agent: 'planner',
      outcome: outlineWrite({ name: 'create_file', op: 'created', pendingBody: true }),
    });
    st.apply({
      type: 'toolFinished',
      agent: 'planner',
      outcome: outlineWrite({ ok: false, errorType: 'anchor_not_found', outlineUnits: [1, 2, 3, 4, 5] }),
    });
    expect(st.decideState('initial', plannerFacts, prepared)).toMatchObject({ wroteOutline: false, outlineUnits: [] });
  });
});

describe("the writer's chat hold", () => {
  /** A writer whose unreviewed words reach the threshold: held. */
  const held: ChatHoldFacts = {
    agent: 'writer',
    afterReview: false,
    remaining: [],
    bodyPending: false,
    runHeld: false,
    bodyWordsThisTurn: 800,
    bodyWordsReviewed: 0,
    reviewThreshold: 800,
    reviewRounds: 0,
    maxReviewRounds: 2,
  };
  const hold = (over: Partial<ChatHoldFacts>) => holdsWriterChat({ ...held, ...over });

  test('held once the unreviewed body words reach the threshold, not from the first body word', () => {
    expect(hold({})).toBe(true);
    expect(hold({ bodyWordsThisTurn: 799 })).toBe(false);
    expect(hold({ bodyWordsThisTurn: 1 })).toBe(false);
    // Words a review already read do not count again.
    expect(hold({ bodyWordsThisTurn: 1200, bodyWordsReviewed: 500 })).toBe(false);
  });

  test('a review planned for the turn, a body about to stream, or an earlier held step of the run hold it too', () => {
    const few = { bodyWordsThisTurn: 10 };
    expect(hold({ ...few, remaining: ['quality_reviewer'] })).toBe(true);
    expect(hold({ ...few, bodyPending: true })).toBe(true);
    expect(hold({ ...few, runHeld: true })).toBe(true);
  });

  test('not with the review gate off (a job told not to review), unless a review is planned or the run was held', () => {
    expect(hold({ reviewThreshold: REVIEW_GATE_OFF, bodyWordsThisTurn: 5000 })).toBe(false);
    expect(hold({ reviewThreshold: REVIEW_GATE_OFF, bodyPending: true })).toBe(false);
    expect(hold({ reviewThreshold: REVIEW_GATE_OFF, remaining: ['quality_reviewer'] })).toBe(true);
    expect(hold({ reviewThreshold: REVIEW_GATE_OFF, runHeld: true })).toBe(true);
    expect(reviewGateOff({ reviewThreshold: REVIEW_GATE_OFF - 1 })).toBe(false);
  });

  test('never for a revision after the reviewer: its text is the summary', () => {
    expect(hold({ afterReview: true })).toBe(false);
    expect(hold({ afterReview: true, bodyPending: true, remaining: ['quality_reviewer'] })).toBe(false);
  });

  test('never at the review cap: no review can follow', () => {
    expect(hold({ reviewRounds: 2 })).toBe(false);
    expect(hold({ reviewRounds: 2, bodyPending: true })).toBe(false);
    expect(hold({ reviewRounds: 1 })).toBe(true);
  });

  test('only the writer', () => {
    expect(hold({ agent: 'planner' })).toBe(false);
    expect(hold({ agent: 'quality_reviewer' })).toBe(false);
  });

  test("the turn's state gives the facts: revision, cap (REVIEW_MAX_ROUNDS, default 2) and the open body file", () => {
    const writerFirst = routing({ current_agent: 'writer', workflow_plan: 'standard', workflow_agents: [] });
    const st = startedTurn(writerFirst, { reviewWordThreshold: 300 });
    expect(st.chatHoldFacts('writer', st.run)).toMatchObject({
      afterReview: false,
      bodyPending: false,
      reviewThreshold: 300,
      maxReviewRounds: 2,
    });
    st.apply({
      type: 'toolFinished',
      agent: 'writer',
      outcome: {
        name: 'create_file',
        ok: true,
        fileId: 'd'.repeat(24),
        fileType: 'draft',
        title: 'Ch 1',
        op: 'created',
        pendingBody: true,
      },
    });
    expect(st.chatHoldFacts('writer', st.run).bodyPending).toBe(true);
    expect(holdsWriterChat(st.chatHoldFacts('writer', st.run))).toBe(true);
    // The reviewer runs and hands back: the writer's run after it is a revision.
    st.apply({ type: 'decided', kind: 'initial', decision: { action: 'complete' }, blockedHandoff: null });
    st.apply({
      type: 'runStarted',
      next: { agent: 'quality_reviewer', kind: 'review_gate', note: 'review gate', remaining: [] },
      from: 'writer',
    });
    st.apply({ type: 'decided', kind: 'review_gate', decision: { action: 'complete' }, blockedHandoff: null });
    st.apply({
      type: 'runStarted',
      next: { agent: 'writer', kind: 'explicit', note: 'revise', remaining: [] },
      from: 'quality_reviewer',
    });
    expect(st.chatHoldFacts('writer', st.run)).toMatchObject({ afterReview: true, reviewRounds: 1 });
    expect(startedTurn(writerFirst, { maxReviewRounds: 5 }).chatHoldFacts('writer', 1).maxReviewRounds).toBe(5);
  });
});

describe('a routing decision is frozen once the turn takes it', () => {
  test('every write to the routing the turn keeps throws, its arrays included; the given object stays writable', () => {
    const given = routing({ notes: ['why'] });
    const st = startedTurn(given);
    const kept = st.routing!;
    expect(kept).toEqual(given);
    expect(Object.isFrozen(kept)).toBe(true);
    // Test files are ES modules: strict mode, where a write to a frozen object throws.
    expect(() => {
      (kept as { read_only: boolean }).read_only = true;
    }).toThrow(TypeError);
    expect(() => (kept.workflow_agents as string[]).push('quality_reviewer')).toThrow(TypeError);
    expect(() => {
      (kept.notes as string[])[0] = 'changed';
    }).toThrow(TypeError);
    expect(kept).toEqual(given);
    (given.notes as string[]).push('the caller may still build on its own copy');
    expect(kept.notes).toEqual(['why']);
    expect(Object.isFrozen(freezeRouting(given).workflow_agents)).toBe(true);
  });

  test('the type refuses writes at compile time', () => {
    const r: RoutingDecision = routing();
    const typeChecks = () => {
      // @ts-expect-error the routing decision is read-only
      r.read_only = true;
      // @ts-expect-error the routing decision is read-only
      r.workflow_plan = 'full';
      // @ts-expect-error its agent list is read-only
      r.workflow_agents.push('writer');
      // @ts-expect-error its notes are read-only
      r.notes[0] = 'x';
    };
    expect(typeof typeChecks).toBe('function');
  });
});

describe('held writer text: what the next move makes of it', () => {
  const tinyUsage: UsageData = { promptTokens: 1, completionTokens: 1, totalTokens: 2, source: 'estimate', model: 'm' };
  const run = (agent: WorkAgent, kind: RunKind): Decision => ({ action: 'run', agent, kind, remaining: [], note: '' });

  test('kept for the writer going on, dropped for the reviewer, released before another agent speaks, at the end otherwise', () => {
    expect(heldTextMove(run('writer', 'continuation'))).toBe('keep');
    expect(heldTextMove(run('writer', 'empty_file_repair'))).toBe('keep');
    expect(heldTextMove(run('quality_reviewer', 'review_gate'))).toBe('drop');
    expect(heldTextMove(run('quality_reviewer', 'explicit'))).toBe('drop');
    expect(heldTextMove(run('planner', 'explicit'))).toBe('release');
    expect(heldTextMove(run('hook_designer', 'planned'))).toBe('release');
    expect(heldTextMove(run('writer', 'explicit'))).toBe('release');
    expect(heldTextMove({ action: 'complete' })).toBe('atTurnEnd');
    const stop: Decision = {
      action: 'stop',
      status: 'awaiting_author',
      reason: 'question_to_author',
      message: '?',
      resume: null,
    };
    expect(heldTextMove(stop)).toBe('atTurnEnd');
  });

  test('released before another agent: one releaseHeldText call publishes the held runs, listed as held until it has run', async () => {
    const writerFirst = routing({ current_agent: 'writer', workflow_plan: 'standard', workflow_agents: ['planner'] });
    const st = startedTurn(writerFirst, { reviewWordThreshold: 300 });
    st.apply({ type: 'stepStarted', holdChat: true });
    st.apply({ type: 'modelAnswered', text: 'held', usage: tinyUsage });
    expect(st.heldRuns).toEqual([1]);
    const calls: unknown[] = [];
    const acts = {
      short: {
        releaseHeldText: async (args: unknown) => {
          // The text is still listed as held while the activity runs: a turn that fails meanwhile publishes it at finalize.
          calls.push({ args, heldWhileReleasing: [...st.heldRuns] });
        },
      },
    } as unknown as TurnActivities;
    await settleHeldText(st, acts, run('planner', 'explicit'));
    expect(calls).toEqual([{ args: { turnId: 't1', runs: [1], slot: 1, agent: 'writer' }, heldWhileReleasing: [1] }]);
    expect(st.heldRuns).toEqual([]);
    expect(st.releaseAtFinalize).toEqual([]);
    expect(st.shownText).toBe(true);
    expect(st.heldText).toBe(false);
  });

  test('kept, dropped or left to finalize: no release activity runs', async () => {
    const acts = {
      short: {
        releaseHeldText: async () => {
          throw new Error('no release expected');
        },
      },
    } as unknown as TurnActivities;
    const heldTurn = () => {
      const st = startedTurn(routing({ current_agent: 'writer', workflow_agents: [] }), { reviewWordThreshold: 300 });
      st.apply({ type: 'stepStarted', holdChat: true });
      st.apply({ type: 'modelAnswered', text: 'held', usage: tinyUsage });
      return st;
    };
    const kept = heldTurn();
    await settleHeldText(kept, acts, run('writer', 'continuation'));
    expect(kept.heldRuns).toEqual([1]);
    const dropped = heldTurn();
    await settleHeldText(dropped, acts, run('quality_reviewer', 'review_gate'));
    expect(dropped).toMatchObject({ heldRuns: [], releaseAtFinalize: [], shownText: false });
    const ended = heldTurn();
    await settleHeldText(ended, acts, { action: 'complete' });
    expect(ended).toMatchObject({ heldRuns: [], releaseAtFinalize: [1], shownText: true });
  });
});

describe('the review gate counts successful writes only', () => {
  const writerOnly = routing({ current_agent: 'writer', workflow_plan: 'quick', workflow_agents: [] });
  const draftWrite = (over: Partial<ToolOutcome>): ToolOutcome => ({
    name: 'edit_file',
    ok: true,
    fileId: 'd'.repeat(24),
    fileType: 'draft',
    title: 'Chapter 1',
    op: 'edited',
    bodyWords: 900,
    ...over,
  });
  const writerFacts = freshRunFacts('writer', 'initial');

  test('a writer whose writes all fail has no body words this turn, and no review follows', () => {
    const st = startedTurn(writerOnly, { reviewWordThreshold: 300 });
    st.apply({
      type: 'toolFinished',
      agent: 'writer',
      outcome: draftWrite({ ok: false, errorType: 'anchor_not_found', message: 'anchor not found' }),
    });
    st.apply({
      type: 'toolFinished',
      agent: 'writer',
      outcome: draftWrite({ name: 'create_file', op: 'created', ok: false, errorType: 'invalid_input' }),
    });
    st.apply({
      type: 'bodySaved',
      agent: 'writer',
      saved: draftWrite({ name: 'file_stream', ok: false, errorType: 'stale_content' }),
      capture: { fileId: 'd'.repeat(24), closed: true, chars: 4000 },
    });
    const s = st.decideState('initial', writerFacts, prepared);
    expect(s.bodyWordsThisTurn).toBe(0);
    expect(st.delivered).toEqual([]);
    expect(decideAfterRun(writerFacts, s).decision).toEqual({ action: 'complete' });
  });

  test('the same write succeeding counts its words and starts the review', () => {
    const st = startedTurn(writerOnly, { reviewWordThreshold: 300 });
    st.apply({ type: 'toolFinished', agent: 'writer', outcome: draftWrite({}) });
    const s = st.decideState('initial', writerFacts, prepared);
    expect(s.bodyWordsThisTurn).toBe(900);
    expect(decideAfterRun(writerFacts, s).decision).toMatchObject({
      action: 'run',
      agent: 'quality_reviewer',
      kind: 'review_gate',
    });
  });
});

describe('one failure breaker for the whole turn', () => {
  const failing: ToolOutcome = { name: 'query_files', ok: false, errorType: 'invalid_input', message: 'bad query' };

  test('two identical failures in one run and the same failure in the next run trip it', () => {
    const st = startedTurn(routing({ current_agent: 'planner', workflow_agents: ['writer'] }));
    st.apply({ type: 'toolFinished', agent: 'planner', outcome: failing });
    st.apply({ type: 'toolFinished', agent: 'planner', outcome: failing });
    expect(st.tripped).toBeNull();
    st.apply({ type: 'decided', kind: 'initial', decision: { action: 'complete' }, blockedHandoff: null });
    st.apply({
      type: 'runStarted',
      next: { agent: 'writer', kind: 'planned', note: '', remaining: [] },
      from: 'planner',
    });
    expect(st.run).toBe(2);
    st.apply({ type: 'toolFinished', agent: 'writer', outcome: failing });
    expect(st.tripped).toMatchObject({ reason: 'tool_failure_circuit_open' });
  });
});
