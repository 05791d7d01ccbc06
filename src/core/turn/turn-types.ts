/**
 * core/turn/: a turn's contract between the API, its workflow, its activities and Studio:
 * inputs and results (turn-types.ts), how a turn workflow is started (turn-start.ts), the
 * workflows' signals, queries and search attributes (messages.ts), the `_id`s of a turn's
 * records (record-ids.ts), and the fold of its stream into what the author saw (turn-view.ts).
 */
/**
 * Inputs and results passed between the turn workflow and its activities. Everything here
 * travels through Temporal history, so it stays compact: ids, counters and short tails,
 * never a chapter or a message history. Pure, type-only module.
 */
import type { Usage } from '../usage';
import type { AgentName, AnyEventDraft, UsageData } from '../events';
import type { ProjectType, TurnStatus } from '../domain';
import type { PreviousTurnFacts } from '../words/routing';
import type { RoutingDecision, WorkAgent } from '../plans';

export interface TurnSettings {
  maxAgentRuns: number;
  maxAgentSteps: number;
  reviewWordThreshold: number;
  /** LLM step timeouts: a dead worker is noticed within the heartbeat timeout. */
  llmStartToCloseSeconds: number;
  llmHeartbeatTimeoutSeconds: number;
  /** Tool and bookkeeping activities heartbeat every second; this detects a dead worker. */
  storeHeartbeatTimeoutSeconds: number;
  /** Review-gate rounds per turn (REVIEW_MAX_ROUNDS); absent in turns started before it existed. */
  maxReviewRounds?: number;
  /** Next-step suggestions after the turn (absent in turns started before they existed). */
  suggestionsEnabled?: boolean;
  /** `off`: start with the writer, no router call (absent: `llm`). */
  routerStrategy?: 'llm' | 'off';
  /** How long a turn waits for the author to approve a delete or rewrite of their file (APPROVAL_WAIT_SECONDS). */
  approvalWaitSeconds?: number;
}

export interface TurnOutcome {
  status: TurnStatus;
  stopReason: string | null;
  agents: WorkAgent[];
  filesWritten: { fileId: string; title: string; type: string; bodyWords: number }[];
  bodyWords: number;
  usage: Usage;
}

export interface TurnInput {
  turnId: string;
  sessionId: string;
  projectId: string;
  ownerId: string;
  /**
   * The author's message (a job's chapter instruction): in the input, so the workflow routes
   * it without reading it back and Temporal UI shows what the turn was asked.
   */
  message: string;
  settings: TurnSettings;
  /** Job chapters fix the route instead of asking the router. */
  forcedRouting?: RoutingDecision;
  jobId?: string;
  /**
   * The sequence number the author's message got when the turn was opened (absent in turns
   * started before it was passed, or when the opening was a retry). No message of the session
   * can be newer at the turn's start, so prepareTurn reads the latest messages from it instead
   * of reading the session's counter first.
   */
  openingSeq?: number;
}

export interface PrepareTurnInput {
  turnId: string;
  sessionId?: string;
  projectId?: string;
  openingSeq?: number;
  /** Which big reads to start while the workflow routes: the workflow knows which it will take. */
  prefetch: { context: boolean; router: boolean };
}

export interface PreparedTurn {
  language: 'zh' | 'en';
  /**
   * Where the segmenter ended each Chinese word of the author's message (core/words/reading.ts
   * wordEnds): recorded here, so the workflow's rules read the same words on every replay.
   */
  wordEnds: number[];
  projectType: ProjectType;
  previous: PreviousTurnFacts | null;
  lengthRequirements: string[];
  /** Reads the preparation went on without when its time budget ran out; absent when every read arrived. */
  prepNotes?: string[];
  /**
   * The router's decision, when the rules leave the routing to it and the preparation asked it
   * (core/turn/routing-choice.ts); absent otherwise.
   */
  routing?: RoutingDecision;
  /** Why the preparation's router call failed (it counts as the router's first attempt); absent when it did not fail. */
  routerError?: string;
}

export type RunKind =
  | 'initial'
  | 'explicit'
  | 'planned'
  | 'review_gate'
  | 'continuation'
  | 'planner_repair'
  | 'writer_after_question'
  | 'empty_file_repair';

/** Scope facts an agent's prompt is built from (regenerated per agent). */
export interface ScopeInput {
  scope: string;
  writeContent: boolean;
  readOnly: boolean;
  clarifyFirst: boolean;
  remainingPlan: WorkAgent[];
}

export interface LlmStepInput {
  turnId: string;
  /** The turn's project: the step's project read goes out beside its context read (absent in older histories: after it). */
  projectId?: string;
  run: number;
  step: number;
  agent: WorkAgent;
  slot: number;
  runKind: RunKind;
  /** Handoff / continuation packet text for the first step of a run (compact). */
  packet: string | null;
  /** The session's reply language (prepareTurn); absent in older histories (then: the message's). */
  language?: 'zh' | 'en';
  scope: ScopeInput;
  /** File created without content whose body may come as a `<file>` block. */
  pendingFileId: string | null;
  /** Hold the chat text (writer whose work may go to review); released or dropped later. */
  holdChat: boolean;
  /** Chat text was already shown earlier in the turn: this step's text starts after a blank line. */
  textBefore?: boolean;
  /** The step follows this run's tool calls: its opening English sentences narrate the process. */
  afterToolCalls?: boolean;
  steering: string[];
  /** Events to publish first, in this activity's slot (agent_selected, handoff, steering_received). */
  prelude: AnyEventDraft[];
  /**
   * Run the answer's tool calls within this step, with the turn's flags; their outcomes come
   * back as `toolOutcomes`. (A captured `<file>` body is always saved within the step, its
   * outcome back as `saved`.)
   */
  runTools: { flags: ToolFlags };
}

export interface ToolCallRef {
  id: string;
  name: string;
  /** Readable one-liner for Temporal UI and logs: "create_file 第3章". */
  summary: string;
}

export interface LlmStepResult {
  toolCalls: ToolCallRef[];
  /** Chat text facts (the text itself stays in MongoDB). */
  textChars: number;
  textTail: string;
  endsWithQuestion: boolean;
  question: string | null;
  planUnits: number[];
  endsOnFileBlock: boolean;
  /** `words`: editor-style count of the captured body (absent in steps recorded before it existed). */
  capture: { fileId: string; closed: boolean; chars: number; words?: number } | null;
  /** The captured body saved by the step itself (`saveCapture`); absent when it was not asked or nothing was captured. */
  saved?: ToolOutcome;
  /**
   * Outcomes of the tool calls the step ran itself (`runTools`), in order: all of them, or
   * up to and including the first failure (the workflow runs the rest, its failure breaker
   * counting one by one). Absent when the step ran none (parallel_execute is the workflow's).
   */
  toolOutcomes?: ToolOutcome[];
  usage: UsageData;
  finishReason: string;
}

export interface ToolFlags {
  readOnly: boolean;
  clarifyFirst: boolean;
}

export interface ToolInput {
  turnId: string;
  run: number;
  step: number;
  agent: WorkAgent;
  toolCallId: string;
  slot: number;
  flags: ToolFlags;
  /** The author's decision on this call's approval request (approvals.ts); absent before one was asked. */
  approval?: ApprovalDecision;
}

export type ApprovalVerdict = 'approve' | 'deny' | 'timeout';

export interface ApprovalDecision {
  approvalId: string;
  decision: ApprovalVerdict;
}

/** What a call asks the author to approve: deleting or wholly rewriting files they wrote. */
export interface ApprovalRequest {
  action: 'delete' | 'rewrite';
  fileId: string;
  title: string;
  /** Every author file the call would delete (a folder with its contents) or rewrite. */
  files: { id: string; title: string }[];
  /** The words that would go (a delete), or a diff summary (a rewrite), in English for API clients. */
  preview: string;
  /** A rewrite: how many lines would go and come, and the start of the text that would go (clients word them). */
  change?: { removed: number; added: number };
  excerpt?: string;
}

/** A pending approval, as the turn's state query and Temporal UI show it. */
export interface PendingApproval extends ApprovalRequest {
  approvalId: string;
  toolCallId: string;
  step: number;
}

export type FileOp = 'created' | 'opened' | 'edited' | 'deleted' | 'read' | 'searched' | 'project';

export interface ToolOutcome {
  name: string;
  ok: boolean;
  errorType?: string;
  message?: string;
  fileId?: string;
  fileType?: string;
  title?: string;
  op?: FileOp;
  /** Words of body text this call put into draft/script files (review gate evidence). */
  bodyWords?: number;
  /** create_file without content: the body is expected as a `<file>` block next. */
  pendingBody?: boolean;
  /** An outline written: the chapter units its whole saved text holds (outline coverage repair). */
  outlineUnits?: number[];
  handoff?: { to: WorkAgent; reason: string; todo?: string };
  clarification?: { question: string };
  /** parallel_execute: each sub-task's outcome, in task order (breadcrumbs and the failure breaker read them). */
  subOutcomes?: ToolOutcome[];
  /** `approval_required`: the author must approve this call first; nothing was written or stored. */
  approval?: ApprovalRequest;
  /** A streamed body that could not be saved where it was streamed (`file_deleted`, `stale_content`) is kept in this new file. */
  keptIn?: { id: string; title: string };
}

export interface PublishInput {
  streamKind: 'turn' | 'job';
  streamId: string;
  slot: number;
  events: AnyEventDraft[];
  /** Mark the stream finished: it expires after STREAM_TTL_SECONDS. */
  final?: boolean;
}

export interface AgentRunRecord {
  run: number;
  agent: WorkAgent;
  kind: RunKind;
  outcome: string;
  /** Chat text of this run was held and then dropped (writer summary hold). */
  textDropped: boolean;
}

export interface FinalizeInput {
  turnId: string;
  slot: number;
  status: TurnStatus;
  stopReason: string | null;
  stopMessage: string | null;
  routing: RoutingDecision | null;
  runs: AgentRunRecord[];
  resume: { agent: WorkAgent; remaining: WorkAgent[] } | null;
  /** Non-terminal cards sent just before the terminal event (read_only_handoff_blocked). */
  deferredStops: { reason: 'read_only_handoff_blocked'; message: string }[];
  error: { code: string; message: string } | null;
  /** Writer runs whose held chat text is published before the terminal events. */
  releaseHeldRuns?: number[];
  /** The highest step number the turn gave out: finalize reads steps `turnId:1…lastStep` by `_id`. */
  lastStep: number;
  /** The turn's session: its lock is read with the turn's records, not after the writes. */
  sessionId: string;
  /** The session's reply language (prepareTurn); absent in older histories (then: the message's). */
  language?: 'zh' | 'en';
}

export interface FinalizeResult {
  /** Files created in this turn and never written, removed at finalize (absent in older histories). */
  rolledBack?: string[];
}

export interface TurnState {
  status: TurnStatus;
  agent: AgentName | null;
  step: number;
  run: number;
  plan: string | null;
  remainingPlan: WorkAgent[];
  filesTouched: string[];
  usage: Usage;
  routing: RoutingDecision | null;
  /** The approval the turn waits for (status `awaiting_approval`), if any. */
  pendingApproval?: PendingApproval | null;
}
