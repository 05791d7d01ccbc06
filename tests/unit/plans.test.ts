/**
 * The plan table and the router answer's normalisation: the
 * table is the upper bound; write_content=false drops the writer; read_only empties it.
 */
import {
  cutScope,
  fallbackRouting,
  isWorkAgent,
  MAX_SCOPE_CHARS,
  normaliseRouterAnswer,
  PLAN_TABLE,
  planWorkflowAgents,
  routerAnswerSchema,
  writerAloneRouting,
} from '../../src/core/plans';

const answer = (over: Record<string, unknown> = {}) =>
  routerAnswerSchema.parse({
    current_agent: 'planner',
    workflow_plan: 'standard',
    write_content: true,
    read_only: false,
    scope: 'plan it',
    ...over,
  });

test('the plan table, exactly', () => {
  expect(PLAN_TABLE).toEqual({
    quick: ['writer'],
    standard: ['planner', 'writer'],
    full: ['planner', 'hook_designer', 'writer'],
    hook_focus: ['hook_designer', 'writer'],
    review_only: ['quality_reviewer'],
  });
});

test('planWorkflowAgents: a copy of the table row, trimmed by write_content and read_only', () => {
  const row = planWorkflowAgents('standard', { writeContent: true, readOnly: false });
  expect(row).toEqual(['planner', 'writer']);
  row.push('quality_reviewer');
  expect(PLAN_TABLE.standard).toEqual(['planner', 'writer']);
  expect(planWorkflowAgents('hook_focus', { writeContent: false, readOnly: false })).toEqual(['hook_designer']);
  expect(planWorkflowAgents('quick', { writeContent: false, readOnly: false })).toEqual([]);
  expect(planWorkflowAgents('review_only', { writeContent: true, readOnly: true })).toEqual([]);
});

test('router answers: schema defaults, a bounded agent list, unknown agents refused', () => {
  expect(
    routerAnswerSchema.parse({
      current_agent: 'writer',
      workflow_plan: 'quick',
      write_content: true,
      read_only: false,
    }),
  ).toMatchObject({ workflow_agents: [], scope: '' });
  expect(
    routerAnswerSchema.safeParse({
      current_agent: 'editor',
      workflow_plan: 'quick',
      write_content: true,
      read_only: false,
    }).success,
  ).toBe(false);
  expect(routerAnswerSchema.safeParse({ ...answer(), workflow_agents: Array(9).fill('writer') }).success).toBe(false);
  expect(routerAnswerSchema.safeParse({ ...answer(), workflow_agents: Array(8).fill('writer') }).success).toBe(true);
  expect(routerAnswerSchema.safeParse({ ...answer(), workflow_plan: 'epic' }).success).toBe(false);
});

describe('normaliseRouterAnswer', () => {
  test('no agents named: the trimmed plan row, without the current agent at its head', () => {
    expect(normaliseRouterAnswer(answer(), 'llm')).toEqual({
      current_agent: 'planner',
      workflow_plan: 'standard',
      workflow_agents: ['writer'],
      write_content: true,
      read_only: false,
      scope: 'plan it',
      clarify_first: false,
      source: 'llm',
      notes: [],
    });
    expect(
      normaliseRouterAnswer(answer({ current_agent: 'writer', workflow_plan: 'full' }), 'llm').workflow_agents,
    ).toEqual(['planner', 'hook_designer', 'writer']);
  });
  test('agents named: only those the table allows, in the order given', () => {
    const d = normaliseRouterAnswer(
      answer({ workflow_plan: 'full', workflow_agents: ['writer', 'quality_reviewer', 'hook_designer'] }),
      'llm',
    );
    expect(d.workflow_agents).toEqual(['writer', 'hook_designer']);
  });
  test('agents named but none allowed: an empty sequence, not the full row', () => {
    expect(normaliseRouterAnswer(answer({ workflow_agents: ['quality_reviewer'] }), 'llm').workflow_agents).toEqual([]);
  });
  test('read-only and no-prose answers are trimmed; notes and source are kept', () => {
    expect(normaliseRouterAnswer(answer({ read_only: true }), 'llm').workflow_agents).toEqual([]);
    expect(normaliseRouterAnswer(answer({ write_content: false }), 'forced', ['n']).workflow_agents).toEqual([]);
    expect(normaliseRouterAnswer(answer({ write_content: false }), 'forced', ['n'])).toMatchObject({
      source: 'forced',
      notes: ['n'],
      write_content: false,
    });
  });
});

test('cutScope trims and cuts at the hard limit by characters, not bytes', () => {
  expect(MAX_SCOPE_CHARS).toBe(80);
  expect(cutScope('  第3章  ')).toBe('第3章');
  expect(cutScope('章'.repeat(80))).toBe('章'.repeat(80));
  expect(cutScope('章'.repeat(81))).toBe('章'.repeat(80));
  expect(cutScope('😀'.repeat(81))).toBe('😀'.repeat(80));
});

test('the writer alone, and the fallback that says why', () => {
  expect(writerAloneRouting('forced', 'chapter 2', ['job'])).toEqual({
    current_agent: 'writer',
    workflow_plan: 'quick',
    workflow_agents: [],
    write_content: true,
    read_only: false,
    scope: 'chapter 2',
    clarify_first: false,
    source: 'forced',
    notes: ['job'],
  });
  expect(fallbackRouting('timeout')).toMatchObject({
    source: 'fallback',
    scope: '',
    notes: ['router fallback: timeout'],
    current_agent: 'writer',
  });
});

test('isWorkAgent: the four work agents, not the router', () => {
  for (const a of ['planner', 'hook_designer', 'writer', 'quality_reviewer']) expect(isWorkAgent(a)).toBe(true);
  expect(isWorkAgent('router')).toBe(false);
  expect(isWorkAgent('editor')).toBe(false);
});
