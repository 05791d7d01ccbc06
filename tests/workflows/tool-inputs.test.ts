/**
 * Model output is data: every tool call goes through zod and the turn's project
 * before anything is written. A table of hostile or broken calls, each made by the scripted
 * model in a real turn and run by the real tool activity (executeTool): each answers its
 * structured error, the turn goes on, and MongoDB is exactly as before.
 */
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { call, ofType, router, say } from '../helpers/script';

let h: Harness;
let own: { projectId: string; fileId: string };
let other: { projectId: string; fileId: string; folderId: string };

beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '100000' } });
  const a = await createProjectAndSession(h);
  const b = await createProjectAndSession(h);
  const mk = async (projectId: string, type: string, title: string, content?: string) =>
    (
      await api<{ id: string }>(h, 'POST', '/api/v1/files', {
        projectId,
        type,
        title,
        ...(content !== undefined ? { content } : {}),
      })
    ).body.id;
  own = { projectId: a.projectId, fileId: await mk(a.projectId, 'draft', 'Chapter 1', 'The harbour was quiet.') };
  other = {
    projectId: b.projectId,
    fileId: await mk(b.projectId, 'draft', 'Secret chapter', 'Not yours.'),
    folderId: await mk(b.projectId, 'folder', 'Secret folder'),
  };
}, 60000);
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

/** Everything a tool could have written, in both projects. */
async function snapshot() {
  const m = h.runtime.models;
  const files = await m.File.find({ projectId: { $in: [own.projectId, other.projectId] } })
    .sort({ _id: 1 })
    .lean();
  const projects = await m.Project.find({ _id: { $in: [own.projectId, other.projectId] } })
    .sort({ _id: 1 })
    .lean();
  return {
    files: files.map((f) => ({
      id: String(f._id),
      title: f.title,
      content: f.content,
      versions: f.versionCount,
      deletedAt: f.deletedAt,
      parentId: f.parentId,
      pending: f.pendingTurnId,
    })),
    versions: await m.FileVersion.countDocuments({ fileId: { $in: files.map((f) => String(f._id)) } }),
    projects: projects.map((p) => ({ summary: p.summary, style: p.style, notes: p.notes, tasks: p.tasks })),
  };
}

const HUGE = 'x'.repeat(1_000_000);
type Row = [string, 'writer' | 'quality_reviewer', string, () => Record<string, unknown> | string, string];
const rows: Row[] = [
  [
    'arguments that fail validation (unknown file type)',
    'writer',
    'create_file',
    () => ({ type: 'poem', title: 'Ode' }),
    'invalid_arguments',
  ],
  [
    'an argument the schema does not know (strict)',
    'writer',
    'create_file',
    () => ({ type: 'draft', title: 'Ch 2', owner: 'someone-else' }),
    'invalid_arguments',
  ],
  [
    'an edit without its required anchor',
    'writer',
    'edit_file',
    () => ({ id: own.fileId, operation: 'replace', text: 'new' }),
    'invalid_arguments',
  ],
  ['arguments that are not JSON', 'writer', 'create_file', () => '{"type":"draft","title":', 'invalid_arguments'],
  ['JSON that is not an object', 'writer', 'update_project', () => '[1,2,3]', 'invalid_arguments'],
  [
    'a __proto__ key (prototype pollution)',
    'writer',
    'update_project',
    () => '{"__proto__":{"polluted":true},"summary":"hijacked"}',
    'invalid_arguments',
  ],
  ['an unknown tool', 'writer', 'format_disk', () => ({ path: '/' }), 'tool_not_found'],
  [
    'a tool outside the agent’s set (the reviewer writing)',
    'quality_reviewer',
    'create_file',
    () => ({ type: 'draft', title: 'Sneaky', content: 'x' }),
    'tool_not_permitted',
  ],
  [
    'a batch with a tool outside the agent’s set (the reviewer batching reads)',
    'quality_reviewer',
    'parallel_execute',
    () => ({ tasks: [{ tool: 'query_files', arguments: { id: own.fileId } }] }),
    'tool_not_permitted',
  ],
  [
    'huge arguments (1 MB of content)',
    'writer',
    'create_file',
    () => ({ type: 'draft', title: 'Huge', content: HUGE }),
    'invalid_arguments',
  ],
  [
    'a huge task board',
    'writer',
    'update_project',
    () => ({ tasks: Array.from({ length: 500 }, (_, i) => ({ id: `t${i}`, title: 'T', status: 'todo' })) }),
    'invalid_arguments',
  ],
  ['reading a file of another project', 'writer', 'query_files', () => ({ id: other.fileId }), 'not_found'],
  [
    'editing a file of another project',
    'writer',
    'edit_file',
    () => ({ id: other.fileId, operation: 'append', text: ' Mine now.' }),
    'not_found',
  ],
  ['deleting a file of another project', 'writer', 'delete_file', () => ({ id: other.fileId }), 'not_found'],
  [
    'creating a file inside another project’s folder',
    'writer',
    'create_file',
    () => ({ type: 'draft', title: 'Intruder', content: 'x', parent_id: other.folderId }),
    'not_found',
  ],
  ['a file id that is not an id', 'writer', 'query_files', () => ({ id: '../../etc/passwd' }), 'invalid_arguments'],
];

test.each(rows)(
  '%s: %s → %s %s, nothing written',
  async (_name, agent, tool, args, errorType) => {
    const before = await snapshot();
    h.model.script([
      agent === 'writer'
        ? router({ current_agent: 'writer', workflow_plan: 'quick' })
        : router({ current_agent: 'quality_reviewer', workflow_plan: 'review_only', write_content: false }),
      call(agent, tool, args()),
      say(agent, 'Understood.'),
    ]);
    // A fresh session per row: each turn's history stays small.
    const session = await api<{ id: string }>(h, 'POST', '/api/v1/sessions', { projectId: own.projectId });
    const r = await runTurn(
      h,
      session.body.id,
      agent === 'writer' ? 'Tighten the dialogue in chapter 1' : 'Review chapter 1',
    );
    expect(r.outcome.status).toBe('completed');
    const results = ofType(r.events, 'tool_result');
    expect(results).toHaveLength(1);
    expect(results[0]!.data).toMatchObject({ name: tool, ok: false, errorType });
    // The model got the structured error back as the tool message.
    const exec = await h.runtime.models.ToolExecution.findOne({ turnId: r.turnId }).lean();
    expect(exec?.result).toMatchObject({ body: { ok: false, error_type: errorType } });
    expect(await snapshot()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  },
  120_000,
);

test('a well-formed create_file takes its folder count from the read its step started while the call streamed', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  for (const title of ['Outline', 'Chapter 1'])
    await api(h, 'POST', '/api/v1/files', { projectId, type: 'draft', title, content: 'Text.' });
  const files = h.runtime.models.File;
  const aggregate = jest.spyOn(files, 'aggregate');
  const countDocuments = jest.spyOn(files, 'countDocuments');
  try {
    h.model.script([
      router({ current_agent: 'writer', workflow_plan: 'quick' }),
      call('writer', 'create_file', { type: 'draft', title: 'Chapter 2', content: 'Rain.' }),
      say('writer', 'Chapter 2 is there.'),
    ]);
    const r = await runTurn(h, sessionId, 'Add chapter 2');
    expect(ofType(r.events, 'tool_result')[0]!.data).toMatchObject({ name: 'create_file', ok: true });
    // One read of every folder's count, started by the step; the call did not count its folder itself.
    const countReads = aggregate.mock.calls.filter(([pipeline]) => JSON.stringify(pipeline).includes('"$parentId"'));
    expect(countReads).toHaveLength(1);
    expect(countDocuments.mock.calls.filter(([filter]) => filter && 'parentId' in filter)).toHaveLength(0);
    expect((await files.findOne({ projectId, title: 'Chapter 2' }).lean())!.order).toBe(2);
  } finally {
    aggregate.mockRestore();
    countDocuments.mockRestore();
  }
}, 120_000);
