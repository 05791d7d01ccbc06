/**
 * Pre-routing rules pinned at their boundaries (mutation testing of src/workflows/routing.ts):
 * the exact decisions, the length limits of the phrase detectors, and which previous-turn
 * facts each rule needs.
 */
import {
  applyConfirmationGuard,
  isContinueMessage,
  isShortAnswer,
  isVagueEditRequest,
  preRoute,
  type PreviousTurnFacts,
  requestAsksForPlan,
} from '../../src/core/words/routing';
import { previousTurn, routing as baseRouting } from '../helpers/rule-fixtures';
import type { RoutingDecision } from '../../src/core/plans';
import { read } from './read';

const routing = (over: Partial<RoutingDecision> = {}): RoutingDecision => baseRouting({ scope: 'scope', ...over });
const prev = (over: Partial<PreviousTurnFacts> = {}): PreviousTurnFacts => previousTurn(routing(), over);

describe('phrase detectors at their limits', () => {
  test('continue: punctuation and spaces are ignored, Chinese with spaces too', () => {
    expect(isContinueMessage('  Continue!!! ')).toBe(true);
    expect(isContinueMessage('继 续 写')).toBe(true);
    expect(isContinueMessage('go-on')).toBe(true);
  });
  test('vague edits: empty and over-long messages are not vague; Chinese with spaces still is', () => {
    expect(isVagueEditRequest(read(''))).toBe(false);
    expect(isVagueEditRequest(read('!!!'))).toBe(false);
    expect(isVagueEditRequest(read('帮 我 优化 一下'))).toBe(true);
    expect(isVagueEditRequest(read('polish it,   please'))).toBe(true);
    expect(isVagueEditRequest(read(`polish it ${'please '.repeat(10)}`))).toBe(false);
  });
  test('short answers: no empty or multi-line answers; 20 CJK characters; 8 words and 60 characters', () => {
    expect(isShortAnswer('')).toBe(false);
    expect(isShortAnswer('   ')).toBe(false);
    expect(isShortAnswer('B\nC')).toBe(false);
    expect(isShortAnswer('  B  ')).toBe(true);
    expect(isShortAnswer('字'.repeat(20))).toBe(true);
    expect(isShortAnswer('字'.repeat(21))).toBe(false);
    expect(isShortAnswer('方 案 一 二 三 四 五 六 七 八')).toBe(true);
    expect(isShortAnswer('one two three four five six seven eight')).toBe(true);
    expect(isShortAnswer('one two three four five six seven eight nine')).toBe(false);
    expect(isShortAnswer('a'.repeat(60))).toBe(true);
    expect(isShortAnswer('a'.repeat(61))).toBe(false);
    expect(isShortAnswer('first    second')).toBe(true);
  });
  test.each([
    'Plan the novel chapter-by-chapter',
    'go chapter by chapter',
    'break it down into chapters',
    'break down into episodes',
    'plan out the book',
    'plan my story',
    '分集',
    '章纲',
  ])('"%s" asks for a plan', (m) => expect(requestAsksForPlan(m)).toBe(true));
  test.each(['chapterXbyXchapter', 'break it into chapters', 'write chapter 3'])('"%s" does not ask for a plan', (m) =>
    expect(requestAsksForPlan(m)).toBe(false),
  );
});

describe('preRoute decisions, exactly', () => {
  test('clarify-first', () => {
    expect(preRoute(read('polish it'), null)).toEqual({
      current_agent: 'writer',
      workflow_plan: 'quick',
      workflow_agents: [],
      write_content: false,
      read_only: false,
      scope: 'ask what to change',
      clarify_first: true,
      source: 'clarify_first',
      notes: ['whole-sentence vague edit request: ask what to change first'],
    });
    // Agreeing to exactly one proposal is not vague; two proposals still are.
    expect(preRoute(read('polish it'), prev({ proposedChanges: 2 }))?.source).toBe('clarify_first');
  });
  test('resume after exhaustion keeps the route, clears clarify_first, says why', () => {
    const p = prev({
      status: 'exhausted',
      routing: routing({ clarify_first: true, scope: 'ch 2' }),
      resume: { agent: 'writer', remaining: ['quality_reviewer'] },
    });
    expect(preRoute(read('continue'), p)).toEqual({
      ...routing({ scope: 'ch 2' }),
      current_agent: 'writer',
      workflow_agents: ['quality_reviewer'],
      clarify_first: false,
      source: 'resume_after_exhaustion',
      notes: ['"continue" after an exhausted turn resumes its route'],
    });
    expect(preRoute(read('continue'), prev({ status: 'exhausted', resume: null }))).toBeNull();
    expect(
      preRoute(
        read('continue'),
        prev({ status: 'exhausted', routing: null, resume: { agent: 'writer', remaining: [] } }),
      ),
    ).toBeNull();
    expect(preRoute(read('continue'), null)).toBeNull();
  });
  test('inherit after a question needs a waiting turn that asked and had a route', () => {
    const asked = prev({ status: 'awaiting_author', askedQuestion: true, routing: routing({ clarify_first: true }) });
    expect(preRoute(read('B'), asked)).toEqual({
      ...routing(),
      current_agent: 'planner',
      workflow_agents: ['writer'],
      clarify_first: false,
      source: 'inherit_after_question',
      notes: ['short answer to the previous question inherits its routing'],
    });
    expect(preRoute(read('B'), { ...asked, status: 'completed' })).toBeNull();
    expect(preRoute(read('B'), { ...asked, askedQuestion: false })).toBeNull();
    expect(preRoute(read('B'), { ...asked, routing: null })).toBeNull();
    expect(preRoute(read('B'), null)).toBeNull();
    expect(preRoute(read('B'), { ...asked, resume: { agent: 'writer', remaining: [] } })).toMatchObject({
      current_agent: 'writer',
      workflow_agents: [],
    });
  });
  test('the confirmation rule needs a question and an offer; units of an older turn are optional', () => {
    const offer = prev({
      status: 'awaiting_author',
      askedQuestion: true,
      question: '要我继续写下一章吗？',
      deliveredUnits: undefined,
    });
    expect(preRoute(read('好的'), offer)).toMatchObject({
      source: 'confirm_proposal',
      scope: '作者确认：要我继续写下一章吗？',
    });
    expect(preRoute(read('好的'), { ...offer, deliveredUnits: [4] })).toMatchObject({ scope: '第5章' });
    expect(preRoute(read('好的'), { ...offer, askedQuestion: false })).toBeNull();
  });
});

describe('applyConfirmationGuard: only what was inherited is dropped', () => {
  const offer = (over: Partial<PreviousTurnFacts> = {}) =>
    prev({ status: 'awaiting_author', askedQuestion: true, question: 'Shall I revise chapter 2?', ...over });
  test('read_only from the router is kept when the previous turn was not read-only; the same for write_content', () => {
    const d = routing({ read_only: true, write_content: false, scope: 'new' });
    expect(
      applyConfirmationGuard(d, 'yes', offer({ routing: routing({ read_only: false, write_content: true }) })),
    ).toBe(d);
    expect(applyConfirmationGuard(d, 'yes', offer({ routing: null }))).toBe(d);
  });
  test('each inherited field is dropped on its own', () => {
    const ro = applyConfirmationGuard(
      routing({ read_only: true, scope: 'new' }),
      'yes',
      offer({ routing: routing({ read_only: true }) }),
    );
    expect([ro.read_only, ro.write_content, ro.scope]).toEqual([false, true, 'new']);
    const nc = applyConfirmationGuard(
      routing({ write_content: false, scope: 'new' }),
      'yes',
      offer({ routing: routing({ write_content: false }) }),
    );
    expect([nc.read_only, nc.write_content, nc.scope]).toEqual([false, true, 'new']);
    const sc = applyConfirmationGuard(
      routing({ scope: 'chapter 1' }),
      'yes',
      offer({ routing: routing({ scope: 'chapter 1' }) }),
    );
    expect([sc.read_only, sc.write_content, sc.scope]).toEqual([false, true, 'chapter 2']);
  });
  test('a different scope from the router, or an offer without a unit, is left alone', () => {
    const d = routing({ scope: 'chapter 2 darker' });
    expect(applyConfirmationGuard(d, 'yes', offer({ routing: routing({ scope: 'chapter 1' }) }))).toBe(d);
    const same = routing({ scope: 'chapter 1' });
    expect(
      applyConfirmationGuard(
        same,
        'yes',
        offer({ question: 'Shall I revise it?', routing: routing({ scope: 'chapter 1' }) }),
      ),
    ).toBe(same);
  });
});
