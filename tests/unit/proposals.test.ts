/**
 * Confirming a proposed next step: an offer in the closing
 * question plus a plain confirmation routes to the offered step; a short answer to a
 * follow-up question still inherits the whole route.
 */
import {
  confirmedStepRouting,
  declinedOfferRouting,
  isConfirmation,
  isOfferQuestion,
  isUnclearAnswer,
  proposedStep,
} from '../../src/core/words/proposals';
import { decisionInMessage } from '../../src/core/words/answers';
import { applyConfirmationGuard, preRoute, type PreviousTurnFacts } from '../../src/core/words/routing';
import type { RoutingDecision } from '../../src/core/plans';
import { read } from './read';

const routing = (over: Partial<RoutingDecision> = {}): RoutingDecision => ({
  current_agent: 'quality_reviewer',
  workflow_plan: 'review_only',
  workflow_agents: [],
  write_content: false,
  read_only: true,
  scope: '审阅第1章',
  clarify_first: false,
  source: 'llm',
  notes: [],
  ...over,
});
const prev = (question: string | null, over: Partial<PreviousTurnFacts> = {}): PreviousTurnFacts => ({
  status: 'awaiting_author',
  stopReason: 'question_to_author',
  routing: routing(),
  resume: null,
  askedQuestion: true,
  proposedChanges: 1,
  question,
  deliveredUnits: [],
  ...over,
});

describe('confirmations', () => {
  test.each([
    '好的',
    '好',
    '行',
    '可以',
    '写吧',
    '行，写吧',
    '好的，写吧',
    '嗯嗯',
    '没问题',
    '那就写吧',
    '好的谢谢',
    'yes',
    'Yes!',
    'ok, go',
    'OK go',
    'sure',
    'yes please',
    'go ahead',
    "let's do it",
    'sounds good.',
    '👍',
    'continue',
    '继续',
    'k',
  ])('"%s" is a confirmation', (m) => expect(isConfirmation(m)).toBe(true));
  test.each([
    '',
    '谢谢',
    'thanks',
    '不用了',
    '不好',
    'no',
    'ok but make it darker',
    '好的，但是第二章要更黑暗一些',
    'B',
    '第三人称',
    'yesterday',
    '好久不见',
    '是吗',
    'go'.repeat(11),
  ])('"%s" is not a plain confirmation', (m) => expect(isConfirmation(m)).toBe(false));
});

describe('a yes asked back, trailed off or hedged is not a yes', () => {
  test.each([
    'ok?',
    'OK??',
    'yes?',
    'sure?!',
    'right?',
    'continue?',
    '嗯？',
    '是？',
    '好……吧？',
    '嗯……',
    '好。。。',
    'yes...',
    'k…',
    'ok?? 👍',
  ])('"%s" is not a confirmation, and is unclear', (m) => {
    expect(isConfirmation(m)).toBe(false);
    expect(isUnclearAnswer(m)).toBe(true);
  });
  test.each([
    'maybe',
    'Maybe?',
    'perhaps',
    'I guess',
    'hmm',
    'hmmm...',
    '也许吧',
    '可能吧',
    '呃',
    'yes but',
    '好是好，但是',
    'ok, though',
  ])('"%s" is unclear', (m) => expect(isUnclearAnswer(m)).toBe(true));
  test.each(['why not?', 'Sure, why not?', 'why not?!', '同意', '好主意', '就这么办', 'agreed', 'ok.', 'yes!'])(
    '"%s" is still a confirmation',
    (m) => {
      expect(isConfirmation(m)).toBe(true);
      expect(isUnclearAnswer(m)).toBe(false);
    },
  );
  test.each([
    'no',
    '不用了',
    'ok but make it darker',
    'what flashback?',
    '压缩哪两段？',
    'write chapter 6',
    '',
    'maybe rewrite chapter 3 from scratch',
  ])('"%s" is not an unclear yes', (m) => expect(isUnclearAnswer(m)).toBe(false));
  test('after an offer, an unclear reply writes nothing and is answered without a model', () => {
    for (const m of ['ok?', '嗯……', 'maybe', 'I guess... let me think about it']) {
      expect(preRoute(read(m), prev('第3章节奏偏慢，建议压缩开头两段。要这样改吗？'))).toMatchObject({
        source: 'decline_offer',
        read_only: true,
        write_content: false,
      });
    }
    expect(preRoute(read('ok?'), prev('Shall I write chapter 2?'))).toEqual({
      ...declinedOfferRouting('en'),
      scope: "the author's reply was not a clear yes: nothing is written until they say so",
      notes: ['an unclear reply to the offered step is read as a no: nothing is written'],
    });
    expect(preRoute(read('好……吧？'), prev('要我继续写第二章吗？'))!.scope).toBe(
      '作者的回答不明确（不是肯定）：先不动，等作者说清楚',
    );
    expect(preRoute(read('不用了'), prev('要我继续写第二章吗？'))!.scope).toBe('作者谢绝了提议的下一步');
  });
  test('only a short reply is read as an unclear yes', () => {
    expect(isUnclearAnswer(`${'ok '.repeat(10)}?`)).toBe(true);
    expect(isUnclearAnswer(`${'ok '.repeat(11)}?`)).toBe(false);
    expect(isUnclearAnswer('?')).toBe(false);
    expect(isUnclearAnswer('OK...')).toBe(true);
    expect(isUnclearAnswer('MAYBE')).toBe(true);
  });
  test('a pending approval (an author file to delete) is approved by a plain yes only', () => {
    expect(decisionInMessage('yes')).toBe('approve');
    expect(decisionInMessage('好的')).toBe('approve');
    for (const m of ['ok?', '嗯？', '好……吧？', 'maybe', 'yes but', '我再想想', 'hold on'])
      expect(decisionInMessage(m)).toBe('deny');
    expect(decisionInMessage('delete chapter 4 instead')).toBe('new_request');
  });
});

describe('offers vs follow-up questions', () => {
  test.each([
    '要我帮你改吗？',
    '要我继续写第二章吗？',
    '需要我把第三章也写了吗？',
    '要不要我润色一下？',
    '我可以帮你调整节奏，需要吗？',
    'Shall I write chapter 2?',
    'Would you like me to revise it?',
    'Do you want me to continue?',
    'Want me to tighten the dialogue?',
    'Should I write the next chapter?',
    '接下来写第二章吗？',
    '要继续吗？',
  ])('"%s" offers a next step', (q) => expect(isOfferQuestion(q)).toBe(true));
  test.each([
    null,
    '',
    '走悬疑路线还是温情路线？',
    '你想用第一人称还是第三人称？',
    'Shall I write it in first person or third?',
    'Which ending do you prefer?',
    'What tone should chapter 2 have?',
    '你觉得这一章怎么样？',
    'Is the pacing OK?',
    '你满意吗？',
  ])('"%s" is not an offer', (q) => expect(isOfferQuestion(q)).toBe(false));
});

describe('the proposed step', () => {
  test.each([
    ['要我帮你改吗？', 'edit', null],
    ['要我继续写第二章吗？', 'write', { kind: 'chapter', from: 2, to: 2 }],
    ['Shall I write chapter 2?', 'write', { kind: 'chapter', from: 2, to: 2 }],
    ['要我写第2-5集吗？', 'write', { kind: 'episode', from: 2, to: 5 }],
    ['要我帮你写个大纲吗？', 'plan', null],
    ['Shall I outline the rest of the book?', 'plan', null],
    ['要我按大纲继续写第三章吗？', 'write', { kind: 'chapter', from: 3, to: 3 }],
    ['Shall I continue following the outline?', 'write', null],
    ['要我帮你审一下吗？', 'review', null],
    ['Would you like me to review chapter 3?', 'review', { kind: 'chapter', from: 3, to: 3 }],
    ['Would you like me to revise chapter 1 with these notes?', 'edit', { kind: 'chapter', from: 1, to: 1 }],
  ])('"%s" → %s', (q, action, units) => expect(proposedStep(q)).toEqual({ action, units, question: q }));

  test('"the next chapter" follows the units the previous turn delivered', () => {
    expect(proposedStep('要我继续写下一章吗？', [1, 3])?.units).toEqual({ kind: 'chapter', from: 4, to: 4 });
    expect(proposedStep('Shall I write the next episode?', [2])?.units).toEqual({ kind: 'episode', from: 3, to: 3 });
    expect(proposedStep('要我写下一幕吗？', [1])?.units).toEqual({ kind: 'act', from: 2, to: 2 });
    expect(proposedStep('要我继续写下一章吗？', [])?.units).toBeNull();
  });
  test('no step when the question is not an offer, or offers nothing recognisable', () => {
    expect(proposedStep('A还是B？')).toBeNull();
    expect(proposedStep(null)).toBeNull();
    expect(proposedStep('要我说说理由吗？')).toBeNull();
  });
  test('routes: writing and edits go to the writer with prose allowed; plans to the planner; reviews stay read-only', () => {
    const write = confirmedStepRouting(proposedStep('要我继续写第二章吗？')!, 'zh');
    expect(write).toMatchObject({
      current_agent: 'writer',
      workflow_plan: 'quick',
      workflow_agents: [],
      write_content: true,
      read_only: false,
      scope: '第2章',
      source: 'confirm_proposal',
      clarify_first: false,
    });
    expect(confirmedStepRouting(proposedStep('Shall I write chapter 2?')!, 'en').scope).toBe('chapter 2');
    const edit = confirmedStepRouting(proposedStep('要我帮你改吗？')!, 'zh');
    expect(edit).toMatchObject({
      current_agent: 'writer',
      write_content: true,
      read_only: false,
      scope: '作者确认：要我帮你改吗？',
    });
    expect(confirmedStepRouting(proposedStep('Would you like me to revise it?')!, 'en').scope).toBe(
      'confirmed: Would you like me to revise it?',
    );
    expect(confirmedStepRouting(proposedStep('要我帮你写个大纲吗？')!, 'zh')).toMatchObject({
      current_agent: 'planner',
      workflow_plan: 'standard',
      write_content: false,
      read_only: false,
    });
    expect(confirmedStepRouting(proposedStep('要我帮你审一下吗？')!, 'zh')).toMatchObject({
      current_agent: 'quality_reviewer',
      workflow_plan: 'review_only',
      write_content: false,
      read_only: true,
    });
    expect(write.notes[0]).toMatch(/not inherited/);
  });
});

describe('preRoute with confirmations', () => {
  test('"好的" after a read-only reviewer’s "要我帮你改吗？" runs the writer with read_only=false, write_content=true', () => {
    const d = preRoute(read('好的'), prev('第一章节奏偏慢。要我帮你改吗？'.split('。')[1]!))!;
    expect(d).toMatchObject({
      current_agent: 'writer',
      read_only: false,
      write_content: true,
      source: 'confirm_proposal',
    });
  });
  test('"好的" after "要我继续写第二章吗？" gets the scope of chapter 2, not the delivered chapter 1', () => {
    const p = prev('要我继续写第二章吗？', {
      routing: routing({
        current_agent: 'writer',
        workflow_plan: 'quick',
        read_only: false,
        write_content: true,
        scope: '第1章',
      }),
    });
    expect(preRoute(read('好的'), p)).toMatchObject({ current_agent: 'writer', scope: '第2章' });
  });
  test('a refusal of an offer writes nothing; anything else after an offer goes to the router, not the inherited route', () => {
    expect(preRoute(read('不用了，谢谢'), prev('要我帮你改吗？'))).toMatchObject({
      source: 'decline_offer',
      read_only: true,
      write_content: false,
      workflow_agents: [],
    });
    expect(preRoute(read('no thanks'), prev('Shall I write chapter 2?'))).toMatchObject({
      source: 'decline_offer',
      read_only: true,
    });
    expect(preRoute(read('no, write chapter 6 instead'), prev('Shall I write chapter 2?'))).toBeNull();
    expect(preRoute(read('好的'), prev('要我说说理由吗？'))).toBeNull();
  });
  test('a short answer to a follow-up question still inherits the whole route', () => {
    const p = prev('走悬疑路线还是温情路线？', {
      routing: routing({ current_agent: 'planner', workflow_plan: 'standard', read_only: false, scope: '大纲' }),
    });
    expect(preRoute(read('温情'), p)).toMatchObject({
      current_agent: 'planner',
      scope: '大纲',
      source: 'inherit_after_question',
    });
    expect(preRoute(read('好的'), { ...p, question: 'Which ending?' })).toMatchObject({
      source: 'inherit_after_question',
    });
  });
  test('the exhausted-turn "continue" rule still comes first', () => {
    const p = prev('要我继续写第二章吗？', { status: 'exhausted', resume: { agent: 'writer', remaining: [] } });
    expect(preRoute(read('继续'), p)).toMatchObject({ source: 'resume_after_exhaustion' });
  });
  test('no previous question, no confirmation rule', () => {
    expect(preRoute(read('好的'), prev('要我帮你改吗？', { askedQuestion: false, status: 'completed' }))).toBeNull();
  });
});

describe('applyConfirmationGuard with confirmations', () => {
  const llm = (over: Partial<RoutingDecision> = {}) =>
    routing({ current_agent: 'writer', workflow_plan: 'quick', ...over });
  test('the router kept read_only / write_content=false / the delivered scope: all dropped', () => {
    const p = prev('要我继续写第二章吗？', { routing: routing({ scope: '第1章' }) });
    const d = applyConfirmationGuard(llm({ scope: '第1章' }), '好的', p);
    expect(d).toMatchObject({ read_only: false, write_content: true, scope: '第2章' });
    expect(d.notes.at(-1)).toMatch(/not inherited/);
  });
  test('also when the previous turn completed rather than waited', () => {
    const p = prev('Shall I revise it?', { status: 'completed', routing: routing({ scope: 'review' }) });
    expect(applyConfirmationGuard(llm({ scope: 'revise' }), 'yes', p)).toMatchObject({
      read_only: false,
      write_content: true,
      scope: 'revise',
    });
  });
  test('nothing to fix, a deterministic confirmed route, a follow-up, or no confirmation: unchanged', () => {
    const p = prev('要我帮你改吗？');
    const fine = llm({ read_only: false, write_content: true });
    expect(applyConfirmationGuard(fine, '好的', p)).toBe(fine);
    const confirmed = confirmedStepRouting(proposedStep('要我帮你审一下吗？')!, 'zh');
    expect(applyConfirmationGuard(confirmed, '好的', prev('要我帮你审一下吗？'))).toBe(confirmed);
    const ro = llm();
    expect(applyConfirmationGuard(ro, 'B', p)).toBe(ro);
    expect(applyConfirmationGuard(ro, '好的', prev('A还是B？'))).toBe(ro);
    expect(applyConfirmationGuard(ro, '好的', null)).toBe(ro);
  });
});
