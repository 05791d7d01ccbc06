/**
 * The session feed: a second client following `GET /sessions/:id/events` sees a
 * turn start and finish, an approval asked and decided, and a job's start, progress and end,
 * all on real services; a resume with Last-Event-ID gets exactly the events it missed; an
 * activity retried after a crash adds nothing; another owner's session is a 404.
 */
import { createApprovalActivities } from '../../src/activities/turn/approvals';
import { createTurnOpeningActivities } from '../../src/activities/turn/turn-opening';
import type { ActivityDeps } from '../../src/activities/deps';
import type { StreamEvent } from '../../src/core/events';
import { newId } from '../../src/db/models';
import { readRange, turnStreamKey } from '../../src/streams/redis-streams';
import { sessionFeedKey } from '../../src/streams/session-feed';
import {
  api,
  createAuthorFile,
  createHarness,
  createProjectAndSession,
  type Harness,
  postTurn,
  turnEvents,
  waitTurn,
} from '../helpers/harness';
import { readSse, type SseFrame, type SseResult } from '../helpers/sse-client';
import { call, router, say } from '../helpers/script';
import { wire } from '../helpers/streams';
import { jobEvents, progressOf, waitFor } from '../workflows/job-helpers';
import { createWorkerCaches } from '../../src/activities/worker-caches';
import pino from 'pino';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { SSE_KEEPALIVE_MS: '250', REVIEW_WORD_THRESHOLD: '100000' } });
});
afterAll(async () => {
  await h?.close();
});

const feedUrl = (sessionId: string): string => `${h.baseUrl}/api/v1/sessions/${sessionId}/events`;
const eventOf = (f: SseFrame): StreamEvent => JSON.parse(f.data) as StreamEvent;

/** A client following the feed until told to stop (the feed itself never ends). */
function follow(url: string) {
  const frames: SseFrame[] = [];
  /** Milliseconds from each event's publication (its `ts`) to this client reading it. */
  const lagMs: number[] = [];
  const stop = new AbortController();
  const onFrame = (f: SseFrame): void => {
    frames.push(f);
    lagMs.push(Date.now() - Date.parse(eventOf(f).ts));
  };
  const reading: Promise<SseResult> = readSse(url, { timeoutMs: 240_000, signal: stop.signal, onFrame });
  return {
    frames,
    lagMs,
    /** Waits for an event of the feed to match. */
    until: (what: string, match: (e: StreamEvent) => boolean) =>
      waitFor(what, async () => frames.map(eventOf).find(match), 120_000, 25),
    async stop(): Promise<SseResult> {
      stop.abort();
      return reading;
    },
  };
}

/** One line per event: what a front end would switch on. */
function summary(e: StreamEvent): string {
  const d = e.data as Record<string, unknown>;
  const detail =
    e.type === 'turn_finished' || e.type === 'job_finished'
      ? `:${String(d.status)}`
      : e.type === 'approval_decided'
        ? `:${String(d.decision)}`
        : '';
  return `${e.type}${detail}`;
}

let shared: { sessionId: string; frames: SseFrame[] } | null = null;

test('a second client sees a turn start and finish, an approval asked and decided, and a job start, progress and end', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  const feed = follow(feedUrl(sessionId));

  // A turn, start to finish.
  h.model.script([router({ current_agent: 'writer', workflow_plan: 'quick' }), say('writer', 'Happy to help.')]);
  const t1 = await postTurn(h, sessionId, 'Say hello');
  await waitTurn(h, t1);
  await feed.until('turn 1 finished', (e) => e.type === 'turn_finished' && e.turnId === t1);

  // A turn that asks before deleting the author's chapter; the author says no.
  const ch3 = await createAuthorFile(h, projectId, 'Chapter 3', 'The author wrote chapter three.');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'delete_file', { id: ch3 }),
    say('writer', 'I left Chapter 3 alone.'),
  ]);
  const t2 = await postTurn(h, sessionId, 'Tidy up the project please');
  const asked = await feed.until('approval asked', (e) => e.type === 'approval_requested' && e.turnId === t2);
  if (asked.type !== 'approval_requested') throw new Error('unreachable');
  expect(asked.data).toMatchObject({ fileId: ch3, title: 'Chapter 3', action: 'delete' });
  // The page that opens now finds the running turn, to join its stream from the start.
  const active = await api<{ items: { id: string; status: string; streamUrl: string }[] }>(
    h,
    'GET',
    `/api/v1/sessions/${sessionId}/turns?active=true`,
  );
  expect(active.body.items).toEqual([
    expect.objectContaining({ id: t2, status: 'awaiting_approval', streamUrl: `/api/v1/turns/${t2}/events` }),
  ]);
  expect(
    (await api(h, 'POST', `/api/v1/turns/${t2}/approvals/${asked.data.approvalId}`, { decision: 'deny' })).status,
  ).toBe(200);
  await waitTurn(h, t2);
  await feed.until('turn 2 finished', (e) => e.type === 'turn_finished' && e.turnId === t2);
  expect(
    (await api<{ items: unknown[] }>(h, 'GET', `/api/v1/sessions/${sessionId}/turns?active=true`)).body.items,
  ).toEqual([]);

  // A one-chapter job in the same session, on the offline model's persona.
  h.model.reset();
  const job = await api<{ jobId: string }>(h, 'POST', '/api/v1/jobs', {
    projectId,
    sessionId,
    chapters: { from: 1, to: 1 },
  });
  expect(job.status).toBe(202);
  const { jobId } = job.body;
  await feed.until('job finished', (e) => e.type === 'job_finished' && e.jobId === jobId);
  const { frames } = await feed.stop();
  const events = frames.map(eventOf);
  const lag = [...feed.lagMs].sort((x, y) => x - y);
  console.log(
    `session feed: ${frames.length} events read live; publish→client lag p50 ${lag[Math.floor(lag.length / 2)]} ms, max ${lag[lag.length - 1]} ms`,
  );

  // Every event names the session; ids and seq rise in stream order.
  expect(events.every((e) => e.sessionId === sessionId)).toBe(true);
  for (let i = 1; i < events.length; i++) expect(events[i]!.seq).toBeGreaterThan(events[i - 1]!.seq);
  expect(new Set(frames.map((f) => f.id)).size).toBe(frames.length);

  // The author's turns, in order, each once.
  const ofTurn = (id: string) => events.filter((e) => e.turnId === id).map(summary);
  expect(ofTurn(t1)).toEqual(['turn_started', 'turn_finished:completed']);
  expect(ofTurn(t2)).toEqual([
    'turn_started',
    'approval_requested',
    'approval_decided:deny',
    'turn_finished:completed',
  ]);

  // The job: started first, finished last; its progress is the job stream's, event for event.
  const ofJob = events.filter((e) => e.jobId === jobId && !e.type.startsWith('turn_'));
  expect(ofJob[0]).toMatchObject({ type: 'job_started', data: { from: 1, to: 1 } });
  expect(summary(ofJob[ofJob.length - 1]!)).toBe('job_finished:completed');
  expect(progressOf(ofJob).map((e) => e.data)).toEqual(progressOf(await jobEvents(h, jobId)).map((e) => e.data));
  expect(progressOf(ofJob).some((e) => e.data.chapter === 1 && e.data.chaptersDone === 1)).toBe(true);
  // The job's chapter turns ran in this session too, each started before it finished.
  const jobTurns = await h.runtime.models.Turn.find({ jobId }).select({ _id: 1 }).lean();
  expect(jobTurns.length).toBeGreaterThan(0);
  // (A job_progress that announces a chapter's turn names it too: only the turn's own events here.)
  for (const t of jobTurns)
    expect(ofTurn(String(t._id)).filter((s) => s.startsWith('turn_'))).toEqual([
      'turn_started',
      'turn_finished:completed',
    ]);
  // Each turn's start names its job (the workflow passes it), and only a job's turns name one.
  const startedJobIds = (id: string) =>
    events.filter((e) => e.type === 'turn_started' && e.turnId === id).map((e) => e.jobId ?? null);
  for (const t of jobTurns) expect(startedJobIds(String(t._id))).toEqual([jobId]);
  expect([...startedJobIds(t1), ...startedJobIds(t2)]).toEqual([null, null]);
  shared = { sessionId, frames };
}, 180_000);

test('resuming with Last-Event-ID (or ?after=) gets exactly the events missed; a late client gets them all', async () => {
  if (!shared) throw new Error('needs the first test');
  const { sessionId, frames } = shared;
  // Late join: the whole feed from its first event, byte for byte what the live client read.
  const late = await readSse(feedUrl(sessionId), { maxFrames: frames.length + 1, timeoutMs: 1500 });
  expect(late.status).toBe(200);
  expect(wire(late.frames)).toBe(wire(frames));
  for (const k of [0, 3, Math.floor(frames.length / 2), frames.length - 2, frames.length - 1]) {
    // One frame more than expected is asked for: a duplicate or an extra would show.
    const missed = frames.slice(k + 1);
    const resumed = await readSse(feedUrl(sessionId), {
      headers: { 'last-event-id': frames[k]!.id! },
      maxFrames: missed.length + 1,
      timeoutMs: 1500,
    });
    expect({ k, wire: wire(resumed.frames) }).toEqual({ k, wire: wire(missed) });
  }
  const mid = Math.floor(frames.length / 2);
  const after = await readSse(`${feedUrl(sessionId)}?after=${frames[mid]!.id}`, {
    maxFrames: frames.length,
    timeoutMs: 1500,
  });
  expect(wire(after.frames)).toBe(wire(frames.slice(mid + 1)));
  // An id the feed never issued is a reset pointing at the session, not a silent gap.
  const unknown = await readSse(feedUrl(sessionId), {
    headers: { 'last-event-id': '99999999999999-0' },
    timeoutMs: 3000,
  });
  expect(unknown.frames.map((f) => f.event)).toEqual(['reset']);
  expect(JSON.parse(unknown.frames[0]!.data)).toMatchObject({
    data: { reason: 'unknown_event_id', stateUrl: `/api/v1/sessions/${sessionId}` },
    sessionId,
  });
});

test('an approval activity retried after a crash publishes nothing twice, on the turn stream or the feed', async () => {
  if (!shared) throw new Error('needs the first test');
  const { sessionId } = shared;
  const key = sessionFeedKey(h.config.REDIS_KEY_PREFIX, sessionId);
  const before = await readRange(h.runtime.redis, key, null, 10_000);
  const decided = before.map((e) => e.event).find((e) => e.type === 'approval_decided')!;
  if (decided.type !== 'approval_decided') throw new Error('unreachable');
  const turnId = decided.turnId!;
  const turnStream = await readRange(h.runtime.redis, turnStreamKey(h.config.REDIS_KEY_PREFIX, turnId), null, 10_000);
  const slot = Number(turnStream.find((e) => e.event.type === 'approval_decided')!.id.split('-')[0]);
  const caches = createWorkerCaches();
  const deps = {
    models: h.runtime.models,
    redis: h.runtime.redis,
    config: h.config,
    logger: pino({ level: 'silent' }),
    clock: () => new Date(),
    caches,
  } as unknown as ActivityDeps;
  // The same call Temporal would retry: same turn, approval, decision and slot.
  await createApprovalActivities(deps).approvalDecided({
    turnId,
    approvalId: decided.data.approvalId,
    decision: 'deny',
    slot,
  });
  await caches.streamLedger.flush(); // as the worker does when it stops: nothing left for after the harness closes
  expect(await readRange(h.runtime.redis, key, null, 10_000)).toEqual(before);
  expect((await turnEvents(h, turnId)).length).toBe(turnStream.length);
});

test('a turn announced by a workflow that passes no job id (started before it did) reads the job from the Turn', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  const jobId = newId();
  const turnId = newId();
  await h.runtime.models.Turn.create({
    _id: turnId,
    sessionId,
    projectId,
    ownerId: 'local',
    message: 'Write chapter 1',
    status: 'running',
    workflowId: `turn-${turnId}`,
    jobId,
  });
  const deps = {
    models: h.runtime.models,
    redis: h.runtime.redis,
    config: h.config,
    logger: pino({ level: 'silent' }),
    clock: () => new Date(),
    caches: createWorkerCaches(),
  } as unknown as ActivityDeps;
  await createTurnOpeningActivities(deps).announceTurn({ turnId, sessionId, slot: 1 });
  await deps.caches.streamLedger.flush();
  const feed = await readRange(h.runtime.redis, sessionFeedKey(h.config.REDIS_KEY_PREFIX, sessionId), null, 100);
  expect(feed.map((e) => [e.event.type, e.event.turnId, e.event.jobId])).toEqual([['turn_started', turnId, jobId]]);
});

test("another owner's session is a 404 like a missing one; bad resume ids and unknown query keys are 400", async () => {
  const { projectId } = await createProjectAndSession(h);
  const theirs = await h.runtime.models.Session.create({ projectId, ownerId: 'someone-else', title: '' });
  const missing = newId();
  for (const path of ['events', 'turns', 'stream-token']) {
    const method = path === 'stream-token' ? 'POST' : 'GET';
    const mine = await fetch(`${h.baseUrl}/api/v1/sessions/${String(theirs._id)}/${path}`, { method });
    const none = await fetch(`${h.baseUrl}/api/v1/sessions/${missing}/${path}`, { method });
    expect({ path, status: mine.status }).toEqual({ path, status: 404 });
    expect((await mine.text()).split(String(theirs._id)).join(missing)).toBe(await none.text());
  }
  const { sessionId } = await createProjectAndSession(h);
  for (const [query, headers] of [
    ['?after=nonsense', {}],
    ['', { 'last-event-id': 'DROP TABLE' }],
    ['?since=1', {}],
  ] as const) {
    const r = await fetch(`${feedUrl(sessionId)}${query}`, { headers });
    expect({ query, status: r.status }).toEqual({ query, status: 400 });
  }
  expect((await api(h, 'GET', `/api/v1/sessions/${sessionId}/turns?active=maybe`)).status).toBe(400);
  // A stream token opens the session's feed (EventSource sends no headers).
  const token = await api<{ token: string }>(h, 'POST', `/api/v1/sessions/${sessionId}/stream-token`);
  expect(token.status).toBe(201);
  expect(
    (await readSse(`${feedUrl(sessionId)}?token=${encodeURIComponent(token.body.token)}`, { timeoutMs: 600 })).status,
  ).toBe(200);
});
