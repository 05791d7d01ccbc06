/**
 * SSE relay latency: from `StreamPublisher.publish` (what an activity calls) to the moment
 * the event's bytes reach an SSE client over real HTTP (parsed with eventsource-parser),
 * with 1, 10 and 100 concurrent clients on one stream, for both live readers: `fanout`
 * (one shared XREAD BLOCK per stream per API process, the default) and `dedicated` (one
 * XREAD BLOCK connection per client). A `redis only` row gives this machine's floor.
 *
 *   npx tsx bench/sse-relay.ts [--events 300] [--interval 10] [--clients 1,10,100] [--modes fanout,dedicated]
 *
 * The clients run in a child process, so their parsing does not queue behind the server on
 * one event loop. Times are CLOCK_MONOTONIC (`process.hrtime`), shared by both processes:
 * the publisher stamps the event with its send time, the client subtracts on receipt.
 * Needs only Redis (REDIS_URL, default redis://127.0.0.1:6379). Prints a table.
 */
import { type ChildProcess, fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import express from 'express';
import { createParser } from 'eventsource-parser';
import { Redis } from 'ioredis';
import { serveSse } from '../src/api/sse';
import { draft } from '../src/core/events';
import { readBlocking, StreamPublisher } from '../src/streams/redis-streams';

type Mode = 'fanout' | 'dedicated';
type ToChild = { cmd: 'connect'; url: string; clients: number };
type FromChild = { ready: true } | { latenciesMs: number[]; spreadsMs: number[]; connected: number };

const now = (): bigint => process.hrtime.bigint();

// ---------------------------------------------------------------- client process
async function clientRole(): Promise<void> {
  const msg = await new Promise<ToChild>((resolve) => process.once('message', (m) => resolve(m as ToChild)));
  const latencies: number[] = [];
  /** Per event: first and last receipt among the clients (the cost of fanning out). */
  const firstLast = new Map<string, [number, number]>();
  const warmed = new Set<number>();
  let readySent = false;
  // node:http rather than fetch: undici's web streams cost more per chunk than the relay
  // itself, and 100 clients share this one process.
  const one = (i: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = http.get(msg.url, { headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
        res.setEncoding('utf8');
        // Receipt is when the bytes arrive; the events in a chunk are parsed right after.
        let received = now();
        const parser = createParser({
          onEvent(e) {
            if (e.event === 'done') return;
            const delta = (JSON.parse(e.data) as { data: { delta: string } }).data.delta;
            if (delta.startsWith('w')) {
              warmed.add(i);
              if (!readySent && warmed.size === msg.clients) {
                readySent = true;
                process.send!({ ready: true } satisfies FromChild);
              }
              return;
            }
            const ms = Number(received - BigInt(delta)) / 1e6;
            latencies.push(ms);
            const fl = firstLast.get(delta);
            firstLast.set(delta, fl ? [Math.min(fl[0], ms), Math.max(fl[1], ms)] : [ms, ms]);
          },
        });
        res.on('data', (chunk: string) => {
          received = now();
          parser.feed(chunk);
        });
        res.on('end', () => resolve());
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  await Promise.all(Array.from({ length: msg.clients }, (_, i) => one(i)));
  const spreadsMs = [...firstLast.values()].map(([first, last]) => last - first);
  process.send!({ latenciesMs: latencies, spreadsMs, connected: msg.clients } satisfies FromChild, () =>
    process.exit(0),
  );
}

// ---------------------------------------------------------------- server + publisher
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function runOne(
  redisUrl: string,
  baseUrl: string,
  mode: Mode,
  clients: number,
  events: number,
  intervalMs: number,
) {
  const key = `bench:sse:${mode}:${clients}:${Date.now().toString(36)}`;
  const pub = new Redis(redisUrl);
  const child: ChildProcess = fork(__filename, ['--client-role'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: FromChild[] = [];
  let wake: (() => void) | null = null;
  child.on('message', (m) => {
    messages.push(m as FromChild);
    wake?.();
  });
  const next = async <T extends FromChild>(pred: (m: FromChild) => m is T): Promise<T> => {
    for (;;) {
      const found = messages.find(pred);
      if (found) return found;
      await new Promise<void>((r) => (wake = r));
    }
  };
  child.send({
    cmd: 'connect',
    url: `${baseUrl}/events?key=${encodeURIComponent(key)}&mode=${mode}`,
    clients,
  } satisfies ToChild);

  // Warm-up events until every client has one: all are connected and reading live.
  const warm = new StreamPublisher(pub, key, 1, { maxLen: 100000 });
  let ready = false;
  void next((m): m is { ready: true } => 'ready' in m).then(() => (ready = true));
  while (!ready) {
    await warm.publish([draft('content', { delta: 'w' }, { turnId: 'bench' })]);
    await new Promise((r) => setTimeout(r, 50));
  }

  // Measured: one event at a time, as a streaming LLM step publishes tokens.
  const publisher = new StreamPublisher(pub, key, 2, { maxLen: 100000 });
  for (let i = 0; i < events; i++) {
    await publisher.publish([draft('content', { delta: String(now()) }, { turnId: 'bench' })]);
    await new Promise((r) => setTimeout(r, intervalMs * (0.5 + Math.random())));
  }
  await publisher.publish([draft('done', { status: 'completed' }, { turnId: 'bench' })]);
  const result = await next((m): m is Extract<FromChild, { latenciesMs: number[] }> => 'latenciesMs' in m);
  await pub.del(key);
  pub.disconnect();
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  const spreads = [...result.spreadsMs].sort((a, b) => a - b);
  return {
    mode,
    clients,
    samples: sorted.length,
    expected: events * clients,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
    spread: percentile(spreads, 50),
  };
}

/** The floor: publish → XREAD BLOCK on a second connection in this process, no HTTP at all. */
async function redisFloor(redisUrl: string, events: number, intervalMs: number) {
  const pub = new Redis(redisUrl);
  const sub = new Redis(redisUrl);
  const key = `bench:sse:floor:${Date.now().toString(36)}`;
  const publisher = new StreamPublisher(pub, key, 1, { maxLen: 100000 });
  const latencies: number[] = [];
  let cursor = '0-0';
  let stop = false;
  const reading = (async () => {
    while (!stop) {
      const entries = await readBlocking(sub, key, cursor, 200);
      const received = now();
      for (const e of entries) {
        cursor = e.id;
        if (e.event.type === 'content') latencies.push(Number(received - BigInt(e.event.data.delta)) / 1e6);
      }
    }
  })();
  for (let i = 0; i < events; i++) {
    await publisher.publish([draft('content', { delta: String(now()) }, { turnId: 'bench' })]);
    await new Promise((r) => setTimeout(r, intervalMs * (0.5 + Math.random())));
  }
  stop = true;
  await reading;
  await pub.del(key);
  pub.disconnect();
  sub.disconnect();
  const sorted = latencies.sort((a, b) => a - b);
  return {
    mode: 'redis only',
    clients: 1,
    samples: sorted.length,
    expected: events,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
    spread: 0,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      events: { type: 'string', default: '300' },
      interval: { type: 'string', default: '10' },
      clients: { type: 'string', default: '1,10,100' },
      modes: { type: 'string', default: 'fanout,dedicated' },
    },
  });
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis = new Redis(redisUrl);
  const app = express();
  app.get('/events', (req, res) => {
    const mode = req.query.mode === 'dedicated' ? 'dedicated' : 'fanout';
    void serveSse(
      req,
      res,
      redis,
      { key: String(req.query.key), stateUrl: '/state', envelope: { turnId: 'bench' }, hasEnded: async () => false },
      {
        keepAliveMs: 15000,
        retryMs: 2000,
        clock: () => new Date(),
        reader: mode,
      },
    );
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const rows = [await redisFloor(redisUrl, Number(values.events), Number(values.interval))];
  for (const clients of values.clients!.split(',').map(Number))
    for (const mode of values.modes!.split(',') as Mode[]) {
      const row = await runOne(redisUrl, baseUrl, mode, clients, Number(values.events), Number(values.interval));
      rows.push(row);
      process.stderr.write(`  ${mode} × ${clients}: p99 ${row.p99.toFixed(2)} ms\n`);
    }

  const f = (n: number): string => n.toFixed(2).padStart(8);
  console.log(
    `\nSSE relay latency, publish → received by the client (${values.events} events per run, ~${values.interval} ms apart)\n`,
  );
  console.log('mode         clients    samples    p50 ms    p99 ms    max ms  first→last p50');
  for (const r of rows)
    console.log(
      `${r.mode.padEnd(11)}  ${String(r.clients).padStart(7)}  ${`${r.samples}/${r.expected}`.padStart(11)}  ${f(r.p50)}  ${f(r.p99)}  ${f(r.max)}  ${f(r.spread)}`,
    );
  console.log('\n`redis only` is the floor on this machine: XADD → XREAD BLOCK wake-up, no HTTP, no SSE.');
  console.log(
    'first→last: per event, from the first client to the last one receiving it (all clients share one process).',
  );
  console.log('target: p99 ≤ 5 ms at 100 clients');
  server.closeAllConnections();
  server.close();
  redis.disconnect();
}

if (process.argv.includes('--client-role')) void clientRole();
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
