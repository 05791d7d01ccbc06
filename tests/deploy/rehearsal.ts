/**
 * The deploy rehearsal (`npm run deploy:rehearse`, and tests/deploy/deploy-rehearse.test.ts):
 * on the local services, build A serves turns arriving every second and a 6-chapter job; build
 * B, whose workflows take an extra step that breaks the replay of A's histories
 * (workflows-b.ts), starts beside it, is ramped to 20 % and made current with the operator's
 * own commands (`temporal worker deployment …`); A drains and stops; then the same back to A
 * (the rollback). It records what each run did and checks what a deploy must keep: no failed
 * turn, no nondeterminism error, turns finishing on the build that started them, the job moving
 * builds only between chapters and writing no chapter twice.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, type Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { workflowBundleOptions } from '../../src/bundling';
import type { Config } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createLlmClient } from '../../src/runtime';
import { createWorker } from '../../src/worker';
import { chapterSnapshot, runHistories, startJob, waitFor, waitJob } from '../workflows/job-helpers';
import { createHarness, createProjectAndSession, postTurn, uniqueName } from '../helpers/harness';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
/** The Temporal CLI the way scripts/services.sh finds it: its own install first, then PATH. */
const TEMPORAL_CLI =
  process.env.TEMPORAL_CLI ??
  (fs.existsSync(path.join(ROOT, '.local/bin/temporal')) ? path.join(ROOT, '.local/bin/temporal') : 'temporal');

export interface RehearsalCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface TurnRecord {
  turnId: string;
  startedAt: number;
  /** Builds that completed this turn's workflow tasks, in order, without repeats. */
  builds: string[];
  status: string;
}

export interface RehearsalReport {
  checks: RehearsalCheck[];
  turns: TurnRecord[];
  /** The builds of each run of the job, oldest first. */
  jobRuns: { builds: string[] }[];
  timeline: { at: number; what: string }[];
  nondeterminismErrors: number;
  seconds: number;
}

interface Build {
  id: string;
  worker: Worker;
  running: Promise<void>;
}

/** The build ids that completed a run's workflow tasks, and its nondeterminism failures. */
function buildsOf(events: temporal.api.history.v1.IHistoryEvent[]): { builds: string[]; nondeterminism: number } {
  const builds: string[] = [];
  let nondeterminism = 0;
  for (const e of events) {
    const done = e.workflowTaskCompletedEventAttributes;
    const id = done?.deploymentVersion?.buildId || done?.workerVersion?.buildId;
    if (id && builds[builds.length - 1] !== id) builds.push(id);
    const failed = e.workflowTaskFailedEventAttributes;
    if (failed && /nondetermin/i.test(`${failed.cause} ${failed.failure?.message ?? ''}`)) nondeterminism++;
  }
  return { builds, nondeterminism };
}

export async function rehearseDeploy(
  opts: { log?: (line: string) => void; chapters?: number } = {},
): Promise<RehearsalReport> {
  const log = opts.log ?? (() => undefined);
  const chapters = opts.chapters ?? 6;
  const began = Date.now();
  const timeline: RehearsalReport['timeline'] = [];
  const mark = (what: string) => {
    timeline.push({ at: Date.now() - began, what });
    log(`${((Date.now() - began) / 1000).toFixed(1).padStart(6)} s  ${what}`);
  };
  const deployment = uniqueName('rehearse').replace(/[^A-Za-z0-9_-]/g, '-');
  const [buildA, buildB] = [`${deployment}-a`, `${deployment}-b`];
  const h = await createHarness({
    noWorker: true,
    // A turn takes about two seconds, so deploys land on turns in flight.
    model: { ttftMs: 150, tokensPerSecond: 250 },
    config: { WORKER_VERSIONING: 'pinned', WORKER_DEPLOYMENT_NAME: deployment, WORKER_PROMOTE: 'never' },
  });
  const logger = createLogger('warn', 'rehearsal');
  const cli = async (...args: string[]) => {
    const all = [...args, '--deployment-name', deployment, '--address', h.config.TEMPORAL_ADDRESS];
    await run(TEMPORAL_CLI, [...all, '--namespace', h.config.TEMPORAL_NAMESPACE, '--yes'], { timeout: 30_000 });
  };
  const bundles = await bundleBoth();
  const service = h.runtime.temporal.workflowService;
  const namespace = h.config.TEMPORAL_NAMESPACE;

  async function startBuild(id: string, bundle: WorkflowBundleWithSourceMap): Promise<Build> {
    const config: Config = { ...h.config, SCRIPTORIUM_BUILD_ID: id };
    const worker = await createWorker({
      config,
      runtime: h.runtime,
      llm: createLlmClient(config, h.model.baseURL),
      logger,
      workflowBundle: bundle,
    });
    const running = worker.run();
    // The server knows a version once its worker has polled.
    await waitFor(
      `build ${id} to poll`,
      () =>
        service
          .describeWorkerDeploymentVersion({
            namespace,
            deploymentVersion: { deploymentName: deployment, buildId: id },
          })
          .then(() => true)
          .catch(() => false),
      30_000,
      200,
    );
    mark(`build ${id.slice(-1).toUpperCase()} started and polling`);
    return { id, worker, running };
  }
  async function stopBuild(b: Build): Promise<void> {
    b.worker.shutdown();
    await b.running;
    mark(`build ${b.id.slice(-1).toUpperCase()} stopped`);
  }
  /** Running workflows of this rehearsal still pinned to `buildId`. */
  async function pinnedTo(buildId: string): Promise<number> {
    const res = await h.runtime.temporal.workflow.count(
      `TemporalWorkerDeploymentVersion = '${deployment}:${buildId}' AND ExecutionStatus = 'Running'`,
    );
    return res.count;
  }
  async function drain(b: Build): Promise<void> {
    await waitFor(`build ${b.id} to drain`, async () => (await pinnedTo(b.id)) === 0, 120_000, 500);
    mark(`build ${b.id.slice(-1).toUpperCase()} drained: no running workflow pinned to it`);
  }

  const turns: { turnId: string; startedAt: number }[] = [];
  let traffic: Promise<void> | null = null;
  let stopTraffic = false;
  try {
    const a = await startBuild(buildA, bundles.a);
    await cli('worker', 'deployment', 'set-current-version', '--build-id', buildA);
    mark('build A made current');

    // Turns, one a second, each in a session of its own project that is not busy.
    const sessions = await Promise.all(Array.from({ length: 8 }, () => createProjectAndSession(h)));
    const busy = new Set<string>();
    traffic = (async () => {
      for (let i = 0; !stopTraffic; i++) {
        const s = sessions.find((x) => !busy.has(x.sessionId));
        if (s) {
          busy.add(s.sessionId);
          // When the author sent it: a loaded machine can take seconds to answer the POST.
          const sentAt = Date.now();
          const turnId = await postTurn(h, s.sessionId, `Tell me, in a paragraph, what the book is about (${i}).`);
          turns.push({ turnId, startedAt: sentAt });
          void h.runtime.temporal.workflow
            .getHandle(`turn-${turnId}`)
            .result()
            .catch(() => undefined)
            .finally(() => busy.delete(s.sessionId));
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();

    const jobProject = await createProjectAndSession(h);
    const { jobId } = await startJob(h, {
      projectId: jobProject.projectId,
      chapters: { from: 1, to: chapters },
      // Long enough chapters that the deploy and the rollback each land between two of them.
      wordsPerChapter: 1000,
    });
    const done = async () => ((await h.runtime.models.Job.findById(jobId).lean())?.chaptersDone ?? []).length;
    mark(`job started: chapters 1–${chapters}`);
    await waitFor('the job to finish chapter 1', async () => (await done()) >= 1, 120_000, 250);

    // The deploy.
    const b = await startBuild(buildB, bundles.b);
    await cli('worker', 'deployment', 'set-ramping-version', '--build-id', buildB, '--percentage', '20');
    mark('build B ramping at 20 %');
    await new Promise((r) => setTimeout(r, 2000));
    await cli('worker', 'deployment', 'set-current-version', '--build-id', buildB);
    const bCurrentAt = Date.now();
    mark('build B made current');
    // The job leaves A at its next chapter boundary, like every turn A started ends on A.
    await drain(a);
    const doneOnMove = await done();
    await waitFor('the job to finish a chapter on B', async () => (await done()) > doneOnMove, 180_000, 250);
    mark(`the job wrote chapter ${doneOnMove + 1} on B`);
    await stopBuild(a);

    // The rollback.
    const a2 = await startBuild(buildA, bundles.a);
    await cli('worker', 'deployment', 'set-current-version', '--build-id', buildA);
    const aCurrentAgainAt = Date.now();
    mark('rolled back: build A current again');
    const chaptersLeftAtRollback = chapters - (await done());
    const doneAtRollback = chapters - chaptersLeftAtRollback;
    await waitFor(
      'the job to write a chapter after the rollback, or end',
      async () =>
        (await done()) >= Math.min(chapters, doneAtRollback + 2) ||
        ['completed', 'failed', 'cancelled'].includes(
          (await h.runtime.models.Job.findById(jobId).lean())?.status ?? '',
        ),
      180_000,
      250,
    );
    stopTraffic = true;
    await traffic;
    const result = await waitJob(h, jobId);
    mark(`job ended: ${result.status}, ${result.chaptersDone} chapters`);
    await Promise.all(
      turns.map((t) =>
        h.runtime.temporal.workflow
          .getHandle(`turn-${t.turnId}`)
          .result()
          .catch(() => undefined),
      ),
    );
    await drain(b);
    await stopBuild(b);
    await stopBuild(a2);

    // What happened, from Temporal's own histories.
    let nondeterminismErrors = 0;
    const records: TurnRecord[] = [];
    for (const t of turns) {
      const handle = h.runtime.temporal.workflow.getHandle(`turn-${t.turnId}`);
      const { builds, nondeterminism } = buildsOf((await handle.fetchHistory()).events ?? []);
      nondeterminismErrors += nondeterminism;
      const outcome = (await handle.result().catch(() => ({ status: 'failed' }))) as { status: string };
      records.push({ ...t, builds, status: outcome.status });
    }
    const jobRuns: RehearsalReport['jobRuns'] = [];
    for (const r of await runHistories(h, `job-${jobId}`)) {
      const events = (await h.runtime.temporal.workflow.getHandle(`job-${jobId}`, r.runId).fetchHistory()).events ?? [];
      const { builds, nondeterminism } = buildsOf(events);
      nondeterminismErrors += nondeterminism;
      jobRuns.push({ builds });
    }
    const snapshot = await chapterSnapshot(h, jobProject.projectId);
    const checks = judge({
      records,
      jobRuns,
      result,
      snapshot,
      chapters,
      nondeterminismErrors,
      builds: { a: buildA, b: buildB },
      bCurrentAt,
      aCurrentAgainAt,
      chaptersLeftAtRollback,
    });
    return { checks, turns: records, jobRuns, timeline, nondeterminismErrors, seconds: (Date.now() - began) / 1000 };
  } finally {
    stopTraffic = true;
    await traffic?.catch(() => undefined);
    await h.close();
  }
}

/** The rehearsal's checks, each with what it saw. */
function judge(r: {
  records: TurnRecord[];
  jobRuns: RehearsalReport['jobRuns'];
  result: { status: string; chaptersDone: number };
  snapshot: Awaited<ReturnType<typeof chapterSnapshot>>;
  chapters: number;
  nondeterminismErrors: number;
  builds: { a: string; b: string };
  bCurrentAt: number;
  aCurrentAgainAt: number;
  /** With two or more left, the job crosses a chapter boundary after the rollback. */
  chaptersLeftAtRollback: number;
}): RehearsalCheck[] {
  const { records, builds } = r;
  const failed = records.filter((t) => t.status !== 'completed');
  const switched = records.filter((t) => t.builds.length !== 1);
  // A turn sent well after a switch: the server takes a moment to hand the new routing to every
  // task queue partition, so a turn sent in that moment may still start on the old build.
  const settle = 3000;
  const afterB = records.filter((t) => t.startedAt > r.bCurrentAt + settle && t.startedAt < r.aCurrentAgainAt - settle);
  const afterRollback = records.filter((t) => t.startedAt > r.aCurrentAgainAt + settle);
  const inFlightAtB = records.filter((t) => t.startedAt < r.bCurrentAt && t.builds[0] === builds.a);
  const written = [...r.snapshot.entries()].map(([n, files]) => ({
    n,
    versions: files.reduce((sum, f) => sum + f.versions.length, 0),
    files: files.length,
  }));
  const twice = written.filter((w) => w.files !== 1 || w.versions !== 1);
  const runBuilds = r.jobRuns.map((run) => run.builds);
  return [
    {
      name: 'no failed turn',
      ok: failed.length === 0,
      detail: `${records.length} turns, ${failed.length} not completed`,
    },
    {
      name: 'no nondeterminism error',
      ok: r.nondeterminismErrors === 0,
      detail: `${r.nondeterminismErrors} workflow tasks failed on nondeterminism`,
    },
    {
      name: 'every turn finished on the build that started it',
      ok: switched.length === 0,
      detail: `${switched.length} turns ran on more than one build`,
    },
    {
      name: 'turns in flight at the deploy finished on A',
      ok: inFlightAtB.length > 0 && inFlightAtB.every((t) => t.builds.join() === builds.a),
      detail: `${inFlightAtB.length} turns started on A before B became current`,
    },
    {
      name: 'new turns ran on B after it became current',
      ok: afterB.length > 0 && afterB.every((t) => t.builds.join() === builds.b),
      detail: `${afterB.filter((t) => t.builds.join() === builds.b).length} of ${afterB.length} on B`,
    },
    {
      name: 'new turns ran on A after the rollback',
      ok: afterRollback.length > 0 && afterRollback.every((t) => t.builds.join() === builds.a),
      detail: `${afterRollback.filter((t) => t.builds.join() === builds.a).length} of ${afterRollback.length} on A`,
    },
    {
      name: 'the job moved builds only at chapter boundaries: to B, and back to A after the rollback',
      ok:
        runBuilds.every((b) => b.length === 1) &&
        collapsed(runBuilds.map((b) => b[0]!)).join() ===
          (r.chaptersLeftAtRollback >= 2 ? [builds.a, builds.b, builds.a] : [builds.a, builds.b]).join(),
      detail: `runs ${runBuilds.map((b) => b.map((id) => id.slice(-1).toUpperCase()).join('+')).join(' → ')}; ${r.chaptersLeftAtRollback} chapters left at the rollback`,
    },
    {
      name: 'the job finished with no chapter written twice',
      ok: r.result.status === 'completed' && r.result.chaptersDone === r.chapters && twice.length === 0,
      detail: `${r.result.status}, ${r.result.chaptersDone} chapters; ${written.map((w) => `ch${w.n}: ${w.versions}`).join(', ')}`,
    },
  ];
}

/** A sequence with repeats collapsed (runs on one build continue as new on it too). */
function collapsed(ids: string[]): string[] {
  return ids.filter((id, i) => id !== ids[i - 1]);
}

async function bundleBoth(): Promise<{ a: WorkflowBundleWithSourceMap; b: WorkflowBundleWithSourceMap }> {
  const quiet = { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} } as never;
  const options = workflowBundleOptions(false);
  const [a, b] = await Promise.all([
    bundleWorkflowCode({ ...options, logger: quiet }),
    bundleWorkflowCode({ ...options, workflowsPath: require.resolve('./workflows-b'), logger: quiet }),
  ]);
  return { a, b };
}
