/**
 * Writes answers to the HTTP response with realistic timing: a time to first token, then
 * pieces paced at a token rate. Every wait ends early when the client goes away, so a
 * caller that aborts its request stops the output promptly.
 */
import type { ServerResponse } from 'node:http';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import {
  completionObject,
  pacedPieceCount,
  sseFrame,
  streamSteps,
  usageChunk,
  type CompletionMeta,
  type StreamStep,
} from './protocol';
import type { ModelReply, UsageCounts } from './types';

/** Resolves after `ms`, or at once when `signal` aborts. Never rejects. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Resolves when `signal` aborts (the client disconnected or the server is closing). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/**
 * Schedules piece k at `start + k / rate`. Sleeping per piece would drift and, at high
 * rates, cost a timer each; scheduling against the start keeps the rate exact and lets
 * fast test timings run without timers, yielding to the event loop now and then so a
 * disconnect is still noticed.
 */
class Pacer {
  private start = 0;
  private count = 0;

  constructor(
    private readonly tokensPerSecond: number,
    private readonly signal: AbortSignal,
  ) {}

  begin(): void {
    this.start = performance.now();
  }

  async next(): Promise<void> {
    const due = this.start + (this.count * 1000) / this.tokensPerSecond;
    this.count += 1;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait, this.signal);
    else if (this.count % 64 === 0) await yieldToLoop();
  }
}

/** Writes, waiting for `drain` when the socket buffer is full (or until the client leaves). */
async function write(res: ServerResponse, data: string, signal: AbortSignal): Promise<void> {
  if (res.write(data) || signal.aborted) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    res.on('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Sends a JSON body with a status. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** True once the answer has streamed `afterChars` content characters (a stall or a cut comes here). */
function stopsBefore(step: StreamStep, afterChars: number | undefined): boolean {
  if (afterChars === undefined) return false;
  if (step.kind === 'content') return step.contentChars > afterChars;
  return step.kind === 'tool' || step.kind === 'finish';
}

export interface StreamOptions {
  includeUsage: boolean;
  /** Computed only when needed: counting a long prompt costs a few milliseconds. */
  usage: () => UsageCounts | null;
  /** Told the content characters written so far, after each content chunk. */
  sent?: (chars: number) => void;
}

/** Streams the answer as SSE `chat.completion.chunk` frames ending with `data: [DONE]`. */
export async function streamCompletion(
  res: ServerResponse,
  signal: AbortSignal,
  meta: CompletionMeta,
  reply: ModelReply,
  options: StreamOptions,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  const pacer = new Pacer(reply.timing.tokensPerSecond, signal);
  let started = false;
  for (const step of streamSteps(meta, reply)) {
    if (signal.aborted) return;
    if (stopsBefore(step, reply.stallAfterChars)) {
      await untilAborted(signal);
      return;
    }
    if (stopsBefore(step, reply.cutAfterChars)) {
      // The socket goes without a finish chunk or a clean end, as when a proxy drops it.
      res.destroy();
      return;
    }
    if (step.kind !== 'role' && !started) {
      started = true;
      await sleep(reply.timing.ttftMs, signal);
      pacer.begin();
    }
    if (step.kind !== 'role' && step.kind !== 'finish') await pacer.next();
    if (signal.aborted) return;
    await write(res, sseFrame(step.chunk), signal);
    if (step.kind === 'content') options.sent?.(step.contentChars);
  }
  if (signal.aborted) return;
  const usage = options.includeUsage ? options.usage() : null;
  if (usage) await write(res, sseFrame(usageChunk(meta, usage)), signal);
  if (signal.aborted) return;
  res.end(sseFrame('[DONE]'));
}

/** Answers with one `chat.completion` after the time the stream would have taken. */
export async function sendCompletion(
  res: ServerResponse,
  signal: AbortSignal,
  meta: CompletionMeta,
  reply: ModelReply,
  usage: () => UsageCounts | null,
): Promise<void> {
  if (reply.stallAfterChars !== undefined) {
    await untilAborted(signal);
    return;
  }
  if (reply.cutAfterChars !== undefined) {
    res.destroy();
    return;
  }
  const pieces = pacedPieceCount(reply);
  await sleep(reply.timing.ttftMs + (Math.max(0, pieces - 1) * 1000) / reply.timing.tokensPerSecond, signal);
  if (signal.aborted) return;
  sendJson(res, 200, completionObject(meta, reply, usage()));
}
