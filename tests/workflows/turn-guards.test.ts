/**
 * Guards and tools inside a real turn: read-only turns, clarify-first, tool errors and the
 * failure breaker, author protection, stale anchors, the one-pending-empty-file rule.
 */
import {
  api,
  createHarness,
  expectScriptFullyUsed,
  createProjectAndSession,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { agentsSelected, call, ofType, requestsOf, router, say } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '5000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

async function authorFile(projectId: string, title: string, content: string, type = 'draft'): Promise<string> {
  const r = await api<{ id: string }>(h, 'POST', '/api/v1/files', { projectId, type, title, content });
  if (r.status !== 201) {
    // Files API may not exist yet in this build: write directly as the author would.
    const f = await h.runtime.models.File.create({
      projectId,
      ownerId: 'local',
      type,
      title,
      content: '',
      versionCount: 0,
    });
    const { writeVersion } = await import('../../src/db/file-store');
    await writeVersion(h.runtime.models, String(f._id), content, { author: 'author', operation: 'author_edit' });
    return String(f._id);
  }
  return r.body.id;
}

test('read-only turn: write tools refused but listed as unavailable; handoff to the writer blocked with a non-terminal card; empty file rolled back', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'quality_reviewer', workflow_plan: 'review_only', read_only: true, write_content: false }),
    call('quality_reviewer', 'handoff_to_agent', { agent: 'planner', reason: 'needs a plan' }),
    say('quality_reviewer', 'The chapter reads well.'),
  ]);
  const r1 = await runTurn(h, sessionId, 'What do you think of chapter 1? Do not change anything.');
  expect(agentsSelected(r1.events)).toEqual(['quality_reviewer']);
  const stops = ofType(r1.events, 'workflow_stopped');
  expect(stops.map((s) => [s.data.reason, s.data.terminal])).toEqual([['read_only_handoff_blocked', false]]);
  // The card comes just before the terminal event.
  expect(r1.events[r1.events.length - 2]!.type).toBe('workflow_stopped');
  expect(r1.events[r1.events.length - 1]!.type).toBe('done');
  expect(r1.outcome.status).toBe('completed');

  const s2 = await createProjectAndSession(h);
  h.model.reset();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', read_only: true, write_content: false }),
    call('writer', 'create_file', { type: 'draft', title: 'Sneaky' }),
    say('writer', 'I could not save anything, as asked.'),
  ]);
  const r2 = await runTurn(h, s2.sessionId, 'Just tell me your thoughts, no changes');
  const result = ofType(r2.events, 'tool_result')[0]!;
  expect(result.data).toMatchObject({ name: 'create_file', ok: false, errorType: 'read_only_request' });
  const writer = requestsOf(h.model, 'writer')[0]!;
  expect(writer.tools).toContain('create_file');
  expect(writer.toolDescriptions.create_file).toMatch(/Unavailable this turn/);
  expect(await h.runtime.models.File.countDocuments({ projectId: s2.projectId })).toBe(0);
  expect(await h.runtime.models.File.countDocuments({ projectId })).toBe(0);
});

test('clarify_first: a vague request makes the writer ask; write tools refuse with clarify_first; explicit handoffs dropped', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    call('writer', 'edit_file', { id: 'a'.repeat(24), operation: 'append', text: 'more' }),
    call('writer', 'handoff_to_agent', { agent: 'planner', reason: 'plan it' }),
    say('writer', 'What would you like me to change: pacing, dialogue or the ending?'),
  ]);
  const r = await runTurn(h, sessionId, '帮我优化一下');
  expect(h.model.requests.some((q) => q.agent === 'router')).toBe(false);
  expect(r.turn.routing).toMatchObject({ clarify_first: true, source: 'clarify_first', current_agent: 'writer' });
  expect(ofType(r.events, 'tool_result').map((e) => [e.data.name, e.data.errorType])).toEqual([
    ['edit_file', 'clarify_first'],
    ['handoff_to_agent', 'clarify_first'],
  ]);
  expect(agentsSelected(r.events)).toEqual(['writer']);
  expect(r.outcome).toMatchObject({ status: 'awaiting_author', stopReason: 'question_to_author' });
  expect(requestsOf(h.model, 'writer')[0]!.system).toMatch(/Chinese/);
});

test('tool errors come back as data; a tool outside the role is refused; three identical failures open the circuit with an error event', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const badEdit = call('quality_reviewer', 'edit_file', { id: 'a'.repeat(24), operation: 'append', text: 'x' });
  h.model.script([
    router({ current_agent: 'quality_reviewer', workflow_plan: 'review_only', write_content: false }),
    badEdit,
    badEdit,
    badEdit,
  ]);
  const r = await runTurn(h, sessionId, 'Review and fix chapter 1');
  const results = ofType(r.events, 'tool_result');
  expect(results.map((e) => e.data.errorType)).toEqual([
    'tool_not_permitted',
    'tool_not_permitted',
    'tool_not_permitted',
  ]);
  expect(results.every((e) => e.toolCallId)).toBe(true);
  const error = ofType(r.events, 'error')[0]!;
  expect(error.data.code).toBe('repeated_unavailable_tool_call');
  expect(r.outcome).toMatchObject({ status: 'failed', stopReason: 'tool_failure_circuit_open' });
  // The model saw the structured error, not an exception.
  expect(requestsOf(h.model, 'quality_reviewer')[1]!.all).toContain('"error_type":"tool_not_permitted"');
  expect(requestsOf(h.model, 'quality_reviewer')[1]!.all).toContain(
    'the quality reviewer reads and reports and never changes files',
  );
});

test('invalid arguments and unknown ids are readable errors', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'poem', title: '' }),
    call('writer', 'edit_file', { id: 'b'.repeat(24), operation: 'replace', anchor: 'x', text: 'y' }),
    call('writer', 'query_files', '{not json'),
    say('writer', 'Nothing worked.'),
  ]);
  const r = await runTurn(h, sessionId, 'do things');
  expect(ofType(r.events, 'tool_result').map((e) => e.data.errorType)).toEqual([
    'invalid_arguments',
    'not_found',
    'invalid_arguments',
  ]);
});

test('author protection: deleting or rewriting the author’s file is refused unless named and asked; touching author text is reported', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const fileId = await authorFile(projectId, 'Prologue', 'My own opening line.\nThe AI wrote nothing here.');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'delete_file', { id: fileId }),
    call('writer', 'edit_file', { id: fileId, operation: 'rewrite', text: 'Replaced.' }),
    call('writer', 'edit_file', {
      id: fileId,
      operation: 'replace',
      anchor: 'My own opening line.',
      text: 'A sharper opening line.',
    }),
    say('writer', 'I kept your prologue and sharpened the first line.'),
  ]);
  const r = await runTurn(h, sessionId, 'Tighten the first line of the prologue');
  const results = ofType(r.events, 'tool_result').map((e) => e.data);
  expect(results[0]).toMatchObject({
    name: 'delete_file',
    ok: false,
    errorType: 'author_declined',
    refusal: 'kept_your_edits',
  });
  expect(results[1]).toMatchObject({
    name: 'edit_file',
    ok: false,
    errorType: 'author_declined',
    refusal: 'kept_your_edits',
  });
  expect(results[2]).toMatchObject({ name: 'edit_file', ok: true });
  expect(results[2]!.result).toMatchObject({ author_edits_touched: true });
  const file = await h.runtime.models.File.findById(fileId).lean();
  expect(file?.content).toBe('A sharper opening line.\nThe AI wrote nothing here.');
  expect(file?.deletedAt).toBeNull();

  h.model.reset();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'delete_file', { id: fileId }),
    say('writer', 'Deleted.'),
  ]);
  const r2 = await runTurn(h, sessionId, 'Please delete the Prologue file.');
  expect(ofType(r2.events, 'tool_result')[0]!.data).toMatchObject({ ok: true });
  expect((await h.runtime.models.File.findById(fileId).lean())?.deletedAt).not.toBeNull();
});

test('stale_content: the author changed the anchor after the model read the file', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const fileId = await authorFile(projectId, 'Chapter 1', 'The sea was calm.\nNobody spoke.');
  const { writeVersion } = await import('../../src/db/file-store');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'query_files', { id: fileId }),
    // Between these steps the author edits the file (see the request hook below).
    call('writer', 'edit_file', {
      id: fileId,
      operation: 'replace',
      anchor: 'The sea was calm.',
      text: 'The sea was furious.',
    }),
    say('writer', 'Your text changed meanwhile; I left it alone.'),
  ]);
  const edited = h.model.waitForRequests(3).then(() =>
    writeVersion(h.runtime.models, fileId, 'The sea was glass.\nNobody spoke.', {
      author: 'author',
      operation: 'author_edit',
    }),
  );
  const r = await runTurn(h, sessionId, 'Make the sea in chapter 1 angrier');
  await edited;
  const res = ofType(r.events, 'tool_result').map((e) => e.data);
  expect(res[1]).toMatchObject({ name: 'edit_file', ok: false, errorType: 'stale_content' });
  expect(JSON.stringify(res[1]!.result)).toContain('The sea was glass.');
  expect((await h.runtime.models.File.findById(fileId).lean())?.content).toBe('The sea was glass.\nNobody spoke.');
});

test('one pending empty file at a time; re-creating the same one returns it with a hint', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 1' }),
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 2' }),
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 1' }),
    say('writer', '<file>\nBody of one.\n</file>'),
    say('writer', 'Done.'),
  ]);
  const r = await runTurn(h, sessionId, 'Write chapters 1 and 2');
  const res = ofType(r.events, 'tool_result').map((e) => e.data);
  expect(res[0]).toMatchObject({ ok: true });
  expect(res[1]).toMatchObject({ ok: false, errorType: 'pending_empty_file_unwritten' });
  expect(res[2]).toMatchObject({ ok: true });
  expect(res[2]!.result).toMatchObject({ next_step: expect.stringContaining('<file>') });
  const files = await h.runtime.models.File.find({ projectId }).lean();
  expect(files.map((f) => [f.title, f.content])).toEqual([['Chapter 1', 'Body of one.\n']]);
});

test('query_files by query, update_project, and delete of a folder needs recursive', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const folder = await h.runtime.models.File.create({ projectId, ownerId: 'local', type: 'folder', title: 'Act I' });
  const folderId = String(folder._id);
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'standard', workflow_agents: ['planner'], write_content: false }),
    call('planner', 'create_file', {
      type: 'character',
      title: 'Mara',
      content: 'Mara, a boat-builder with a secret.',
      parent_id: folderId,
    }),
    call('planner', 'query_files', { query: 'boat-builder' }),
    call('planner', 'update_project', {
      summary: 'A storm novel',
      tasks: [{ id: 't1', title: 'Chapter 1', status: 'todo' }],
    }),
    call('planner', 'delete_file', { id: folderId }),
    call('planner', 'delete_file', { id: folderId, recursive: true }),
    say('planner', 'Done.'),
  ]);
  const r = await runTurn(h, sessionId, 'Add Mara to Act I, then remove Act I');
  const res = ofType(r.events, 'tool_result').map((e) => e.data);
  expect(res.map((x) => x.ok)).toEqual([true, true, true, false, true]);
  expect(res[1]!.result).toMatchObject({ results: [expect.objectContaining({ title: 'Mara' })] });
  expect(res[3]!.errorType).toBe('folder_not_empty');
  const project = await h.runtime.models.Project.findById(projectId).lean();
  expect(project).toMatchObject({ summary: 'A storm novel' });
  expect(await h.runtime.models.File.countDocuments({ projectId, deletedAt: null })).toBe(0);
  // Breadcrumbs on the assistant message list the operations.
  const msg = await h.runtime.models.Message.findOne({ turnId: r.turnId, role: 'assistant' }).lean();
  expect(msg?.breadcrumb.map((b) => b.op)).toEqual(expect.arrayContaining(['created', 'deleted']));
});

test('a lone </file> outside a capture never reaches chat; streaming files work after create_file', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([router({ current_agent: 'writer', workflow_plan: 'quick' }), say('writer', 'Hello.\n</file>\nBye.')]);
  const r = await runTurn(h, sessionId, 'say hi');
  const chat = ofType(r.events, 'content')
    .map((e) => e.data.delta)
    .join('');
  expect(chat).toBe('Hello.\nBye.');
  const msg = await h.runtime.models.Message.findOne({ turnId: r.turnId, role: 'assistant' }).lean();
  expect(msg?.content).toBe('Hello.\nBye.');
});
