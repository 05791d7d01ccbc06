/**
 * The space a real model's answers come from, not only the happy path our script plays:
 * the `<file>` protocol ignored (the chapter inside create_file's
 * arguments, a fenced block around the body, `<file>` never closed, two bodies in one
 * answer, text after `</file>`), tool calls with wrong argument names or types, ids of
 * another project's files, the author's own files to delete or rewrite, unknown tools,
 * invalid JSON, handoffs back and forth, a clarification, the wrong language, a 50,000-
 * character answer, an empty one, several calls at once, thinking before the answer.
 * fast-check arbitraries: seeded, reproducible, and shrunk to the smallest failing turn.
 */
import fc from 'fast-check';
import type { ScriptEntry, ScriptToolCall } from '../../src/offline-model';

/** What the answers can point at: files the author wrote, and another project's. */
export interface SoakWorld {
  authorFileIds: string[];
  foreignFileIds: string[];
}

type Reply = NonNullable<ScriptEntry['reply']>;

const en = fc.lorem({ maxCount: 40, mode: 'sentences' });
const zh = fc
  .array(
    fc.constantFrom(
      '雨已经下了三天。',
      '玛拉推开了门，',
      '潮水漫过盐滩，',
      '她数着熄灭的灯。',
      '档案员只说了一半的真话。',
      '远处传来钟声。',
    ),
    { minLength: 1, maxLength: 30 },
  )
  .map((xs) => xs.join(''));
const prose = fc.oneof(en, zh);
const title = fc.constantFrom('Chapter 1', 'Chapter 2', '第3章', 'Outline', 'Mara Voss', 'Notes', '');
const fileType = fc.constantFrom('draft', 'outline', 'character', 'setting', 'script', 'folder');
const agent = fc.constantFrom('planner', 'hook_designer', 'writer', 'quality_reviewer');

const call = (name: string, args: ScriptToolCall['arguments']): ScriptToolCall => ({ name, arguments: args });

/** One tool call a model might make, well-formed or not. */
function toolCall(world: SoakWorld): fc.Arbitrary<ScriptToolCall> {
  const authorId = world.authorFileIds.length
    ? fc.constantFrom(...world.authorFileIds)
    : fc.constant('000000000000000000000000');
  const foreignId = world.foreignFileIds.length
    ? fc.constantFrom(...world.foreignFileIds)
    : fc.constant('111111111111111111111111');
  return fc.oneof(
    // Well-formed: the calls a turn makes progress with.
    { weight: 4, arbitrary: fc.record({ type: fileType, title }).map((a) => call('create_file', a)) },
    // The chapter inside create_file's arguments instead of a <file> block.
    {
      weight: 2,
      arbitrary: fc.record({ type: fc.constant('draft'), title, content: prose }).map((a) => call('create_file', a)),
    },
    // Wrong argument names and types.
    { weight: 1, arbitrary: fc.record({ name: title, body: prose }).map((a) => call('create_file', a)) },
    {
      weight: 1,
      arbitrary: fc
        .record({ type: fc.integer(), title: fc.array(fc.string(), { maxLength: 2 }) })
        .map((a) => call('create_file', a)),
    },
    // Another project's files; the author's own files, to rewrite or delete.
    {
      weight: 1,
      arbitrary: fc
        .record({ id: foreignId, operation: fc.constant('rewrite'), text: prose })
        .map((a) => call('edit_file', a)),
    },
    { weight: 1, arbitrary: fc.record({ id: foreignId }).map((a) => call('delete_file', a)) },
    { weight: 2, arbitrary: fc.record({ id: authorId }).map((a) => call('delete_file', a)) },
    {
      weight: 2,
      arbitrary: fc
        .record({ id: authorId, operation: fc.constant('rewrite'), text: prose })
        .map((a) => call('edit_file', a)),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ id: authorId, operation: fc.constant('append'), text: prose })
        .map((a) => call('edit_file', a)),
    },
    // Unknown tools and invalid JSON.
    { weight: 1, arbitrary: fc.constantFrom('format_disk', 'write_chapter', 'save').map((n) => call(n, {})) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{"type": "draft", "title": ', '{type: draft}', 'null', '[]', '')
        .map((raw) => call('create_file', raw)),
    },
    // Control: handoffs (ping-pong when repeated) and clarifications.
    {
      weight: 2,
      arbitrary: fc.record({ agent, reason: fc.constant('over to you') }).map((a) => call('handoff_to_agent', a)),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ question: fc.constantFrom('Which chapter?', '哪一章？') })
        .map((a) => call('request_clarification', a)),
    },
    {
      weight: 1,
      arbitrary: fc.record({ query: fc.constantFrom('Mara', 'chapter', '') }).map((a) => call('query_files', a)),
    },
  );
}

/** One answer of an agent step. */
export function agentAnswer(world: SoakWorld): fc.Arbitrary<Reply> {
  const text = (content: fc.Arbitrary<string>): fc.Arbitrary<Reply> => content.map((c) => ({ content: c }));
  return fc.oneof(
    { weight: 4, arbitrary: text(prose.map((b) => `<file>\n${b}\n</file>`)) },
    { weight: 2, arbitrary: text(prose) },
    { weight: 1, arbitrary: text(prose.map((b) => `\`\`\`\n${b}\n\`\`\``)) },
    { weight: 1, arbitrary: text(prose.map((b) => `\`\`\`markdown\n<file>\n${b}\n</file>\n\`\`\``)) },
    { weight: 1, arbitrary: text(prose.map((b) => `<file>\n${b}`)) },
    {
      weight: 1,
      arbitrary: text(
        fc.tuple(prose, prose).map(([a, b]) => `<file>\n${a}\n</file>\nAnd another:\n<file>\n${b}\n</file>`),
      ),
    },
    { weight: 1, arbitrary: text(fc.tuple(prose, prose).map(([b, t]) => `<file>\n${b}\n</file>\n${t}`)) },
    { weight: 1, arbitrary: text(fc.constantFrom('', ' ', '\n')) },
    {
      weight: 1,
      arbitrary: text(prose.map((b) => b.repeat(Math.ceil(50_000 / Math.max(1, b.length))).slice(0, 50_000))),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        content: fc.oneof(fc.constant(''), prose),
        toolCalls: fc.array(toolCall(world), { minLength: 1, maxLength: 3 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ reasoning: prose, content: prose.map((b) => `<file>\n${b}\n</file>`) }) },
  );
}

/** The router's answer: a routing decision (any agent, any plan), or not one at all. */
export const routerAnswer: fc.Arbitrary<Reply> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .record({
        current_agent: fc.constantFrom('planner', 'hook_designer', 'writer', 'quality_reviewer'),
        workflow_plan: fc.constantFrom('quick', 'standard', 'full', 'hook_focus', 'review_only'),
        write_content: fc.boolean(),
        read_only: fc.boolean(),
        scope: fc.constantFrom('Chapter 1', '第3章', ''),
      })
      .map((r) => ({ content: JSON.stringify({ workflow_agents: [], ...r }) })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('not json', '{"current_agent": "nobody"}', '', '```json\n{}\n```')
      .map((content) => ({ content })),
  },
);

/**
 * The author's messages, and what each authorises of their own files in so many words (the
 * only authorisation a soak turn gets: approvals are denied). '@author1' is "Mara Voss".
 */
export const AUTHORISES: Record<string, { rewrite: string[]; delete: string[] }> = {
  'Write chapter 1': { rewrite: [], delete: [] },
  写第三章: { rewrite: [], delete: [] },
  'What happens next?': { rewrite: [], delete: [] },
  继续: { rewrite: [], delete: [] },
  'Delete the notes': { rewrite: [], delete: [] },
  'Rewrite Mara Voss': { rewrite: ['@author1'], delete: [] },
  '删除 Mara Voss 这个文件': { rewrite: [], delete: ['@author1'] },
};

/** What one generated turn answers: the router once, then each agent step in order. */
export interface TurnAnswers {
  router: Reply;
  steps: Reply[];
  message: string;
}

export function turnAnswers(world: SoakWorld): fc.Arbitrary<TurnAnswers> {
  return fc.record({
    router: routerAnswer,
    steps: fc.array(agentAnswer(world), { minLength: 1, maxLength: 14 }),
    message: fc.constantFrom(...Object.keys(AUTHORISES)),
  });
}
