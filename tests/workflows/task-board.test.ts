/**
 * Task board finalize for author turns, on real services: at turn end,
 * in-progress tasks close only from files this turn wrote that still exist with body
 * text; ranges need every unit; deleted units drop out; nothing written, no update; a
 * model's unverified "done" is reported.
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

// Turns on services shared with other suites: a loaded machine makes each take seconds.
jest.setTimeout(240_000);

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '5000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

type Task = { id: string; title: string; status: 'todo' | 'in_progress' | 'done'; artifact?: string };

async function withBoard(tasks: Task[]) {
  const ps = await createProjectAndSession(h, 'screenplay');
  await h.runtime.models.Project.updateOne({ _id: ps.projectId }, { $set: { tasks } });
  return ps;
}
const board = async (projectId: string) => (await h.runtime.models.Project.findById(projectId).lean())!.tasks;
const writes = (...titles: string[]) =>
  titles.map((title) => call('writer', 'create_file', { type: 'script', title, content: `${title}：正文。` }));

test('task board finalize: a range closes only when every unit has a file; until then done_units and progress', async () => {
  const { projectId, sessionId } = await withBoard([{ id: 'eps', title: '写第2-5集', status: 'in_progress' }]);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...writes('第2集', '第3集'),
    say('writer', '写好了第2、3集。'),
  ]);
  await runTurn(h, sessionId, '先写第2、3集');
  expect(await board(projectId)).toEqual([
    expect.objectContaining({ status: 'in_progress', doneUnits: [2, 3], progress: '2/4 written: 2, 3' }),
  ]);

  h.model.reset();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...writes('第4集', '第5集'),
    say('writer', '写完了。'),
  ]);
  await runTurn(h, sessionId, '写第4、5集');
  expect(await board(projectId)).toEqual([expect.objectContaining({ status: 'done', doneUnits: [2, 3, 4, 5] })]);
});

test('task board finalize: units whose files were deleted drop out, and a chapter that merely exists does not close a task', async () => {
  const { projectId, sessionId } = await withBoard([
    { id: 'range', title: 'Episodes 1-3', status: 'in_progress' },
    { id: 'single', title: 'Episode 9', status: 'in_progress' },
  ]);
  // Episode 9 exists from before these turns: it is no evidence for the task.
  expect(
    (await api(h, 'POST', '/api/v1/files', { projectId, type: 'script', title: 'Episode 9', content: 'An old draft.' }))
      .status,
  ).toBe(201);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...writes('Episode 1', 'Episode 2'),
    say('writer', 'Done.'),
  ]);
  await runTurn(h, sessionId, 'Write episodes 1 and 2');
  const ep2 = (await h.runtime.models.File.findOne({ projectId, title: 'Episode 2' }).lean())!;
  expect((await api(h, 'DELETE', `/api/v1/files/${String(ep2._id)}`)).status).toBe(204);
  h.model.reset();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...writes('Episode 3'),
    say('writer', 'Done.'),
  ]);
  await runTurn(h, sessionId, 'Write episode 3');
  const [range, single] = await board(projectId);
  expect(range).toMatchObject({ status: 'in_progress', doneUnits: [1, 3], progress: '2/3 written: 1, 3' });
  expect(single).toMatchObject({ status: 'in_progress' });
});

test('task board finalize: nothing written, no update; a task with an artifact needs that file', async () => {
  const { projectId, sessionId } = await withBoard([
    { id: 'outline', title: '整理大纲', status: 'in_progress', artifact: '大纲' },
    { id: 'ep1', title: '第1集', status: 'in_progress' },
  ]);
  const before = (await h.runtime.models.Project.findById(projectId).lean())!;
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    say('writer', '我们先聊聊第1集的走向？'),
  ]);
  await runTurn(h, sessionId, '聊聊第1集');
  const after = (await h.runtime.models.Project.findById(projectId).lean())!;
  expect(after.updatedAt.getTime()).toBe(before.updatedAt.getTime());

  h.model.reset();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'outline', title: '人物', content: '林默：船工。' }),
    say('writer', '先写了人物。'),
  ]);
  await runTurn(h, sessionId, '写人物');
  expect((await board(projectId)).map((t) => t.status)).toEqual(['in_progress', 'in_progress']);

  h.model.reset();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'outline', title: '大纲', content: '第一幕：风暴。' }),
    say('writer', '大纲写好了。'),
  ]);
  await runTurn(h, sessionId, '写大纲');
  expect((await board(projectId)).map((t) => t.status)).toEqual(['done', 'in_progress']);
});

test('a model that marks a range done while files are missing gets unverified_done', async () => {
  const { projectId, sessionId } = await withBoard([]);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...writes('Episode 1'),
    call('writer', 'update_project', {
      tasks: [
        { id: 'r', title: 'Episodes 1-3', status: 'done' },
        { id: 'one', title: 'Episode 1', status: 'done' },
      ],
    }),
    say('writer', 'All done.'),
  ]);
  const r = await runTurn(h, sessionId, 'Write episodes 1-3');
  const result = ofType(r.events, 'tool_result').find((e) => e.data.name === 'update_project')!.data;
  expect(result).toMatchObject({ ok: true, result: { unverified_done: ['r'], missing_units: { r: [2, 3] } } });
  expect((await board(projectId)).map((t) => [t.id, t.status])).toEqual([
    ['r', 'done'],
    ['one', 'done'],
  ]);
});
