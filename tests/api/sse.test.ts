/**
 * The SSE endpoint over real HTTP and real Redis, frames parsed by eventsource-parser:
 * resume after every k-th event rebuilds byte-identical output (finished and running
 * turns), late join, trimmed and unknown ids answer `reset`, keep-alives, the response
 * ends after `done`, and a client that leaves releases its Redis reader.
 */
import express from 'express';
import { serveSse } from '../../src/api/sse';
import { createStartedServer } from '../helpers/app-server';
import { createHarness, createProjectAndSession, type Harness, postTurn, waitTurn } from '../helpers/harness';
import { readSse } from '../helpers/sse-client';
import {
  contentDraft,
  doneDraft,
  readerConnections,
  readResuming,
  syntheticTurn,
  waitFor,
  wire,
} from '../helpers/streams';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { SSE_KEEPALIVE_MS: '250', SSE_RETRY_MS: '1500' } });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => h.model.reset());

const writerScript = (body: string, extra: { tokensPerSecond?: number } = {}) => [
  {
    match: { agent: 'router' as const },
    reply: {
      content:
        '{"current_agent":"writer","workflow_plan":"quick","workflow_agents":["writer"],"write_content":true,"read_only":false,"scope":"ch1"}',
    },
  },
  {
    match: { agent: 'writer' as const },
    reply: {
      content: 'Drafting chapter 1 now.',
      toolCalls: [{ name: 'create_file', arguments: { type: 'draft', title: 'Chapter 1' } }],
    },
  },
  { match: { agent: 'writer' as const }, reply: { content: `<file>\n${body}\n</file>\nSaved chapter 1.` }, ...extra },
  { match: { agent: 'quality_reviewer' as const }, reply: { content: 'Looks good.' } },
];

const prose = (n: number) =>
  Array.from({ length: n }, (_, i) => `Line ${i}: the lamps of the harbour went out one by one.`).join('\n');

test('a finished turn: reconnecting after every k-th event rebuilds the single full read byte for byte', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script(writerScript(prose(20)));
  const turnId = await postTurn(h, sessionId, 'Write chapter 1');
  await waitTurn(h, turnId);
  const url = `${h.baseUrl}/api/v1/turns/${turnId}/events`;
  const full = await readSse(url);
  expect(full.ended).toBe(true);
  expect(full.frames[full.frames.length - 1]!.event).toBe('done');
  expect(full.frames.length).toBeGreaterThan(8);
  for (const k of [1, 2, 5]) {
    const r = await readResuming(url, k);
    expect(r.connections).toBeGreaterThan(1);
    expect(wire(r.frames)).toBe(wire(full.frames));
  }
  // ?after= is the same as Last-Event-ID: strictly after.
  const mid = full.frames[4]!.id!;
  const after = await readSse(`${url}?after=${mid}`);
  expect(wire(after.frames)).toBe(wire(full.frames.slice(5)));
});

test('a running turn: drops and resumes while it streams; the concatenated output equals a full read', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script(writerScript(prose(60), { tokensPerSecond: 1500 }));
  const turnId = await postTurn(h, sessionId, 'Write chapter 1');
  const url = `${h.baseUrl}/api/v1/turns/${turnId}/events`;
  // Joins live (the turn is running), drops after every 3rd event, resumes with Last-Event-ID.
  const [flaky, live] = await Promise.all([readResuming(url, 3), readSse(url)]);
  await waitTurn(h, turnId);
  const late = await readSse(url);
  expect(live.ended).toBe(true);
  expect(wire(flaky.frames)).toBe(wire(late.frames));
  expect(wire(live.frames)).toBe(wire(late.frames));
  const text = (frames: typeof late.frames) =>
    frames
      .filter((f) => f.event === 'file_content')
      .map((f) => JSON.parse(f.data).data.delta)
      .join('');
  expect(text(flaky.frames)).toBe(`${prose(60)}\n`);
  // It really was live: the flaky client needed many connections while the turn ran.
  expect(flaky.connections).toBeGreaterThan(5);
});

test('late join gets the whole stream from its first event; retry hint; ends after done', async () => {
  const t = await syntheticTurn(h);
  await t.publish(1, [contentDraft(t.turnId, 'a'), contentDraft(t.turnId, 'b')]);
  const reading = readSse(t.url);
  await new Promise((r) => setTimeout(r, 100));
  await t.publish(2, [contentDraft(t.turnId, 'c'), doneDraft(t.turnId)]);
  // Anything after done is never sent: the response is over.
  await t.publish(3, [contentDraft(t.turnId, 'after done')]);
  const r = await reading;
  expect(r.retry).toBe(1500);
  expect(r.ended).toBe(true);
  expect(r.frames.map((f) => f.id)).toEqual(['1-0', '1-1', '2-0', '2-1']);
  expect(r.frames.map((f) => JSON.parse(f.data).type)).toEqual(['content', 'content', 'content', 'done']);
  expect(r.frames.map((f) => f.event)).toEqual(['content', 'content', 'content', 'done']);
});

test('keep-alive comments flow while nothing happens', async () => {
  const t = await syntheticTurn(h);
  const reading = readSse(t.url);
  await new Promise((r) => setTimeout(r, 900));
  await t.publish(1, [doneDraft(t.turnId)]);
  const r = await reading;
  expect(r.comments.filter((c) => c.includes('keep-alive')).length).toBeGreaterThanOrEqual(2);
  expect(r.frames.map((f) => f.event)).toEqual(['done']);
});

test('an id the stream trimmed answers an explicit reset pointing at the turn, never a silent gap', async () => {
  const t = await syntheticTurn(h, { status: 'completed' });
  await t.publish(
    1,
    Array.from({ length: 20 }, (_, i) => contentDraft(t.turnId, `d${i}`)),
  );
  await t.publish(2, [doneDraft(t.turnId)]);
  await h.runtime.redis.xtrim(t.key, 'MAXLEN', 5);
  const r = await readSse(t.url, { headers: { 'last-event-id': '1-3' } });
  expect(r.status).toBe(200);
  expect(r.ended).toBe(true);
  expect(r.frames).toHaveLength(1);
  const reset = r.frames[0]!;
  expect(reset.event).toBe('reset');
  expect(reset.id).toBeUndefined();
  expect(JSON.parse(reset.data)).toMatchObject({
    type: 'reset',
    turnId: t.turnId,
    data: { reason: 'trimmed', stateUrl: `/api/v1/turns/${t.turnId}`, lastAvailableId: '2-0' },
  });
  // A late joiner (no id) would miss the head too.
  const late = await readSse(t.url);
  expect(late.frames.map((f) => [f.event, JSON.parse(f.data).data.reason])).toEqual([['reset', 'trimmed']]);
  // From the first id still held, resuming works. (At exactly the last trimmed id, 1-15,
  // the answer is a reset too: Redis does not record that id, so the check is conservative.)
  const held = await readSse(t.url, { headers: { 'last-event-id': '1-16' } });
  expect(held.frames.map((f) => f.id)).toEqual(['1-17', '1-18', '1-19', '2-0']);
});

test('an expired stream, an id never issued, and resuming after done', async () => {
  const gone = await syntheticTurn(h, { status: 'completed' });
  const expired = await readSse(gone.url);
  expect(expired.frames.map((f) => [f.event, JSON.parse(f.data).data.reason])).toEqual([['reset', 'expired']]);

  const t = await syntheticTurn(h);
  await t.publish(1, [contentDraft(t.turnId, 'x')]);
  const ahead = await readSse(t.url, { headers: { 'last-event-id': '99-0' } });
  expect(ahead.frames.map((f) => [f.event, JSON.parse(f.data).data.reason])).toEqual([['reset', 'unknown_event_id']]);

  await t.publish(2, [doneDraft(t.turnId)]);
  // EventSource stops reconnecting on 204: the client already has everything.
  const after = await readSse(t.url, { headers: { 'last-event-id': '2-0' } });
  expect(after.status).toBe(204);

  const bad = await fetch(t.url, { headers: { 'last-event-id': 'nonsense' } });
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid_event_id');
});

test('a stream that expires under a connected client, or a turn that ended without done, ends with reset', async () => {
  const t = await syntheticTurn(h);
  await t.publish(1, [contentDraft(t.turnId, 'x')]);
  const reading = readSse(t.url);
  await new Promise((r) => setTimeout(r, 100));
  await t.setStatus('completed');
  await h.runtime.redis.del(t.key);
  const r = await reading;
  expect(r.frames.map((f) => f.event)).toEqual(['content', 'reset']);
  expect(JSON.parse(r.frames[1]!.data).data.reason).toBe('expired');

  const u = await syntheticTurn(h);
  await u.publish(1, [contentDraft(u.turnId, 'x')]);
  const reading2 = readSse(u.url);
  await u.setStatus('failed');
  const r2 = await reading2;
  expect(r2.frames.map((f) => f.event)).toEqual(['content', 'reset']);
  expect(JSON.parse(r2.frames[1]!.data).data).toMatchObject({ reason: 'ended_without_done', lastAvailableId: '1-0' });
});

test('a turn whose final status is recorded a moment before its done is published gets done, not a reset', async () => {
  const t = await syntheticTurn(h);
  await t.publish(1, [contentDraft(t.turnId, 'x')]);
  const res = await fetch(t.url);
  const reader = res.body!.getReader();
  let text = '';
  const readUntil = async (enough: (s: string) => boolean): Promise<void> => {
    while (!enough(text)) {
      const { value, done } = await reader.read();
      if (done) return;
      text += new TextDecoder().decode(value);
    }
  };
  await readUntil((s) => s.includes('event: content'));
  // Finalize records the status first; a keep-alive check looks in between; then `done` goes out.
  await t.setStatus('completed');
  const mark = text.length;
  await readUntil((s) => s.slice(mark).includes(': keep-alive'));
  await new Promise((r) => setTimeout(r, 100));
  await t.publish(2, [doneDraft(t.turnId)]);
  await readUntil(() => false);
  expect([...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1])).toEqual(['content', 'done']);
});

test('clients of one stream share one Redis reader, released when the last one leaves', async () => {
  const t = await syntheticTurn(h);
  await t.publish(1, [contentDraft(t.turnId, 'x')]);
  expect(await readerConnections(h.runtime.redis, t.key)).toBe(0);
  const controllers = [new AbortController(), new AbortController()];
  const got: string[][] = [[], []];
  const readers = controllers.map(async (c, i) => {
    const res = await fetch(t.url, { signal: c.signal });
    const reader = res.body!.getReader();
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      got[i]!.push(new TextDecoder().decode(value));
    }
  });
  await waitFor(async () => (await readerConnections(h.runtime.redis, t.key)) === 1, 5000, 'one shared reader');
  await t.publish(2, [contentDraft(t.turnId, 'live')]);
  await waitFor(() => got.every((g) => g.join('').includes('id: 2-0')), 5000, 'live event at both clients');
  expect(await readerConnections(h.runtime.redis, t.key)).toBe(1);
  controllers[0]!.abort();
  await new Promise((r) => setTimeout(r, 100));
  expect(await readerConnections(h.runtime.redis, t.key)).toBe(1);
  controllers[1]!.abort();
  await waitFor(async () => (await readerConnections(h.runtime.redis, t.key)) === 0, 5000, 'reader released');
  await Promise.all(readers);
});

test('dedicated readers (one per client) serve the same frames and release their connection', async () => {
  const t = await syntheticTurn(h);
  await t.publish(1, [contentDraft(t.turnId, 'a'), contentDraft(t.turnId, 'b')]);
  const app = express();
  app.get('/events', (req, res) =>
    serveSse(
      req,
      res,
      h.runtime.redis,
      { key: t.key, stateUrl: '/state', envelope: { turnId: t.turnId }, hasEnded: async () => false },
      {
        keepAliveMs: 250,
        retryMs: 1000,
        clock: () => new Date(),
        reader: 'dedicated',
      },
    ),
  );
  const s = await createStartedServer(app);
  try {
    const controller = new AbortController();
    const chunks: string[] = [];
    const reading = fetch(`${s.baseUrl}/events`, { signal: controller.signal }).then(async (res) => {
      const reader = res.body!.getReader();
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        chunks.push(new TextDecoder().decode(value));
      }
    });
    await waitFor(async () => (await readerConnections(h.runtime.redis, t.key)) === 1, 5000, 'a dedicated reader');
    const second = readSse(`${s.baseUrl}/events`);
    await waitFor(async () => (await readerConnections(h.runtime.redis, t.key)) === 2, 5000, 'a reader per client');
    await t.publish(2, [contentDraft(t.turnId, 'c'), doneDraft(t.turnId)]);
    const dedicated = await second;
    const shared = await readSse(t.url);
    expect(wire(dedicated.frames)).toBe(wire(shared.frames));
    expect(dedicated.frames.map((f) => f.id)).toEqual(['1-0', '1-1', '2-0', '2-1']);
    // The first client saw done too and its response ended; its reader is gone with it.
    await reading;
    expect(chunks.join('')).toContain('event: done');
    controller.abort();
    await waitFor(async () => (await readerConnections(h.runtime.redis, t.key)) === 0, 5000, 'readers released');
  } finally {
    await s.close();
  }
});

test('a client that leaves a dedicated reader mid-wait releases it at once', async () => {
  const t = await syntheticTurn(h);
  const app = express();
  app.get('/events', (req, res) =>
    serveSse(
      req,
      res,
      h.runtime.redis,
      { key: t.key, stateUrl: '/s', envelope: {}, hasEnded: async () => false },
      { keepAliveMs: 10_000, retryMs: 1000, clock: () => new Date(), reader: 'dedicated' },
    ),
  );
  const s = await createStartedServer(app);
  try {
    const c = new AbortController();
    const res = await fetch(`${s.baseUrl}/events`, { signal: c.signal });
    expect(res.status).toBe(200);
    await waitFor(async () => (await readerConnections(h.runtime.redis, t.key)) === 1, 5000, 'a dedicated reader');
    c.abort();
    await waitFor(async () => (await readerConnections(h.runtime.redis, t.key)) === 0, 2000, 'reader released');
  } finally {
    await s.close();
  }
});

test("the opening check takes the route's own read of the turn; the keep-alive checks read it again", async () => {
  const t = await syntheticTurn(h);
  const looks = { n: 0, ended: false };
  const serve = (endedWhenOpened: boolean) => {
    const app = express();
    app.get('/events', (req, res) =>
      serveSse(
        req,
        res,
        h.runtime.redis,
        {
          key: t.key,
          stateUrl: '/s',
          envelope: { turnId: t.turnId },
          hasEnded: async () => (looks.n++, looks.ended),
          endedWhenOpened,
        },
        { keepAliveMs: 100, retryMs: 1000, clock: () => new Date() },
      ),
    );
    return createStartedServer(app);
  };
  // No stream and the turn read as ended: it expired, answered without a second look.
  const ended = await serve(true);
  try {
    const r = await readSse(`${ended.baseUrl}/events`);
    expect(r.frames.map((f) => [f.event, JSON.parse(f.data).data.reason])).toEqual([['reset', 'expired']]);
    expect(looks.n).toBe(0);
  } finally {
    await ended.close();
  }
  // No stream yet and the turn read as running: served; when it ends without a stream, the
  // keep-alive checks (fresh looks) end the response.
  const running = await serve(false);
  try {
    const reading = readSse(`${running.baseUrl}/events`);
    await new Promise((r) => setTimeout(r, 150));
    looks.ended = true;
    const r = await reading;
    expect(r.frames.map((f) => [f.event, JSON.parse(f.data).data.reason])).toEqual([['reset', 'expired']]);
    expect(looks.n).toBeGreaterThanOrEqual(2);
  } finally {
    await running.close();
  }
});
