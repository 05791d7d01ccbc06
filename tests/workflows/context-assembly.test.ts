/**
 * Context for long books on real services: what an
 * agent is actually sent when the budget is tight, the working set of the last two turns,
 * context assembled once per turn, and importance set by the author or the planner.
 */
import { buildAgentMessages } from '../../src/activities/step/agent-messages';
import { assembleTurnContext, ensureTurnContext, storeTurnContext } from '../../src/activities/context';
import { createWorkerCaches, type WorkerCaches } from '../../src/activities/worker-caches';
import type { LlmStepInput } from '../../src/core/turn/turn-types';
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { call, ofType, requestsOf, router, say } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    config: {
      AGENT_CONTEXT_TOKEN_BUDGET: '1500',
      AGENT_WORKING_SET_MAX_FILES: '2',
      AGENT_WORKING_SET_MAX_CHARS: '3000',
      REVIEW_WORD_THRESHOLD: '100000',
    },
  });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

async function authorFile(
  projectId: string,
  title: string,
  content: string,
  type = 'draft',
  importance?: string,
): Promise<string> {
  const r = await api<{ id: string }>(h, 'POST', '/api/v1/files', {
    projectId,
    type,
    title,
    content,
    ...(importance ? { importance } : {}),
  });
  if (r.status !== 201) throw new Error(`file create failed ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body.id;
}

/** Context settings of the tests that drive a step's context directly. */
const STEP_SETTINGS = {
  contextTokens: 1500,
  historyTokens: 1000,
  ledgerCeiling: 160000,
  workingSetMaxFiles: 2,
  workingSetMaxChars: 3000,
};

/** The tests that drive a step's context directly each run as one worker, with its own caches. */
let caches: WorkerCaches;
beforeEach(() => {
  caches = createWorkerCaches();
});

/** The first step of a writer run in `turnId`, as the workflow would start it (tests that drive a step's context directly). */
const writerFirstStep = (turnId: string, scope: string): LlmStepInput => ({
  turnId,
  run: 0,
  step: 1,
  agent: 'writer',
  runTools: { flags: { readOnly: false, clarifyFirst: false } },
  slot: 1,
  runKind: 'initial',
  packet: null,
  scope: { scope, writeContent: true, readOnly: false, clarifyFirst: false, remainingPlan: [] },
  pendingFileId: null,
  holdChat: false,
  steering: [],
  prelude: [],
});

/** A project with one authored chapter and a turn (not started) asking to tighten it. */
async function chapterTurn(text: string) {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const ch = await authorFile(projectId, 'Chapter 1', text);
  const turn = await h.runtime.models.Turn.create({
    sessionId,
    projectId,
    ownerId: 'local',
    message: 'Tighten chapter 1.',
    workflowId: 'direct',
  });
  return { sessionId, projectId, ch, turnId: String(turn._id) };
}

/** A paragraph of distinct sentences that names its subject (no two files share their text). */
const prose = (subject: string, chars: number): string => {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += `${subject} remembers harbour night ${i} and the ${i % 7} lanterns. `;
  return out.slice(0, chars);
};

/**
 * The project context of a request: the standing part (after the system prompt) and the part
 * that moves from turn to turn (the system message after the history), as one text.
 */
const contextText = (messages: { role: string; content?: unknown }[]): string =>
  messages
    .filter((m) => m.role === 'system')
    .slice(1)
    .map((m) => String(m.content))
    .join('\n\n');
/** The project context of each request an agent made. */
const contextOf = (agent: 'writer' | 'planner') => requestsOf(h.model, agent).map((r) => contextText(r.messages));
/** The author's message as an agent's first request carried it (the last user message: no packet on a quick plan). */
const userOf = (agent: 'writer' | 'planner', i: number) => {
  const msgs = requestsOf(h.model, agent)[i]!.messages;
  return String(msgs.filter((m) => m.role === 'user').pop()!.content);
};

test('a character named in the message is in context even when the budget is tight', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  for (let i = 0; i < 12; i++)
    await authorFile(
      projectId,
      `Sailor ${String.fromCharCode(65 + i)}${i}`,
      prose(`Sailor${i}`, 700),
      'character',
      'high',
    );
  const named = await authorFile(projectId, 'Orsolya Brandt', prose('Orsolya', 700), 'character', 'low');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', scope: 'one scene' }),
    say('writer', 'Noted.'),
  ]);
  await runTurn(h, sessionId, 'Write a short scene where Orsolya Brandt meets the harbour master.');
  const context = contextOf('writer')[0]!;
  expect(context).toContain(`Orsolya Brandt (id=${named}) [full]`);
  expect(context).toContain(prose('Orsolya', 700));
  // The budget really was tight: most high-importance cards did not fit, yet all stay in the file list.
  expect(context.match(/\) \[full\]/g)!.length).toBeLessThan(6);
  expect(context.match(/^- Sailor /gm)!.length).toBe(12);
});

test('a sibling chapter of the focus file is in context, and a passage the message asks about comes as a snippet', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const ids: string[] = [];
  for (let i = 1; i <= 12; i++) {
    const body =
      i === 2
        ? `${prose('Chapter2', 300)}\n\nShe hid the brass key under the ferry bell.\n\n${prose('Chapter2b', 300)}`
        : prose(`Chapter${i}`, 300);
    ids.push(await authorFile(projectId, `Chapter ${i}`, body));
  }
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', scope: 'polish chapter 6' }),
    say('writer', 'Polished.'),
  ]);
  await runTurn(h, sessionId, 'Polish this chapter and keep the brass key under the ferry bell consistent.', {
    focusFileId: ids[5],
  });
  const context = contextOf('writer')[0]!;
  expect(context).toContain(`Chapter 6 (id=${ids[5]}) [full]`);
  expect(context).toContain(`Chapter 5 (id=${ids[4]}) [full]`);
  expect(context).toContain(`Chapter 7 (id=${ids[6]}) [full]`);
  expect(context).toMatch(
    new RegExp(
      `Chapter 2 \\(id=${ids[1]}\\) \\[retrieved snippet, characters \\d+–\\d+ of \\d+; not the full text: read it with query_files\\(id="${ids[1]}"\\)\\]\\n[^#]*She hid the brass key`,
    ),
  );
  // Far chapters are not given whole before the neighbours.
  expect(context).not.toContain(`Chapter 1 (id=${ids[0]}) [full]`);
  expect(context.indexOf('Chapter 7 (id=')).toBeLessThan(context.indexOf('[retrieved snippet'));
});

test("the working set carries the last two turns' files with content within its limits (one line when already [full] in context), author edits marked, before the labelled message", async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  // A long high-importance card fills the context budget, so the working set is what carries the files.
  await authorFile(projectId, 'Ballast', prose('Ballast', 9000), 'character', 'high');
  h.model.script([
    router({
      current_agent: 'planner',
      workflow_plan: 'standard',
      workflow_agents: ['planner', 'writer'],
      scope: 'notes and a scene',
    }),
    call('planner', 'create_file', { type: 'setting', title: 'Harbour notes', content: prose('Notes', 1200) }),
    say('planner', 'Notes saved.'),
    call('writer', 'create_file', { type: 'draft', title: 'Scene one', content: prose('Scene', 1000) }),
    say('writer', 'Scene saved.'),
  ]);
  const t1 = await runTurn(h, sessionId, 'Make harbour notes and write the first scene.');
  expect(t1.outcome.status).toBe('completed');
  const notes = (await h.runtime.models.File.findOne({ projectId, title: 'Harbour notes' }).lean())!;
  const scene = (await h.runtime.models.File.findOne({ projectId, title: 'Scene one' }).lean())!;
  const edit = await api(h, 'PUT', `/api/v1/files/${String(scene._id)}`, {
    content: `${scene.content}\nThe author's own closing line.`,
  });
  expect(edit.status).toBe(200);

  h.model.reset();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'query_files', { id: String(notes._id) }),
    say('writer', 'Read them.'),
  ]);
  await runTurn(h, sessionId, 'Look over the harbour notes again please.');
  const second = userOf('writer', 0);
  expect(second.startsWith('<previous_turn_working_set>')).toBe(true);
  expect(second).toContain(
    `Scene one (id=${String(scene._id)}) [full]\n${scene.content}\nThe author's own closing line.\n<author_edits>\nThe author's own closing line.\n</author_edits>`,
  );
  // The message names the notes, so the context carries them whole: the working set gives them one line.
  expect(contextOf('writer')[0]).toContain(`Harbour notes (id=${String(notes._id)}) [full]\n${notes.content}`);
  expect(second).toContain(`- Harbour notes (id=${String(notes._id)}) (full text in the project context)`);
  expect(
    second.endsWith(
      "</previous_turn_working_set>\n\n[This turn's user message]\nLook over the harbour notes again please.",
    ),
  ).toBe(true);

  h.model.reset();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'draft', title: 'Long scene', content: prose('Long', 3500) }),
    say('writer', 'Long scene saved.'),
  ]);
  await runTurn(h, sessionId, 'Write a long scene at the lighthouse.');
  h.model.reset();
  h.model.script([router({ current_agent: 'writer', workflow_plan: 'quick' }), say('writer', 'Ready.')]);
  await runTurn(h, sessionId, 'What should come next in the book?');
  const fourth = userOf('writer', 0);
  const long = (await h.runtime.models.File.findOne({ projectId, title: 'Long scene' }).lean())!;
  // Last two turns only: the notes read in turn 2 (whole) and the long scene of turn 3, over the 3000-character limit (listed).
  expect(fourth).toContain(`Harbour notes (id=${String(notes._id)}) [full]\n${notes.content}`);
  expect(fourth).toContain(
    `Long scene (id=${String(long._id)}, draft): not shown here (working-set limit); read it with query_files(id="${String(long._id)}")`,
  );
  expect(fourth).not.toContain(prose('Long', 3500).slice(0, 200));
  expect(fourth).not.toContain('Scene one');
});

test('context is assembled once per turn: later steps reuse it and a file changed mid-turn is marked as changed, not silently re-read', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const ch = await authorFile(projectId, 'Chapter 1', prose('Opening', 600));
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'edit_file', { id: ch, operation: 'append', text: 'A NEW LINE WRITTEN THIS TURN.' }),
    call('writer', 'query_files', { query: 'harbour' }),
    say('writer', 'Appended.'),
  ]);
  const { turnId } = await runTurn(h, sessionId, 'Add one closing line to chapter 1.');
  const [first, second, third] = contextOf('writer');
  expect(first).toContain(`Chapter 1 (id=${ch}) [full]`);
  expect(second).toContain(
    `Chapter 1 (id=${ch}) [changed during this request: the text below is from its start; read the current text with query_files(id="${ch}")]`,
  );
  expect(second).not.toContain('A NEW LINE WRITTEN THIS TURN.');
  // Apart from the mark, later steps get exactly the first step's context: nothing was rebuilt.
  expect(second!.replace(/ \[changed during this request[^\]]*\]/, ' [full]')).toBe(first);
  expect(third).toBe(second);
  expect(await h.runtime.models.TurnContext.countDocuments({ _id: turnId })).toBe(1);
});

test('a retried step reuses the stored context: an author edit between attempts is marked as changed, not silently re-read', async () => {
  const { sessionId, projectId, ch, turnId } = await chapterTurn(prose('Retry', 600));
  const input = writerFirstStep(turnId, 'chapter 1');
  const first = await buildAgentMessages(h.runtime.models, caches, input, STEP_SETTINGS);
  expect(contextText(first.messages)).toContain(`Chapter 1 (id=${ch}) [full]`);
  await first.storeContext();
  // The model saw version 1 in full: an edit against older text would be stale.
  expect((await h.runtime.models.ReadSnapshot.findById(`${turnId}:${ch}`).lean())!.version).toBe(1);
  await api(h, 'PUT', `/api/v1/files/${ch}`, { content: 'THE AUTHOR REWROTE THIS BETWEEN ATTEMPTS.' });
  const retry = await buildAgentMessages(h.runtime.models, caches, input, STEP_SETTINGS);
  const context = contextText(retry.messages);
  expect(context).not.toContain('THE AUTHOR REWROTE THIS');
  expect(context).toContain(`Chapter 1 (id=${ch}) [changed during this request`);
  expect(retry.ledger.changed).toEqual([ch]);
  expect(retry.owner).toEqual({ sessionId, projectId, ownerId: 'local', jobId: null });
});

test("a step's tool calls take the Turn's fields from its context; a context stored without the focus file leaves them to a read of the Turn", async () => {
  const { sessionId, projectId, ch, turnId } = await chapterTurn(prose('Focus', 300));
  await h.runtime.models.Turn.updateOne({ _id: turnId }, { $set: { focusFileId: ch } });
  const input = writerFirstStep(turnId, 'chapter 1');
  const built = await buildAgentMessages(h.runtime.models, createWorkerCaches(), input, STEP_SETTINGS);
  expect(built.toolTurn).toEqual({
    sessionId,
    projectId,
    ownerId: 'local',
    jobId: null,
    message: 'Tighten chapter 1.',
    focusFileId: ch,
  });
  await built.storeContext();
  // Read back by another worker: the same fields.
  const later = { ...input, step: 2 };
  expect((await buildAgentMessages(h.runtime.models, createWorkerCaches(), later, STEP_SETTINGS)).toolTurn).toEqual(
    built.toolTurn,
  );
  // Stored before contexts kept the focus file: none, and the step reads the Turn for its calls.
  await h.runtime.models.TurnContext.collection.updateOne({ _id: turnId } as never, { $unset: { focusFileId: '' } });
  expect((await buildAgentMessages(h.runtime.models, createWorkerCaches(), later, STEP_SETTINGS)).toolTurn).toBeNull();
});

test('each file shown whole is checked against the version it was shown at: the one that moved on and the one trashed are marked, the rest not', async () => {
  const { projectId, ch, turnId } = await chapterTurn(prose('First', 500));
  const second = await authorFile(projectId, 'Chapter 2', prose('Second', 500));
  const third = await authorFile(projectId, 'Chapter 3', prose('Third', 500));
  // Shown at version 2 (one edit before the turn) beside files shown at version 1.
  await api(h, 'PUT', `/api/v1/files/${second}`, { content: prose('Second again', 500) });
  const input = writerFirstStep(turnId, 'chapters 1 to 3');
  const first = await buildAgentMessages(h.runtime.models, caches, input, STEP_SETTINGS);
  await first.storeContext();
  const shown = (await h.runtime.models.TurnContext.findById(turnId).lean())!.shown.map((s) => [s.fileId, s.version]);
  expect(shown).toEqual(
    expect.arrayContaining([
      [ch, 1],
      [second, 2],
      [third, 1],
    ]),
  );
  expect(first.ledger.changed).toEqual([]);
  // Chapter 2 moves on to version 3 and chapter 3 goes to the trash; chapter 1 stays as shown.
  await api(h, 'PUT', `/api/v1/files/${second}`, { content: 'THE AUTHOR REWROTE CHAPTER 2.' });
  expect((await api(h, 'DELETE', `/api/v1/files/${third}`)).status).toBeLessThan(300);
  const later = await buildAgentMessages(h.runtime.models, caches, { ...input, step: 2 }, STEP_SETTINGS);
  expect([...later.ledger.changed].sort()).toEqual([second, third].sort());
  const context = contextText(later.messages);
  expect(context).toContain(`Chapter 1 (id=${ch}) [full]`);
  expect(context).toContain(`Chapter 2 (id=${second}) [changed during this request`);
  expect(context).toContain(`Chapter 3 (id=${third}) [changed during this request`);
});

test("a worker that built or read a turn's context serves later steps from memory, not from MongoDB", async () => {
  const { turnId } = await chapterTurn(prose('Cached', 600));
  const first = await ensureTurnContext(h.runtime.models, caches, STEP_SETTINGS, turnId, 'chapter 1');
  await first.store();
  expect(await h.runtime.models.TurnContext.countDocuments({ _id: turnId })).toBe(1);
  // Gone from the database: a step on this worker still gets the same context, without
  // reading or rebuilding it (a rebuild would store it again).
  await h.runtime.models.TurnContext.deleteOne({ _id: turnId });
  const later = await ensureTurnContext(h.runtime.models, caches, STEP_SETTINGS, turnId, 'chapter 1');
  await later.store();
  expect(later.context).toBe(first.context);
  expect(await h.runtime.models.TurnContext.countDocuments({ _id: turnId })).toBe(0);
});

test('the step that builds a context has it before it is stored, and stores it when asked: the seen versions, then the context', async () => {
  const { ch, turnId } = await chapterTurn(prose('Stored', 300));
  const built = await ensureTurnContext(h.runtime.models, caches, STEP_SETTINGS, turnId, 'chapter 1');
  expect(built.context.contextMoving).toContain(`Chapter 1 (id=${ch}) [full]`);
  // Nothing goes on record until the step asks (it does once its request is out), and it is stored once.
  expect(await h.runtime.models.TurnContext.countDocuments({ _id: turnId })).toBe(0);
  expect(await h.runtime.models.ReadSnapshot.countDocuments({ _id: `${turnId}:${ch}` })).toBe(0);
  expect(built.store()).toBe(built.store());
  await built.store();
  expect((await h.runtime.models.ReadSnapshot.findById(`${turnId}:${ch}`).lean())!.version).toBe(1);
  const stored = await h.runtime.models.TurnContext.findById(turnId).lean();
  expect([stored!.context, stored!.contextMoving]).toEqual([built.context.context, built.context.contextMoving]);
  // Storing the same context again (a retried store, or an attempt that raced to the same result) is a no-op.
  await expect(storeTurnContext(h.runtime.models, built.context)).resolves.toBeUndefined();
  expect(await h.runtime.models.TurnContext.countDocuments({ _id: turnId })).toBe(1);
});

test('an attempt whose context lost the race to a different one fails, so nothing is recorded against a prompt no later step sees', async () => {
  const { ch, turnId } = await chapterTurn(prose('Raced', 300));
  const mine = await assembleTurnContext(h.runtime.models, caches, STEP_SETTINGS, turnId, 'chapter 1');
  // Another attempt read the chapter after the author changed it, and stored first.
  await api(h, 'PUT', `/api/v1/files/${ch}`, { content: 'THE AUTHOR REWROTE THIS.' });
  const theirs = await assembleTurnContext(h.runtime.models, caches, STEP_SETTINGS, turnId, 'chapter 1');
  await storeTurnContext(h.runtime.models, theirs);
  await expect(storeTurnContext(h.runtime.models, mine)).rejects.toThrow(/different context/);
  expect((await h.runtime.models.TurnContext.findById(turnId).lean())!.contextMoving).toContain(
    'THE AUTHOR REWROTE THIS.',
  );
  // The winner's own retry goes on.
  await expect(storeTurnContext(h.runtime.models, theirs)).resolves.toBeUndefined();
});

test('importance: the author sets it over REST, the planner through create_file and set_importance, never over the author', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const hero = await authorFile(projectId, 'Mara Voss', 'A harbour pilot.', 'character', 'high');
  const town = await authorFile(projectId, 'Fog Town', 'A town under fog.', 'setting');
  expect((await api<{ importance: string | null }>(h, 'GET', `/api/v1/files/${town}`)).body.importance).toBeNull();
  const put = await api<{ importance: string }>(h, 'PUT', `/api/v1/files/${town}`, {
    content: 'A town under fog.',
    importance: 'low',
  });
  expect(put.body.importance).toBe('low');

  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'quick', workflow_agents: ['planner'] }),
    call('planner', 'create_file', {
      type: 'character',
      title: 'Old Ferryman',
      content: 'He rows at night.',
      importance: 'low',
    }),
    call('planner', 'set_importance', { id: hero, importance: 'low' }),
    say('planner', 'Cast updated.'),
  ]);
  const r = await runTurn(h, sessionId, 'Add a minor character to the cast.');
  const results = ofType(r.events, 'tool_result').map((e) => [e.data.name, e.data.ok, e.data.errorType ?? null]);
  expect(results).toEqual([
    ['create_file', true, null],
    ['set_importance', false, 'author_edit_protected'],
  ]);
  const ferryman = (await h.runtime.models.File.findOne({ projectId, title: 'Old Ferryman' }).lean())!;
  expect([ferryman.importance, ferryman.importanceSetBy]).toEqual(['low', 'ai']);
  expect((await h.runtime.models.File.findById(hero).lean())!.importance).toBe('high');

  h.model.reset();
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'quick', workflow_agents: ['planner'] }),
    call('planner', 'set_importance', { id: String(ferryman._id), importance: 'high' }),
    say('planner', 'He matters more now.'),
  ]);
  await runTurn(h, sessionId, 'The ferryman should matter more in the story.');
  expect((await h.runtime.models.File.findById(ferryman._id).lean())!.importance).toBe('high');
  // The manifest every agent sees says so.
  expect(contextOf('planner')[0]).toContain(
    `Old Ferryman (id=${String(ferryman._id)}, character, 4 words, importance low)`,
  );
});

test("chapters shown whole come before the history in book order, so the next chapter repeats the last prompt's start; the chapter a turn works on stays with what moves", async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  // Created out of order: the standing part follows the book, not creation or id order.
  const ch3 = await authorFile(projectId, 'Chapter 3', prose('Third', 200));
  const ch1 = await authorFile(projectId, 'Chapter 1', prose('First', 200));
  const ch2 = await authorFile(projectId, 'Chapter 2', prose('Second', 200));
  const outline = await authorFile(projectId, 'Outline', prose('Outline', 200), 'outline');
  const turnOn = async (message: string, focusFileId?: string) => {
    const turn = await h.runtime.models.Turn.create({
      sessionId,
      projectId,
      ownerId: 'local',
      message,
      workflowId: 'direct',
      ...(focusFileId ? { focusFileId } : {}),
    });
    return assembleTurnContext(
      h.runtime.models,
      caches,
      { ...STEP_SETTINGS, contextTokens: 20000 },
      String(turn._id),
      message,
    );
  };
  const next = await turnOn('Write the next chapter.');
  const at = (id: string) => next.context.indexOf(`(id=${id}) [full]`);
  expect(at(outline)).toBeGreaterThan(0);
  expect([at(outline) < at(ch1), at(ch1) < at(ch2), at(ch2) < at(ch3)]).toEqual([true, true, true]);
  expect(next.contextMoving).not.toContain('[full]');
  // The file list changes with every new chapter: it moves.
  expect(next.contextMoving).toContain('## Project files');
  expect(next.context).not.toContain('## Project files');
  // Revising chapter 2 (the focus): an edit will mark it changed mid-turn, which must not cut
  // the cached start, so it is sent with what moves; the other chapters stay where they were.
  const revise = await turnOn('Tighten this chapter.', ch2);
  expect(revise.contextMoving).toContain(`Chapter 2 (id=${ch2}) [full]`);
  expect(revise.context).not.toContain(`(id=${ch2}) [full]`);
  expect(revise.context.indexOf(`(id=${ch1}) [full]`)).toBeLessThan(revise.context.indexOf(`(id=${ch3}) [full]`));
});
