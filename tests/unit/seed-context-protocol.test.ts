/**
 * The base protocol every writing agent is sent first: each of its rules is checked by a key
 * phrase, so a rule sentence that goes missing fails here, and every bullet must be claimed by
 * a rule, so a new rule is pinned when it is added. (The prompt is English only; the reply
 * language comes from the turn's directives.)
 */
import { BASE_PROTOCOL } from '../../src/agents/prompts/base';
import { buildSystemPrompt } from '../../src/agents/prompts';
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
