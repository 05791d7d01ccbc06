/**
 * Sessions as the author's list shows them: a conversation is named by the author's first
 * message (a title given at creation stays), one from before naming is named when listed,
 * and a job's own session says it is one (`kind: 'job'`, its chapters), so clients keep it
 * apart from the author's conversations. API only: no worker runs the turns and jobs started here.
 */
import { conversationName, sessionKindOf } from '../../src/core/session-names';
import { api, createHarness, type Harness } from '../helpers/harness';

let h: Harness;
const started: string[] = [];
beforeAll(async () => {
  h = await createHarness({ noWorker: true });
});
afterAll(async () => {
  // Nothing runs them here: they are ended rather than left for the namespace's retention.
  await Promise.all(
    started.map((id) =>
      h.runtime.temporal.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined),
    ),
  );
  await h?.close();
});

type Session = {
  id: string;
  title: string;
  kind: string;
  jobChapters: { from: number; to: number } | null;
  jobId: string | null;
};

async function project(): Promise<string> {
  return (await api<{ id: string }>(h, 'POST', '/api/v1/projects', { title: 'Names', type: 'novel' })).body.id;
}

test('a conversation is named by the first message the author sends in it; a given title stays; later messages change nothing', async () => {
  const projectId = await project();
  const s = (await api<Session>(h, 'POST', '/api/v1/sessions', { projectId })).body;
  expect(s).toMatchObject({ title: '', kind: 'chat', jobChapters: null });
  const t1 = await api<{ workflowId: string }>(h, 'POST', `/api/v1/sessions/${s.id}/turns`, {
    message: '\n  Plan a ten-chapter   mystery set in a lighthouse\nwith a storm in chapter 3',
  });
  started.push(t1.body.workflowId);
  expect((await api<Session>(h, 'GET', `/api/v1/sessions/${s.id}`)).body.title).toBe(
    'Plan a ten-chapter mystery set in a lighthouse',
  );
  const titled = (await api<Session>(h, 'POST', '/api/v1/sessions', { projectId, title: 'Research' })).body;
  const t2 = await api<{ workflowId: string }>(h, 'POST', `/api/v1/sessions/${titled.id}/turns`, {
    message: 'Write chapter 1',
  });
  started.push(t2.body.workflowId);
  const list = (await api<{ items: Session[] }>(h, 'GET', `/api/v1/sessions?projectId=${projectId}`)).body.items;
  expect(list.map((x) => x.title).sort()).toEqual(['Plan a ten-chapter mystery set in a lighthouse', 'Research']);
  // Cut to a picker's width: a CJK character is two columns.
  expect(
    conversationName(
      '第三章里的风暴要更猛烈一些，另外把灯塔看守人的名字改成林夏，再加一段他年轻时在海上遇险的回忆，作为第四章的伏笔',
    ),
  ).toBe('第三章里的风暴要更猛烈一些，另外把灯塔看守人的名字改成林夏…');
  expect(conversationName(`Write ${'very '.repeat(20)}long`)).toHaveLength(60);
});

test('a session from before naming is named from its first message when it is listed, and keeps that name', async () => {
  const projectId = await project();
  const s = await h.runtime.models.Session.create({ projectId, ownerId: 'local', title: '', messageSeq: 2 });
  await h.runtime.models.Message.create({
    sessionId: String(s._id),
    projectId,
    turnId: 'x',
    role: 'user',
    content: '写第一章，开头要有雾',
    seq: 1,
    key: `k-${String(s._id)}`,
  });
  const list = (await api<{ items: Session[] }>(h, 'GET', `/api/v1/sessions?projectId=${projectId}`)).body.items;
  expect(list.find((x) => x.id === String(s._id))?.title).toBe('写第一章，开头要有雾');
  expect((await h.runtime.models.Session.findById(s._id).lean())?.title).toBe('写第一章，开头要有雾');
});

test('a job writes in a session of its own kind, with its chapters; an older job session is known by its title', async () => {
  const projectId = await project();
  const job = await api<{ jobId: string; workflowId: string; sessionId: string }>(h, 'POST', '/api/v1/jobs', {
    projectId,
    chapters: { from: 2, to: 4 },
  });
  expect(job.status).toBe(202);
  started.push(job.body.workflowId);
  const list = (await api<{ items: Session[] }>(h, 'GET', `/api/v1/sessions?projectId=${projectId}`)).body.items;
  expect(list.find((x) => x.id === job.body.sessionId)).toMatchObject({
    kind: 'job',
    jobId: job.body.jobId,
    jobChapters: { from: 2, to: 4 },
  });
  expect(sessionKindOf({ title: 'Job · chapters 1–10' })).toEqual({ kind: 'job', jobChapters: { from: 1, to: 10 } });
  expect(sessionKindOf({ title: 'Job notes' })).toEqual({ kind: 'chat', jobChapters: null });
});
