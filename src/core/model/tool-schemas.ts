/**
 * Provider-neutral tool definitions: one zod schema per tool, turned into JSON Schema for
 * the model. The same schemas validate what the model sends back, so model output is
 * always data that has been checked. Pure module.
 */
import { z } from 'zod';
import type { AgentName } from '../events';
import { fileTypeSchema, importanceSchema } from '../domain';
import { OBJECT_ID } from '../ids';

const id = z.string().regex(OBJECT_ID, 'file ids are 24-character hex strings');
const WORK_AGENTS = ['planner', 'hook_designer', 'writer', 'quality_reviewer'] as const;

export const toolArgSchemas = {
  create_file: z
    .object({
      type: fileTypeSchema.describe('outline, character, setting, draft (a chapter), script, or folder'),
      title: z.string().min(1).max(200),
      content: z
        .string()
        .max(200_000)
        .optional()
        .describe(
          'Leave empty for long text: then write the body right after as a <file>…</file> block in your reply.',
        ),
      parent_id: id.optional().describe('Folder to create the file in.'),
      order: z.number().int().min(0).max(100_000).optional(),
      importance: importanceSchema
        .optional()
        .describe('Characters and settings: high (shapes the whole book), medium, or low.'),
    })
    .strict(),
  edit_file: z
    .object({
      id,
      operation: z.enum(['replace', 'insert', 'append', 'delete', 'rewrite']),
      anchor: z
        .string()
        .min(1)
        .max(20_000)
        .optional()
        .describe('Exact text already in the file (replace / insert / delete).'),
      text: z.string().max(200_000).optional().describe('New text (replace / insert / append / rewrite).'),
      position: z
        .enum(['before', 'after'])
        .optional()
        .describe('For insert: before or after the anchor (default after).'),
    })
    .strict()
    .superRefine((v, ctx) => {
      if (['replace', 'insert', 'delete'].includes(v.operation) && !v.anchor)
        ctx.addIssue({ code: 'custom', path: ['anchor'], message: `${v.operation} needs an exact anchor` });
      if (['replace', 'insert', 'append', 'rewrite'].includes(v.operation) && v.text === undefined)
        ctx.addIssue({ code: 'custom', path: ['text'], message: `${v.operation} needs text` });
    }),
  set_importance: z.object({ id, importance: importanceSchema }).strict(),
  delete_file: z
    .object({ id, recursive: z.boolean().optional().describe('Required to delete a non-empty folder.') })
    .strict(),
  query_files: z
    .object({
      id: id.optional().describe('Read one file in full.'),
      query: z.string().min(1).max(500).optional().describe('Search titles and text.'),
      type: fileTypeSchema.optional(),
      limit: z.number().int().min(1).max(50).optional(),
    })
    .strict(),
  update_project: z
    .object({
      summary: z.string().max(4000).optional(),
      style: z.string().max(4000).optional(),
      notes: z
        .string()
        .max(4000)
        .optional()
        .describe(
          "New note entries, one per line. An entry is recorded as author-confirmed only when it is itself a verbatim quote (or part of one) of the author's message this turn, listed in author_quotes; anything else is recorded as your proposal.",
        ),
      proposals: z
        .string()
        .max(4000)
        .optional()
        .describe(
          'Your complete list of proposals, one per line: replaces the proposal section. Proposals are not canon until the author confirms them.',
        ),
      author_quotes: z
        .array(z.string().min(1).max(1000))
        .max(20)
        .optional()
        .describe("Verbatim sentences from the author's message this turn that the note entries quote."),
      tasks: z
        .array(
          z
            .object({
              id: z.string().min(1).max(64),
              title: z.string().min(1).max(200),
              status: z.enum(['todo', 'in_progress', 'done']),
              artifact: z.string().max(200).optional(),
            })
            .strict(),
        )
        .max(200)
        .optional(),
    })
    .strict(),
  handoff_to_agent: z
    .object({
      agent: z.enum(WORK_AGENTS),
      reason: z.string().min(1).max(500),
      todo: z.string().max(2000).optional(),
    })
    .strict(),
  request_clarification: z
    .object({ question: z.string().min(1).max(2000), options: z.array(z.string().max(300)).max(8).optional() })
    .strict(),
  load_skill: z
    .object({ skill: z.string().min(1).max(100).describe('The skill’s name (or id) from the Skills list.') })
    .strict(),
  read_skill_resource: z
    .object({
      skill: z.string().min(1).max(100).describe('The skill’s name (or id).'),
      path: z.string().min(1).max(300).describe('A file listed by load_skill, or "SKILL.md" for the method itself.'),
      offset: z
        .number()
        .int()
        .min(0)
        .max(10_000_000)
        .optional()
        .describe('Character offset to continue from (next_offset of the previous page).'),
    })
    .strict(),
  parallel_execute: z
    .object({
      tasks: z
        .array(
          z
            .object({
              tool: z.enum(['query_files', 'load_skill', 'read_skill_resource']),
              arguments: z.record(z.string(), z.unknown()).describe('The arguments that tool takes.'),
            })
            .strict(),
        )
        .min(1)
        .max(8)
        .describe(
          'Read-only sub-tasks; they run at the same time and their results come back together, in this order.',
        ),
    })
    .strict(),
} as const;

/** Tools a parallel_execute batch may run: readers only, so running them at once is safe. */
export const PARALLEL_TOOLS = [
  'query_files',
  'load_skill',
  'read_skill_resource',
] as const satisfies readonly (keyof typeof toolArgSchemas)[];

export type ToolName = keyof typeof toolArgSchemas;
export type ToolArgs<T extends ToolName> = z.infer<(typeof toolArgSchemas)[T]>;
export const TOOL_NAMES = Object.keys(toolArgSchemas) as ToolName[];

export const FILE_WRITE_TOOLS: readonly ToolName[] = ['create_file', 'edit_file', 'delete_file', 'set_importance'];
/**
 * Refused on a read-only turn: the file-write tools, and parallel_execute as a whole even
 * when its batch only reads.
 */
export const READ_ONLY_REFUSED_TOOLS: readonly ToolName[] = [...FILE_WRITE_TOOLS, 'parallel_execute'];
export const CONTROL_TOOLS: readonly ToolName[] = ['handoff_to_agent', 'request_clarification'];

const TOOL_DESCRIPTIONS: Record<ToolName, string> = {
  create_file:
    'Create a project file. For long text leave content empty and stream the body in your reply as <file>…</file> right after this call; only one empty file may be pending at a time.',
  edit_file:
    'Edit a file precisely: replace/insert/delete an exact anchor, append at the end, or rewrite it whole. Anchors must match the current text exactly.',
  set_importance:
    "Set how much a character or setting matters to the book (high / medium / low): high ones are always in every agent's context, low ones only when there is room.",
  delete_file: 'Delete a file (folders need recursive=true).',
  query_files: 'Read a file in full by id, or search files by text and type.',
  update_project:
    'Update the project summary, style, notes (author-confirmed only with verbatim author_quotes; otherwise recorded as your proposals), proposals, or task board. Notes and proposals share 4000 characters.',
  handoff_to_agent: 'Hand the turn to another agent with a reason and what is left to do.',
  request_clarification: 'Ask the author a question and stop this turn until they answer.',
  load_skill:
    'Load one of the author’s enabled skills by name: its method and its list of files (counts toward the per-request skill limits).',
  read_skill_resource:
    'Read one file of a skill, or "SKILL.md" for its method, a page at a time (pass next_offset to continue).',
  parallel_execute:
    'Run several read-only lookups (query_files, load_skill, read_skill_resource) at once; the results come back together, in order.',
};

/** Which tools each agent may call. The reviewer reads and reports; it never writes. */
export const AGENT_TOOLS: Record<Exclude<AgentName, 'router'>, readonly ToolName[]> = {
  planner: TOOL_NAMES,
  hook_designer: TOOL_NAMES,
  writer: TOOL_NAMES,
  quality_reviewer: ['query_files', 'handoff_to_agent', 'request_clarification', 'load_skill', 'read_skill_resource'],
};

/**
 * Why `agent` may not call `name`, or null when it may. Every agent is sent every tool
 * (toolsForTurn), so a listed tool outside the agent's role is refused here, by name.
 */
export function toolRefusal(
  agent: Exclude<AgentName, 'router'>,
  name: string,
): { errorType: 'tool_not_found' | 'tool_not_permitted'; message: string } | null {
  const own = AGENT_TOOLS[agent] as readonly string[];
  if (own.includes(name)) return null;
  if (!(TOOL_NAMES as readonly string[]).includes(name))
    return {
      errorType: 'tool_not_found',
      message: `There is no tool "${name}". ${agent} can call: ${own.join(', ')}.`,
    };
  return {
    errorType: 'tool_not_permitted',
    message: `${agent} may not call "${name}": ${agent === 'quality_reviewer' ? 'the quality reviewer reads and reports and never changes files; say in your review what should change' : 'it is not one of this role’s tools'}. ${agent} can call: ${own.join(', ')}.`,
  };
}

export function agentHasWriteTools(agent: AgentName): boolean {
  return agent !== 'router' && AGENT_TOOLS[agent].some((t) => FILE_WRITE_TOOLS.includes(t));
}

export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** Tools some agent may not call: their description says so, in the list every agent is sent. */
const NOT_FOR: Partial<Record<ToolName, string>> = Object.fromEntries(
  TOOL_NAMES.filter((name) => !AGENT_TOOLS.quality_reviewer.includes(name)).map((name) => [
    name,
    ' (Not for the quality reviewer, which reads and reports.)',
  ]),
);

/**
 * The tool list sent to the model: one list for every agent of a turn, in one order, with one
 * wording. Providers cache a prompt's start with its tools first, so a list that differed per
 * agent made the reviewer re-read the whole project uncached; what an agent may call
 * is enforced when the call runs (AGENT_TOOLS), and the list says who a tool is not for. On a
 * read-only turn the write tools stay listed (so the model's plan does not change shape) but
 * their description says they are unavailable.
 */
export function toolsForTurn(opts: { readOnly: boolean; clarifyFirst: boolean }): ChatTool[] {
  return TOOL_NAMES.map((name) => {
    let description = `${TOOL_DESCRIPTIONS[name]}${NOT_FOR[name] ?? ''}`;
    if (READ_ONLY_REFUSED_TOOLS.includes(name) && opts.readOnly)
      description = `[Unavailable this turn: the author asked not to change files] ${description}`;
    else if (FILE_WRITE_TOOLS.includes(name) && opts.clarifyFirst)
      description = `[Unavailable until the author says what to change] ${description}`;
    return { type: 'function', function: { name, description, parameters: parametersOf(name) } };
  });
}

/**
 * Every tool's JSON Schema, converted once when the module loads (1–2 ms per step when converted
 * per request) and frozen: the module holds constants only, so the workflow bundle may preload it.
 */
const TOOL_PARAMETERS: Readonly<Record<ToolName, Readonly<Record<string, unknown>>>> = Object.freeze(
  Object.fromEntries(
    (Object.keys(toolArgSchemas) as ToolName[]).map((name) => {
      const { $schema: _drop, ...parameters } = z.toJSONSchema(toolArgSchemas[name], { io: 'input' }) as Record<
        string,
        unknown
      >;
      return [name, Object.freeze(parameters)];
    }),
  ) as Record<ToolName, Record<string, unknown>>,
);
const parametersOf = (name: ToolName): Record<string, unknown> => TOOL_PARAMETERS[name] as Record<string, unknown>;
