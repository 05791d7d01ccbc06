/**
 * What an activity threw, as workflow code receives it: a remote activity's failure comes
 * wrapped in an ActivityFailure, a local activity's (turns' and jobs' bookkeeping) as the
 * activity's own error. Handling only ActivityFailure let a failed local activity fail the
 * whole workflow, unfinalized.
 */
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/** The activity's own error (a remote one's cause, a local one's as thrown), or undefined when it gave none. */
export function activityError(err: unknown): Error | undefined {
  if (err instanceof ActivityFailure) return err.cause;
  return err instanceof Error ? err : undefined;
}

/** Whether `err` is a failed activity, remote or local (ApplicationFailure is what a local one throws). */
export function isActivityFailure(err: unknown): err is ActivityFailure | ApplicationFailure {
  return err instanceof ActivityFailure || err instanceof ApplicationFailure;
}
