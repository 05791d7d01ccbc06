/**
 * A job that stops — on a failed chapter, or at its cost budget — leaves a closing message in
 * its session, and a client following the session's feed learns of it live: the feed carries
 * the stop (a `job_progress` with the status) and the closing message itself (`job_summary`),
 * which is already in the session when its event arrives, so the reload it prompts shows it.
 */
import type { StreamEvent } from '../../src/core/events';
import type { ScriptEntry } from '../../src/offline-model';
import { api, createHarness, createProjectAndSession, type Harness } from '../helpers/harness';
import { readSse, type SseFrame } from '../helpers/sse-client';
import { startJob, waitFor } from '../workflows/job-helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { JOB_MAX_REVISION_ROUNDS: '0' } });
});
afterAll(async () => h?.close());
afterEach(() => h.model.reset());

type Message = { role: string; content: string; turnId: string | null };

const asks = (n: number) => ({ agent: 'writer' as const, contains: `Write Chapter ${n} of the story` });
const opens = (n: number): ScriptEntry => ({
  match: asks(n),
  reply: { toolCalls: [{ name: 'create_file', arguments: { type: 'draft', title: `Chapter ${n}` } }] },
});
const body = (n: number) => `# Chapter ${n}\n\n${'Mara counted the boats in the harbour at dusk. '.repeat(8).trim()}`;
const writes = (n: number): ScriptEntry[] => [
  opens(n),
  { match: asks(n), reply: { content: `<file>\n${body(n)}\n</file>` } },
  { match: asks(n), reply: { content: `Chapter ${n} is saved.` } },
];

async function withOutline(chapters: number): Promise<{ projectId: string; sessionId: string }> {
  const ids = await createProjectAndSession(h);
  const lines = Array.from({ length: chapters }, (_, i) => `Chapter ${i + 1}: Part ${i + 1} — something happens`);
  const r = await api(h, 'POST', '/api/v1/files', {
    projectId: ids.projectId,
    type: 'outline',
    title: 'Outline',
    content: `# Outline\n\n${lines.join('\n')}`,
  });
  expect(r.status).toBe(201);
  return ids;
}

/**
 * Follows the session's feed; on the job's first event with `status`, reads the session's
 * messages at once, as a client reloading on it would.
 */
function followUntilStopped(sessionId: string, status: string) {
  const stop = new AbortController();
  let seen: { event: StreamEvent; messages: Promise<Message[]> } | null = null;
  let summary: StreamEvent | null = null;
  const onFrame = (f: SseFrame): void => {
    const e = JSON.parse(f.data) as StreamEvent;
    if (!summary && e.type === 'job_summary' && e.data.status === status) summary = e;
    if (seen || e.type !== 'job_progress' || e.data.status !== status) return;
    const messages = api<{ items: Message[] }>(h, 'GET', `/api/v1/sessions/${sessionId}/messages`).then(
      (r) => r.body.items,
    );
    seen = { event: e, messages };
  };
  const reading = readSse(`${h.baseUrl}/api/v1/sessions/${sessionId}/events`, {
    timeoutMs: 120_000,
    signal: stop.signal,
    onFrame,
  });
  return {
    async stopped(jobId: string) {
      const got = await waitFor(`feed: job ${status}`, async () => (seen?.event.jobId === jobId ? seen : null), 90_000);
      const told = await waitFor(
        `feed: job ${status} summary`,
        async () => (summary?.jobId === jobId ? summary : null),
        30_000,
      );
      stop.abort();
      await reading.catch(() => undefined);
      return { event: got.event, summary: told, messages: await got.messages };
    },
  };
}

const closingOf = (messages: Message[], jobId: string) =>
  messages.filter((m) => m.role === 'assistant' && m.turnId === jobId).map((m) => m.content);

test('a job that fails on a chapter: the feed tells of it live, and its closing message is there to read', async () => {
  const { projectId, sessionId } = await withOutline(1);
  h.model.script([opens(1), { match: asks(1), error: { status: 400, message: 'model rejected the request' } }]);
  const feed = followUntilStopped(sessionId, 'failed');
  const { jobId } = await startJob(h, { projectId, sessionId, chapters: { from: 1, to: 1 } });
  const { event, summary, messages } = await feed.stopped(jobId);
  expect(event).toMatchObject({ type: 'job_progress', sessionId, jobId, data: { status: 'failed', chapter: 1 } });
  const closing = closingOf(messages, jobId);
  expect(closing).toHaveLength(1);
  // The feed carries the closing message itself, as stored.
  expect(summary).toMatchObject({ type: 'job_summary', sessionId, jobId, data: { message: closing[0] } });
  expect(closing[0]).toMatch(/^Chapter 1 /);
  expect(closing[0]).toContain('No chapter was finished.');
  expect(closing[0]).toContain('Left: chapter 1.');
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/cancel`)).status).toBe(202);
}, 120_000);

test('a job that pauses at its cost budget: the feed tells of it live, and its closing message is there to read', async () => {
  const { projectId, sessionId } = await withOutline(2);
  h.model.script(writes(1));
  const feed = followUntilStopped(sessionId, 'paused');
  const { jobId } = await startJob(h, {
    projectId,
    sessionId,
    chapters: { from: 1, to: 2 },
    maxCostUsd: 0.000001,
  });
  const { event, summary, messages } = await feed.stopped(jobId);
  expect(event).toMatchObject({ type: 'job_progress', sessionId, jobId, data: { status: 'paused', chaptersDone: 1 } });
  const closing = closingOf(messages, jobId);
  expect(closing).toHaveLength(1);
  // The feed carries the closing message itself, as stored.
  expect(summary).toMatchObject({ type: 'job_summary', sessionId, jobId, data: { message: closing[0] } });
  expect(closing[0]).toMatch(/^The job paused before chapter 2: the next chapter would go over its budget\./);
  expect(closing[0]).toContain('Written: chapter 1');
  expect(closing[0]).toContain('Left: chapter 2.');
  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/cancel`)).status).toBe(202);
}, 120_000);
