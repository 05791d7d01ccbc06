/**
 * The multi-chapter job workflow `job-<jobId>`: make sure the outline covers the
 * range (a planner turn when it does not), then write each chapter in order as a child
 * turn — writer, review gate and bounded revision rounds when `review` is on — because
 * each chapter continues the one before.
 *
 * - History stays bounded: chapter text never passes through it (child turns and
 *   activities exchange ids and counters), and the job continues-as-new every
 *   JOB_CHAPTERS_PER_RUN chapters or when Temporal suggests it, carrying only counters.
 * - `pause` lets the chapter in flight finish, then waits; `resume` continues; `cancel`
 *   stops the chapter in flight and keeps every finished chapter.
 * - A chapter that fails after its retries stops the job in a resumable `failed` state —
 *   never a silent skip; `resume` retries that chapter with a fresh turn.
 */
import {
  CancellationScope,
  CancelledFailure,
  continueAsNew,
  isCancellation,
  makeContinueAsNewFunc,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { jobActivities } from './job-child';
import {
  cancelJobSignal,
  type JobInput,
  type JobResult,
  pauseJobSignal,
  progressQuery,
  resumeJobSignal,
} from '../core/job/job-messages';
import { JobRunState } from './job-state';
import { JobSteps } from './job-steps';
import { SA } from '../core/turn/messages';

/**
 * A job whose cancellation was requested through Temporal ends as Canceled there too, once
 * its record says cancelled and every finished chapter is kept (the Job document, the
 * stream's `done`); the Job document holds what the result would have said.
 */
function endsCancelled(root: CancellationScope, result: JobResult): JobResult {
  if (result.status === 'cancelled' && root.consideredCancelled) throw new CancelledFailure('job cancelled');
  return result;
}

export async function jobWorkflow(input: JobInput): Promise<JobResult> {
  const st = new JobRunState(input);
  const steps = new JobSteps(st, jobActivities(input.settings, { local: true }));
  const root = installJobHandlers(st, steps);

  try {
    upsertSearchAttributes([
      { key: SA.ProjectId, value: input.projectId },
      { key: SA.JobStatus, value: st.status },
      { key: SA.Chapter, value: Math.min(st.next, input.to) },
    ]);
    // Chapters that had text before the job: read at every run, so a continued run treats them alike.
    await steps.readExisting();
    // A pause signalled before the first workflow task was handled already (status pausing).
    const startStatus = st.pauseRequested ? 'pausing' : 'running';
    if (!input.carry)
      await steps.setStatus(
        startStatus,
        st.wording.started(input.from, input.to, [...st.existing], input.existing ?? 'skip'),
      );
    else if (input.carry.restarted)
      await steps.setStatus(startStatus, st.wording.restarted(st.next), { failure: null });
    if (!st.outlineDone) {
      if ((await steps.ensureOutline()) === 'cancelled') return await steps.finish('cancelled');
      st.apply({ type: 'outlineDone' });
    }
    while (st.next <= input.to) {
      if ((await steps.checkpoint()) === 'cancelled') break;
      if ((await steps.withinBudget()) === 'cancelled') break;
      const treatment = st.treatmentOf(st.next);
      if (treatment === 'skip') {
        await steps.skipChapter(st.next);
        st.apply({ type: 'chapterPassed', written: false });
        continue;
      }
      const step = await steps.writeChapter(st.next, treatment);
      if (step === 'cancelled') break;
      if (step === 'failed') continue; // resumed: the same chapter again, with a fresh turn
      st.apply({ type: 'chapterPassed', written: true });
      const info = workflowInfo();
      // A new build made current while this run was pinned to the old one: move to it here,
      // between chapters, where the run carries nothing but counters (worker-deployment.ts).
      const moves = info.targetWorkerDeploymentVersionChanged;
      const due = moves || st.chaptersThisRun >= input.settings.chaptersPerRun || info.continueAsNewSuggested;
      if (st.next <= input.to && due) {
        await st.drain();
        if (moves)
          return await makeContinueAsNewFunc<typeof jobWorkflow>({ initialVersioningBehavior: 'AUTO_UPGRADE' })({
            ...input,
            carry: st.toCarry(),
          });
        return await continueAsNew<typeof jobWorkflow>({ ...input, carry: st.toCarry() });
      }
    }
    const result = await steps.finish(st.cancelRequested ? 'cancelled' : 'completed');
    return endsCancelled(root, result);
  } catch (err) {
    // Cancelled while waiting on something (a pause, the failed state, a timer): record and end.
    if (isCancellation(err)) {
      st.apply({ type: 'cancelAsked' });
      return endsCancelled(root, await steps.finish('cancelled'));
    }
    throw err;
  }
}

/**
 * The job's messages from outside: the progress query, pause, resume and cancel. A handler
 * applies the change and, when the job's status changes with it, queues that status's record;
 * the job's loop reads the rest at its next step. Returns the workflow's root scope, whose
 * cancellation (the API's and chat's way to cancel) counts as `cancel`.
 */
function installJobHandlers(st: JobRunState, steps: JobSteps): CancellationScope {
  setHandler(progressQuery, () => st.snapshot());
  setHandler(pauseJobSignal, () => {
    if (st.pauseRequested || st.cancelRequested) return;
    st.apply({ type: 'pauseAsked' });
    if (st.status === 'running') st.background(steps.statusCall('pausing', st.wording.pausing()));
  });
  setHandler(resumeJobSignal, (args) => {
    const withdrawsPause = st.pauseRequested;
    st.apply({ type: 'resumeAsked', maxTokens: args?.maxTokens, maxCostUsd: args?.maxCostUsd });
    if (withdrawsPause && st.status === 'pausing')
      st.background(steps.statusCall('running', st.wording.pauseWithdrawn()));
  });
  const cancel = (): void => {
    st.apply({ type: 'cancelAsked' });
    st.childScope?.cancel();
  };
  // The signal is kept for clients that send it; the API and chat request a Temporal
  // cancellation (handle.cancel()), which also ends the workflow as Canceled in Temporal UI.
  setHandler(cancelJobSignal, cancel);
  const root = CancellationScope.current();
  root.cancelRequested.catch(cancel);
  return root;
}
