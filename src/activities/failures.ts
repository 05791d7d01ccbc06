/**
 * Permanent failures of activities. A turn, project, job or transcript that is not in
 * MongoDB will not appear by retrying: throwing a plain error would have Temporal retry it
 * for minutes (the store activities allow 30 attempts) before the turn fails. A
 * non-retryable `ApplicationFailure` with a type fails the turn at once and says why
 * (STYLE.md: permanent failures are `ApplicationFailure.nonRetryable(message, type)`).
 */
import { ApplicationFailure } from '@temporalio/common';
import { type MissingKind, notFoundType } from '../core/failure-types';

export type { MissingKind };

const LABEL: Record<MissingKind, string> = {
  Turn: 'turn',
  Project: 'project',
  Job: 'job',
  File: 'file',
  ToolCall: 'tool call',
  Capture: 'captured body',
};

/**
 * `throw notFound('Project', id)` — a non-retryable failure of type `ProjectNotFound`.
 * @param where optional context appended to the message ("in the step transcript").
 */
export function notFound(kind: MissingKind, id: string, where = ''): ApplicationFailure {
  return ApplicationFailure.nonRetryable(
    `${LABEL[kind]} ${id} not found${where ? ` ${where}` : ''}`,
    notFoundType(kind),
  );
}
