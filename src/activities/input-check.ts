/**
 * Every activity call's input is checked against its schema (inputs.ts) before the activity
 * runs, on the worker as an activity interceptor, so it covers local and regular activities
 * alike and no activity can forget it.
 *
 * A failed check is a non-retryable `ActivityInputInvalid` failure naming the activity and the
 * fields: retrying the same input on the same build cannot succeed, and the workflow ends the
 * turn (or the job records the failure) with a message an operator can act on, instead of the
 * activity writing half a record from an `undefined`. The activity receives the input exactly
 * as sent: fields this build does not know are kept, never stripped.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { z } from 'zod';
import { FailureType } from '../core/failure-types';
import { activityInputs } from './inputs';

const schemas: Readonly<Record<string, z.ZodType | undefined>> = activityInputs;

/** Throws `ActivityInputInvalid` unless `args` is one input this build accepts for `activityType`. */
export function checkActivityInput(activityType: string, args: readonly unknown[]): void {
  const schema = schemas[activityType];
  if (!schema)
    throw ApplicationFailure.nonRetryable(
      `Activity ${activityType} has no input schema in this build (src/activities/inputs.ts)`,
      FailureType.ActivityInputInvalid,
    );
  const parsed = args.length === 1 ? schema.safeParse(args[0]) : null;
  if (parsed?.success) return;
  const why = parsed ? z.prettifyError(parsed.error) : `expected one argument, got ${args.length}`;
  throw ApplicationFailure.nonRetryable(
    `Activity ${activityType} was called with an input this build does not accept:\n${why}`,
    FailureType.ActivityInputInvalid,
    parsed ? { issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) } : undefined,
  );
}

export const activityInputCheck: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    async execute(input, next) {
      checkActivityInput(ctx.info.activityType, input.args);
      return next(input);
    },
  },
});
