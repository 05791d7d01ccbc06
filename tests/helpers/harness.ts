/**
 * Integration harness: real Temporal dev server, real MongoDB-wire server, real Redis,
 * the offline model as the only stand-in. Each suite gets its own database, Redis key
 * prefix and task queue, so suites run side by side on the same services.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { DefaultLogger, NativeConnection, Runtime as TemporalRuntime, type Worker } from '@temporalio/worker';
import type { Logger } from 'pino';
import { createApp } from '../../src/api/app';
import { type Config, loadConfig } from '../../src/config';
import { writeVersion } from '../../src/db/file-store';
import { createLogger } from '../../src/logger';
import { startOfflineModel, type OfflineModel } from '../../src/offline-model';
import { connectRuntime, createLlmClient, type Runtime } from '../../src/runtime';
import { createWorker } from '../../src/worker';
import { readRange, turnStreamKey } from '../../src/streams/redis-streams';
import type { StreamEvent } from '../../src/core/events';
import type { TurnOutcome } from '../../src/core/turn/turn-types';
import type { FaultInjector } from '../../src/shared/faults';

import { ROOT, testBundle } from './bundle';

export { ROOT, testBundle };

// Worker lifecycle chatter at INFO drowns test output; warnings and errors still show.
let runtimeInstalled = false;
export function quietTemporalRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    TemporalRuntime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // Already installed by an earlier harness in this process.
  }
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 7)}`;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  const name = uniqueName('t');
  return loadConfig({
    env: {
      ...process.env,
      SCRIPTORIUM_ENV_PRIORITY: 'none',
      OPENAI_API_KEY: '',
      LOG_LEVEL: 'warn',
      TEMPORAL_TASK_QUEUE: `test-${name}`,
      REDIS_KEY_PREFIX: `test:${name}:`,
      MONGODB_URI: process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/scriptorium_test',
      REVIEW_WORD_THRESHOLD: '300',
      // A turn nobody answers does not wait the production 15 minutes (runTurn answers them).
      APPROVAL_WAIT_SECONDS: '60',
      // Most tests script every model call exactly; suggestion tests turn this back on.
      SUGGESTIONS_ENABLED: 'false',
      // The 0.5 s read budgets would cut reads on a loaded two-core test machine, and the scenarios
      // rely on what they read; the budgets' own tests set them back.
      PREPARATION_READ_BUDGET_MS: '5000',
      FACT_CHECK_BUDGET_MS: '5000',
      ...overrides,
    },
  });
}

export interface Harness {
  config: Config;
  runtime: Runtime;
  model: OfflineModel;
  /** The in-process worker; null with `noWorker` (those suites run worker processes). */
  worker: Worker | null;
  baseUrl: string;
  dbName: string;
  /** Starts the worker (runs until close). */
  startWorker(): void;
  close(): Promise<void>;
}

export interface HarnessOptions {
  config?: Record<string, string>;
  /** Don't start a worker (fault tests run their own worker process). */
  noWorker?: boolean;
  maxCachedWorkflows?: number;
  /** Logger for the app and worker (log tests capture the stream); default: quiet pino. */
  logger?: Logger;
  /** Test hooks in the activities (e.g. a slow parallel sub-task). */
  faults?: FaultInjector;
  /** Client and worker on one NativeConnection with eager workflow start, as src/main.ts runs them together. */
  sharedConnection?: boolean;
  /** The offline model's pace (default: instant). */
  model?: { ttftMs: number; tokensPerSecond: number };
}

export async function createHarness(opts: HarnessOptions = {}): Promise<Harness> {
  quietTemporalRuntime();
  const config = testConfig(opts.config);
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL, 'test');
  const dbName = uniqueName('scriptorium_test');
  const shared =
    opts.sharedConnection && !opts.noWorker
      ? await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS })
      : undefined;
  const runtime = await connectRuntime(config, logger, { dbName, temporalConnection: shared });
  const model = await startOfflineModel(opts.model ?? { ttftMs: 0, tokensPerSecond: 1e6 });
  // A created-but-never-run worker holds native resources that keep Jest alive: don't make one.
  const worker = opts.noWorker
    ? null
    : await createWorker({
        config,
        runtime,
        llm: createLlmClient(config, model.baseURL),
        logger,
        workflowBundle: testBundle(),
        maxCachedWorkflows: opts.maxCachedWorkflows,
        faults: opts.faults,
        connection: shared,
      });
  let running: Promise<void> | null = null;
  const app = createApp({
    config,
    models: runtime.models,
    redis: runtime.redis,
    temporal: runtime.temporal,
    logger,
    clock: () => new Date(),
    eagerStart: !!shared,
    faults: opts.faults,
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const h: Harness = {
    config,
    runtime,
    model,
    worker,
    dbName,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    startWorker() {
      if (!worker) throw new Error('this harness was created with noWorker');
      running ??= worker.run();
    },
    async close() {
      server.closeAllConnections();
      server.close();
      if (running) {
        worker!.shutdown();
        await running;
      }
      await runtime.mongo.dropDatabase().catch(() => undefined);
      await runtime.close();
      await model.close();
    },
  };
  if (!opts.noWorker) h.startWorker();
  return h;
}

/** JSON over real HTTP against the harness's app. */
export async function api<T = Record<string, unknown>>(
  h: Pick<Harness, 'baseUrl'>,
  method: string,
  urlPath: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${h.baseUrl}${urlPath}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

export async function createProjectAndSession(
  h: Harness,
  type = 'novel',
  headers: Record<string, string> = {},
): Promise<{ projectId: string; sessionId: string }> {
  const p = await api<{ id: string }>(h, 'POST', '/api/v1/projects', { title: 'Test project', type }, headers);
  if (p.status !== 201) throw new Error(`project create failed: ${JSON.stringify(p.body)}`);
  const s = await api<{ id: string }>(h, 'POST', '/api/v1/sessions', { projectId: p.body.id }, headers);
  if (s.status !== 201) throw new Error(`session create failed: ${JSON.stringify(s.body)}`);
  return { projectId: p.body.id, sessionId: s.body.id };
}

export async function postTurn(
  h: Harness,
  sessionId: string,
  message: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const r = await api<{ turnId: string }>(h, 'POST', `/api/v1/sessions/${sessionId}/turns`, { message, ...extra });
  if (r.status !== 202) throw new Error(`turn start failed ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body.turnId;
}

/** Waits for the turn's workflow to finish and returns its result. */
export async function waitTurn(h: Harness, turnId: string): Promise<TurnOutcome> {
  return h.runtime.temporal.workflow.getHandle(`turn-${turnId}`).result();
}

export async function turnEvents(h: Harness, turnId: string): Promise<StreamEvent[]> {
  const entries = await readRange(h.runtime.redis, turnStreamKey(h.config.REDIS_KEY_PREFIX, turnId), null, 100000);
  return entries.map((e) => e.event);
}

export type ApprovalAnswers = 'approve' | 'deny' | 'ignore' | ('approve' | 'deny')[];

/**
 * Answers the turn's approval requests as the author would (through the API), in order,
 * until the turn ends. A test that expects none gets its unexpected requests denied rather
 * than waiting out APPROVAL_WAIT_SECONDS. Resolves with the approvals it answered.
 */
export async function answerApprovals(
  h: Harness,
  turnId: string,
  answers: ApprovalAnswers,
  done: Promise<unknown>,
  headers: Record<string, string> = {},
) {
  const answered: { approvalId: string; decision: string; title: string; status: number }[] = [];
  if (answers === 'ignore') return answered;
  let over = false;
  void done.finally(() => (over = true)).catch(() => undefined);
  while (!over) {
    const t = await h.runtime.models.Turn.findById(turnId).lean();
    const pending =
      t?.status === 'awaiting_approval' ? (t.pendingApproval as { approvalId: string; title: string } | null) : null;
    if (pending && !answered.some((a) => a.approvalId === pending.approvalId)) {
      const decision = Array.isArray(answers) ? (answers[answered.length] ?? 'deny') : answers;
      const r = await api(h, 'POST', `/api/v1/turns/${turnId}/approvals/${pending.approvalId}`, { decision }, headers);
      answered.push({ approvalId: pending.approvalId, decision, title: pending.title, status: r.status });
    }
    await new Promise((r) => setTimeout(r, 40));
  }
  return answered;
}

/** Runs one turn start to finish; approval requests are answered with `opts.approvals` (default: deny). */
export async function runTurn(
  h: Harness,
  sessionId: string,
  message: string,
  extra: Record<string, unknown> = {},
  opts: { approvals?: ApprovalAnswers } = {},
) {
  const turnId = await postTurn(h, sessionId, message, extra);
  const result = waitTurn(h, turnId);
  const approvals = await answerApprovals(h, turnId, opts.approvals ?? 'deny', result);
  const outcome = await result;
  const events = await turnEvents(h, turnId);
  const turn = await h.runtime.models.Turn.findById(turnId).lean();
  return { turnId, outcome, events, turn: turn!, approvals };
}

/** A scripted router answer. */
export function routerReply(answer: {
  current_agent: string;
  workflow_plan: string;
  workflow_agents?: string[];
  write_content?: boolean;
  read_only?: boolean;
  scope?: string;
}) {
  return {
    match: { agent: 'router' as const },
    reply: {
      content: JSON.stringify({ workflow_agents: [], write_content: true, read_only: false, scope: 'test', ...answer }),
    },
  };
}

/** afterEach guard: the scripted model never ran out of script; resets it for the next test. */
export function expectScriptFullyUsed(h: Pick<Harness, 'model'>): void {
  const failures = [...h.model.failures];
  h.model.reset();
  expect(failures).toEqual([]);
}

/** A file the author wrote (version 1 by the author), as the author's own `PUT` leaves it. */
export async function createAuthorFile(
  h: Pick<Harness, 'runtime'>,
  projectId: string,
  title: string,
  content: string,
  opts: { parentId?: string | null; type?: string } = {},
): Promise<string> {
  const f = await h.runtime.models.File.create({
    projectId,
    ownerId: 'local',
    type: opts.type ?? 'draft',
    title,
    parentId: opts.parentId ?? null,
    content: '',
    versionCount: 0,
  });
  if (content)
    await writeVersion(h.runtime.models, String(f._id), content, { author: 'author', operation: 'author_edit' });
  return String(f._id);
}
