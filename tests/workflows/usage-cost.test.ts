/**
 * Cost in money end to end: each model call's usage record carries the
 * prompt tokens the provider served from its prefix cache (the offline model reports them as
 * a provider would) and its cost by the price table; the usage API sums both per project,
 * session and user, and calls to an unpriced model are counted, not priced.
 */
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { ofType, router, say, streamFile, words } from '../helpers/script';
import { costUsd, priceOf } from '../../src/core/prices';
import { jobEvents, progressOf, startJob, waitFor, waitJob } from './job-helpers';

const PRICE = { input: 3, cachedInput: 0.3, output: 15 };

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    config: {
      OPENAI_MODEL: 'house-model',
      MODEL_PRICES: JSON.stringify({ 'house-model': PRICE }),
      REVIEW_WORD_THRESHOLD: '5000',
    },
  });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

interface Figures {
  promptTokens: number;
  cachedPromptTokens: number;
  costUsd: number;
  unpricedSteps: number;
  steps: number;
}

test('usage records, events and the usage API carry cached tokens and cost', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    ...streamFile('writer', 'Chapter 1', words(300)),
    say('writer', 'Chapter 1 is written.'),
  ]);
  const r = await runTurn(h, sessionId, 'Write chapter 1');
  expect(r.outcome.status).toBe('completed');

  const records = await h.runtime.models.UsageRecord.find({ turnId: r.turnId }).sort({ step: 1 }).lean();
  const steps = records.filter((x) => x.agent === 'writer');
  expect(steps.length).toBeGreaterThanOrEqual(2);
  // A later step of the run repeats the start of the first one's prompt: the provider's cache serves it.
  expect(steps[0]!.cachedPromptTokens).toBe(0);
  expect(steps.slice(1).every((s) => s.cachedPromptTokens > 0 && s.cachedPromptTokens <= s.promptTokens)).toBe(true);
  for (const s of steps) expect(s).toMatchObject({ priced: true, costUsd: costUsd(PRICE, s) });
  // The stream's usage events carry the same figures.
  const events = ofType(r.events, 'usage').filter((e) => e.agent === 'writer');
  expect(events.map((e) => [e.data.cachedPromptTokens, e.data.costUsd])).toEqual(
    steps.map((s) => [s.cachedPromptTokens, s.costUsd]),
  );

  const all = await h.runtime.models.UsageRecord.find({ projectId }).lean();
  const expected = all.reduce((sum, x) => sum + (x.costUsd ?? 0), 0);
  for (const path of [`/api/v1/projects/${projectId}/usage`, `/api/v1/sessions/${sessionId}/usage`]) {
    const report = await api<{ totals: Figures; byAgent: (Figures & { agent: string })[] }>(h, 'GET', path);
    expect(report.body.totals.costUsd).toBeCloseTo(expected, 9);
    expect(report.body.totals.costUsd).toBeGreaterThan(0);
    expect(report.body.totals.cachedPromptTokens).toBe(all.reduce((n, x) => n + x.cachedPromptTokens, 0));
    expect(report.body.totals.unpricedSteps).toBe(0);
  }
  expect(priceOf(h.config.meta.prices, 'house-model')).toEqual(PRICE);
});

test('a job’s usage: its chapter turns’ tokens and cost, in one report', async () => {
  const { projectId } = await createProjectAndSession(h);
  const { jobId } = await startJob(h, { projectId, chapters: { from: 1, to: 2 }, wordsPerChapter: 300 });
  await waitJob(h, jobId);
  const records = await h.runtime.models.UsageRecord.find({ jobId }).lean();
  expect(records.length).toBeGreaterThan(2);
  const report = await api<{ jobId: string; totals: Figures; byTurn: { turnId: string }[] }>(
    h,
    'GET',
    `/api/v1/jobs/${jobId}/usage`,
  );
  expect(report.status).toBe(200);
  expect(report.body.totals.steps).toBe(records.length);
  expect(report.body.totals.costUsd).toBeCloseTo(
    records.reduce((s, x) => s + (x.costUsd ?? 0), 0),
    9,
  );
  expect(report.body.totals.costUsd).toBeGreaterThan(0);
  expect(new Set(report.body.byTurn.map((t) => t.turnId))).toEqual(new Set(records.map((x) => x.turnId)));
}, 120_000);

test('a job with a cost budget pauses before the chapter that would cross it, and goes on once the budget is lifted', async () => {
  const { projectId } = await createProjectAndSession(h);
  const { jobId } = await startJob(h, {
    projectId,
    chapters: { from: 1, to: 3 },
    wordsPerChapter: 300,
    maxCostUsd: 0.000001,
  });
  const paused = await waitFor('paused at its cost budget', async () => {
    const j = await api<{ status: string; chaptersDone: number[]; maxCostUsd: number }>(
      h,
      'GET',
      `/api/v1/jobs/${jobId}`,
    );
    return j.body.status === 'paused' ? j.body : null;
  });
  // The outline's planner turn already spent more than the budget: the job stops before its first chapter.
  expect(paused).toMatchObject({ chaptersDone: [], maxCostUsd: 0.000001 });
  const spent = (await h.runtime.models.UsageRecord.find({ jobId }).lean()).reduce((s, x) => s + (x.costUsd ?? 0), 0);
  expect(spent).toBeGreaterThan(0.000001);
  const message = progressOf(await jobEvents(h, jobId))
    .map((e) => e.data.message ?? '')
    .find((m) => m.includes('cost budget'));
  expect(message).toBe(
    `Paused before chapter 1: cost budget $0.0000 would be exceeded ($${spent.toFixed(4)} spent, about $0.0000 per chapter). Raise the cost budget and resume to go on.`,
  );
  // No chapter turn ran while paused.
  expect(await h.runtime.models.Turn.countDocuments({ jobId, message: /^Write Chapter/ })).toBe(0);

  expect((await api(h, 'POST', `/api/v1/jobs/${jobId}/resume`, { maxCostUsd: null })).status).toBe(202);
  expect(await waitJob(h, jobId)).toMatchObject({ status: 'completed', chaptersDone: 3 });
  expect(progressOf(await jobEvents(h, jobId)).map((e) => e.data.message)).toContain(
    'Resumed at chapter 1 (cost budget lifted).',
  );
}, 120_000);

test('a call to a model with no price is counted with no cost', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  h.model.script([router({ current_agent: 'writer', workflow_plan: 'quick' }), say('writer', 'A short answer.')]);
  const r = await runTurn(h, sessionId, 'Say hello');
  // Re-price one record as if its model had no price (as a call to an unknown model is recorded).
  await h.runtime.models.UsageRecord.updateOne(
    { turnId: r.turnId, agent: 'writer' },
    { $set: { priced: false, costUsd: null, model: 'unknown-model' } },
  );
  const report = await api<{ totals: Figures }>(h, 'GET', `/api/v1/projects/${projectId}/usage`);
  expect(report.body.totals.unpricedSteps).toBe(1);
  expect(report.body.totals.steps).toBeGreaterThan(1);
  const priced = await h.runtime.models.UsageRecord.find({ projectId, priced: true }).lean();
  expect(report.body.totals.costUsd).toBeCloseTo(
    priced.reduce((s, x) => s + (x.costUsd ?? 0), 0),
    9,
  );
});
