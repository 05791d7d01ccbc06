import {
  applyConfirmationGuard,
  findLengthRequirements,
  isContinueMessage,
  isNoiseMessage,
  isShortAnswer,
  isVagueEditRequest,
  preRoute,
  type PreviousTurnFacts,
  requestAsksForPlan,
} from '../../src/core/words/routing';
import { previousTurn, routing as baseRouting } from '../helpers/rule-fixtures';
import { fallbackRouting, normaliseRouterAnswer, planWorkflowAgents, type RoutingDecision } from '../../src/core/plans';
import { read } from './read';

const routing = (over: Partial<RoutingDecision> = {}): RoutingDecision =>
  baseRouting({ scope: 'plan and write chapter 1', ...over });

const prev = (over: Partial<PreviousTurnFacts> = {}): PreviousTurnFacts => previousTurn(routing(), over);

describe('phrase detectors (Chinese and English)', () => {
  test.each(['continue', 'Continue.', 'go on', 'keep going please', '继续', '继续写', '接着写吧'])(
    '"%s" is a continue message',
    (m) => {
      expect(isContinueMessage(m)).toBe(true);
    },
  );
  test.each(['continue with chapter 5 but make it darker', '继续写第五章，但是更黑暗一点', 'what happens next?'])(
    '"%s" is not a bare continue',
    (m) => {
      expect(isContinueMessage(m)).toBe(false);
    },
  );
  test.each([
    'polish it',
    'Please improve this.',
    'make it better',
    'can you refine it a bit',
    '帮我优化一下',
    '润色一下',
    '改一改',
    '请帮我修改一下吧',
  ])('"%s" is a whole-sentence vague edit request', (m) => expect(isVagueEditRequest(read(m))).toBe(true));
  test.each([
    'tighten the dialogue in chapter 2',
    'polish the opening paragraph of chapter 3',
    '把第二章的对话改得更紧凑',
    '优化一下第一章的结尾',
  ])('"%s" names a target, so it is not vague', (m) => expect(isVagueEditRequest(read(m))).toBe(false));
  test('short answers', () => {
    expect(isShortAnswer('the second one')).toBe(true);
    expect(isShortAnswer('用方案B')).toBe(true);
    expect(isShortAnswer('Please write a long chapter about the storm and how Mara survives it with her brother')).toBe(
      false,
    );
  });
  test('plan requests and length requirements', () => {
    expect(requestAsksForPlan('Plan out a 30-chapter novel')).toBe(true);
    expect(requestAsksForPlan('帮我写个大纲')).toBe(true);
    expect(requestAsksForPlan('write chapter 3')).toBe(false);
    expect(findLengthRequirements('Write chapter 3, about 2,000 words. Keep it tense.')).toEqual([
      'Write chapter 3, about 2,000 words',
    ]);
    expect(findLengthRequirements('写第三章，3000字左右')[0]).toContain('3000字');
  });
});

describe('preRoute', () => {
  test('a vague edit request goes to the writer alone with clarify_first', () => {
    const d = preRoute(read('polish it'), prev())!;
    expect(d).toMatchObject({
      current_agent: 'writer',
      workflow_agents: [],
      clarify_first: true,
      source: 'clarify_first',
    });
  });
  test('no clarify_first when the previous turn already asked, or proposed exactly one change', () => {
    expect(
      preRoute(read('polish it'), prev({ routing: routing({ clarify_first: true }) }))?.clarify_first ?? false,
    ).toBe(false);
    expect(
      preRoute(read('帮我优化一下'), prev({ proposedChanges: 1, askedQuestion: true }))?.clarify_first ?? false,
    ).toBe(false);
  });
  test('the vague-edit check comes before inheriting the previous route', () => {
    const d = preRoute(read('polish it'), prev({ status: 'awaiting_author', askedQuestion: true }))!;
    expect(d.source).toBe('clarify_first');
  });
  test('"continue" after an exhausted turn resumes its route where it stopped', () => {
    const d = preRoute(
      read('继续'),
      prev({ status: 'exhausted', resume: { agent: 'writer', remaining: ['quality_reviewer'] } }),
    )!;
    expect(d).toMatchObject({
      current_agent: 'writer',
      workflow_agents: ['quality_reviewer'],
      source: 'resume_after_exhaustion',
      workflow_plan: 'standard',
    });
  });
  test('"continue" after a completed turn goes to the router', () => {
    expect(preRoute(read('continue'), prev({ status: 'completed' }))).toBeNull();
  });
  test('a short answer to the previous question inherits all routing fields', () => {
    const p = prev({
      status: 'awaiting_author',
      askedQuestion: true,
      routing: routing({ read_only: false, scope: 'two options' }),
      resume: { agent: 'planner', remaining: ['writer'] },
    });
    const d = preRoute(read('the second one'), p)!;
    expect(d).toMatchObject({
      current_agent: 'planner',
      workflow_agents: ['writer'],
      scope: 'two options',
      source: 'inherit_after_question',
    });
  });
  test('a long new request after a question goes to the router', () => {
    const p = prev({ status: 'awaiting_author', askedQuestion: true });
    expect(
      preRoute(
        read('Forget that. Write a new chapter where the storm finally breaks and everyone goes home changed.'),
        p,
      ),
    ).toBeNull();
  });
});

describe('plan table and router answers', () => {
  test('write_content=false drops the writer; read_only empties the sequence', () => {
    expect(planWorkflowAgents('full', { writeContent: true, readOnly: false })).toEqual([
      'planner',
      'hook_designer',
      'writer',
    ]);
    expect(planWorkflowAgents('full', { writeContent: false, readOnly: false })).toEqual(['planner', 'hook_designer']);
    expect(planWorkflowAgents('standard', { writeContent: true, readOnly: true })).toEqual([]);
    expect(planWorkflowAgents('review_only', { writeContent: false, readOnly: false })).toEqual(['quality_reviewer']);
  });
  test('the plan table is the upper bound and the current agent is not repeated', () => {
    const d = normaliseRouterAnswer(
      {
        current_agent: 'planner',
        workflow_plan: 'standard',
        workflow_agents: ['planner', 'hook_designer', 'writer'],
        write_content: true,
        read_only: false,
        scope: 'x'.repeat(120),
      },
      'llm',
    );
    expect(d.workflow_agents).toEqual(['writer']);
    expect(Array.from(d.scope)).toHaveLength(80);
  });
  test('fallback routing is the writer alone, and says why', () => {
    expect(fallbackRouting('bad json')).toMatchObject({
      current_agent: 'writer',
      workflow_plan: 'quick',
      source: 'fallback',
      notes: ['router fallback: bad json'],
    });
  });
  test('confirming a proposed next step does not inherit read_only / write_content=false', () => {
    const p = prev({
      status: 'completed',
      askedQuestion: true,
      question: 'Shall I revise chapter 2?',
      routing: routing({ read_only: true, write_content: false }),
    });
    const llm = routing({
      current_agent: 'writer',
      workflow_plan: 'quick',
      workflow_agents: [],
      read_only: true,
      write_content: false,
    });
    const d = applyConfirmationGuard(llm, 'yes', p);
    expect(d.read_only).toBe(false);
    expect(d.write_content).toBe(true);
    // Not a confirmation: the router's answer stands.
    expect(applyConfirmationGuard(llm, 'what do you think of chapter 2?', p).read_only).toBe(true);
  });
});

describe('noise gate', () => {
  test.each(['???', '…', '。。。', '', '   ', '？！', '...', '~~~', '\uFFFD\uFFFD'])('"%s" is noise', (m) =>
    expect(isNoiseMessage(m)).toBe(true),
  );
  test.each(['👍', 'ok', 'B', '好', '3', 'continue?', '第三章？'])('"%s" is not noise', (m) =>
    expect(isNoiseMessage(m)).toBe(false),
  );
});
