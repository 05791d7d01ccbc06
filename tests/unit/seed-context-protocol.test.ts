/**
 * The base protocol every writing agent is sent first: each of its rules is checked by a key
 * phrase, so a rule sentence that goes missing fails here, and every bullet must be claimed by
 * a rule, so a new rule is pinned when it is added. (The prompt is English only; the reply
 * language comes from the turn's directives.)
 */
import { BASE_PROTOCOL } from '../../src/agents/prompts/base';
import { buildRouterSystemPrompt, buildSystemPrompt, rolePrompt } from '../../src/agents/prompts';
import { PROJECT_TYPES } from '../../src/core/domain';

/** Each rule of the protocol and the phrases that carry its meaning. */
const RULES: { rule: string; phrases: RegExp[] }[] = [
  {
    rule: 'claim a save, restore or change only after the matching tool call succeeded',
    phrases: [
      /work through tools/i,
      /say a file was saved, restored or changed only after the matching tool call succeeded in this turn/i,
      /if you did not change something, say so plainly/i,
    ],
  },
  {
    rule: 'long text goes into files through the <file> block, one file at a time',
    phrases: [
      /long text goes into files, never into chat/i,
      /create_file without content/i,
      /between a line "<file>" and a line "<\/file>"/i,
      /finish one file before creating the next/i,
    ],
  },
  {
    rule: 'edit with exact anchors; read a truncated file in full first',
    phrases: [
      /edit_file using exact anchors copied from the current text/i,
      /query_files\(id\) when the context shows it truncated/i,
    ],
  },
  {
    rule: "the author's own files keep their wording and are not deleted or rewritten whole unasked",
    phrases: [
      /files the author wrote themselves are theirs/i,
      /keep their wording unless the author asked/i,
      /never delete or rewrite them whole unless the author named the file/i,
    ],
  },
  {
    rule: 'only what was asked: no redoing, no touching teammates’ fresh files, no extra output',
    phrases: [
      /do only what the author asked for in this turn/i,
      /do not redo finished work/i,
      /do not modify files just delivered by a teammate/i,
      /do not add output the author did not ask for/i,
    ],
  },
  {
    rule: 'an ambiguous request gets one precise question through request_clarification',
    phrases: [/ambiguous/i, /ask one precise question with request_clarification instead of guessing/i],
  },
  {
    rule: 'tool errors are read and adapted to; a call failing the same way is not repeated',
    phrases: [
      /\{ok:false, error_type, message\}/,
      /read them and adapt/i,
      /do not repeat a call that failed the same way/i,
    ],
  },
];

const bullets = BASE_PROTOCOL.split('\n').filter((l) => l.startsWith('- '));

describe('base protocol', () => {
  test.each(RULES)('states the rule: $rule', ({ phrases }) => {
    // All of a rule's phrases sit in one bullet: the rule is one sentence group, not scattered words.
    const holders = bullets.filter((b) => phrases.every((p) => p.test(b)));
    expect(holders).toHaveLength(1);
  });

  test('says a file was saved only after the matching tool call succeeded', () => {
    expect(BASE_PROTOCOL).toMatch(/saved[^.]*only after the matching tool call succeeded/i);
  });

  test('every bullet is one of the rules above: a rule added without its phrases fails here', () => {
    expect(bullets).toHaveLength(RULES.length);
    for (const b of bullets) expect(RULES.filter((r) => r.phrases.every((p) => p.test(b)))).toHaveLength(1);
  });

  test('every project type’s shared system prompt opens with the whole protocol', () => {
    for (const projectType of PROJECT_TYPES)
      expect(buildSystemPrompt({ projectType }).startsWith(BASE_PROTOCOL)).toBe(true);
  });
});

/** Each role's instructions, by the phrases that carry them: an emptied or rewritten role fails here. */
const ROLES: { agent: 'planner' | 'hook_designer' | 'writer' | 'quality_reviewer'; phrases: RegExp[] }[] = [
  {
    agent: 'planner',
    phrases: [
      /role: planner/i,
      /chapter-by-chapter outline/i,
      /write plans into an outline file \(type "outline"\)/i,
      /one entry per chapter\/episode with its goal, conflict and turn/i,
      /do not write chapter prose/i,
    ],
  },
  {
    agent: 'hook_designer',
    phrases: [
      /role: hook designer/i,
      /chapter-end hooks, reversals and suspense beats/i,
      /save hook designs into a setting file \(type "setting"\)/i,
      /do not write chapter prose/i,
    ],
  },
  {
    agent: 'writer',
    phrases: [
      /role: writer/i,
      /consistent with the outline, characters and settings/i,
      /each chapter is its own draft file \(type "draft"; screenplays: "script"\)/i,
      /match the author's requested length and style/i,
      /do not plan the rest of the book unless asked/i,
    ],
  },
  {
    agent: 'quality_reviewer',
    phrases: [
      /role: quality reviewer/i,
      /against the author's request, the outline and the length requirements/i,
      /you cannot change files/i,
      /"Verdict: pass" or "Verdict: revise"/,
      /you write the one summary the author sees for this turn/i,
      /if the writer left a question for the author, include it verbatim/i,
    ],
  },
];

describe('role prompts', () => {
  test.each(ROLES)('the $agent is sent its role', ({ agent, phrases }) => {
    const sent = rolePrompt(agent);
    for (const p of phrases) expect(sent).toMatch(p);
  });

  test('no agent is sent another role’s instructions', () => {
    for (const { agent } of ROLES)
      for (const other of ROLES.filter((r) => r.agent !== agent))
        expect(rolePrompt(agent)).not.toMatch(other.phrases[0]!);
  });
});

describe('router prompt', () => {
  const sent = buildRouterSystemPrompt();

  test('asks for one JSON object with the six routing fields and nothing else', () => {
    expect(sent).toMatch(/answer with one json object and nothing else/i);
    for (const field of ['current_agent', 'workflow_plan', 'workflow_agents', 'write_content', 'read_only', 'scope'])
      expect(sent).toContain(`"${field}"`);
  });

  test('asks for the scope in at most 40 characters', () => {
    expect(sent).toMatch(/"scope": "[^"]*<= 40 characters"/);
  });

  test('names the five plans and the agents of each', () => {
    expect(sent).toMatch(/quick = writer/);
    expect(sent).toMatch(/standard = planner → writer/);
    expect(sent).toMatch(/full = planner → hook_designer → writer/);
    expect(sent).toMatch(/hook_focus = hook_designer → writer/);
    expect(sent).toMatch(/review_only = quality_reviewer/);
  });

  test('says when write_content is false and read_only true', () => {
    expect(sent).toMatch(/write_content is false when the author did not ask for prose/i);
    expect(sent).toMatch(/read_only is true when the author only asks a question or wants feedback without changes/i);
  });

  test('tells an answer to a follow-up question from a yes to a proposed next step', () => {
    expect(sent).toMatch(/answering a follow-up question[^\n]*keep every field of the previous routing/i);
    expect(sent).toMatch(/confirming a proposed next step[^\n]*route to the proposed step/i);
    expect(sent).toMatch(/never the scope just delivered/i);
    expect(sent).toMatch(/do not keep read_only=true, write_content=false or the previous scope/i);
  });
});
