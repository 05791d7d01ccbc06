/**
 * Every activity failure type the code throws or tests for, in one list: a workflow's retry
 * policy (`nonRetryableErrorTypes`) and its catch blocks compare against the same names the
 * activities throw with, so a rename cannot split them. Temporal UI shows these as the
 * failure's type.
 */
export const FailureType = {
  /** The model rejected the request (4xx other than 408/409/429): asking again will not help. */
  LlmBadRequest: 'LlmBadRequest',
  /** The provider asked to come back later (429 with Retry-After). */
  LlmRateLimited: 'LlmRateLimited',
  /** The provider is down for now (503 with Retry-After). */
  LlmUnavailable: 'LlmUnavailable',
  /** A revision round found no draft of the chapter to revise. */
  NothingToRevise: 'NothingToRevise',
  /** A job's child turn was asked for in another project's session. */
  JobMismatch: 'JobMismatch',
  /** openJobTurn, told not to wait, found the session busy with another turn. */
  SessionBusy: 'SessionBusy',
  TurnNotFound: 'TurnNotFound',
  ProjectNotFound: 'ProjectNotFound',
  JobNotFound: 'JobNotFound',
  FileNotFound: 'FileNotFound',
  ToolCallNotFound: 'ToolCallNotFound',
  CaptureNotFound: 'CaptureNotFound',
  /**
   * An activity was called with an input this build does not accept (a required field missing
   * or of the wrong kind; activities/inputs.ts): a workflow of an incompatible build. Not retried.
   */
  ActivityInputInvalid: 'ActivityInputInvalid',
} as const;

export type FailureTypeName = (typeof FailureType)[keyof typeof FailureType];

/** What an activity looked up and did not find; its failure type is `<kind>NotFound`. */
export type MissingKind = 'Turn' | 'Project' | 'Job' | 'File' | 'ToolCall' | 'Capture';

/** The failure type of a missing record of this kind. */
export const notFoundType = (kind: MissingKind): FailureTypeName => FailureType[`${kind}NotFound`];
