/**
 * The one place settings are read. Every setting has a default that runs locally
 * with nothing configured, and the values are validated by zod at start-up.
 *
 * Precedence between the process environment and the project's `.env` file is explicit:
 * `SCRIPTORIUM_ENV_PRIORITY=dotenv` (default) lets `.env` win so a stray global variable
 * cannot silently change the project; `process` lets the environment win (variant
 * instances); `none` ignores `.env` (tests, CI). Whatever the mode, every key set
 * differently in both places is reported as a conflict, logged at start-up and shown in
 * `/health` with masked values.
 */
import { CONTINUATION_STRATEGIES } from './core/model/continuation';
import { type PriceTable, priceTable } from './core/prices';
import fs from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { z } from 'zod';
import {
  type AuthSettings,
  DEFAULT_STREAM_TOKEN_SECRET,
  MAX_STREAM_TOKEN_TTL_SECONDS,
  resolveAuth,
} from './auth-settings';

const intFrom = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);
const boolFrom = (def: boolean) =>
  z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', ''])])
    .default(def)
    .transform((v) => (typeof v === 'boolean' ? v : ['true', '1', 'yes'].includes(v)));

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * `pretty`: readable lines for a person at a terminal; `json`: one JSON object per line, for
   * log collectors. `auto`: pretty on a terminal, JSON in production, CI and when piped.
   */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),

  HOST: z.string().default('127.0.0.1'),
  PORT: intFrom(3000),
  PUBLIC_URL: z.string().optional(),
  /** Request body cap; larger bodies answer 413. */
  BODY_LIMIT_BYTES: intFrom(256 * 1024, 1024),
  MAX_MESSAGE_CHARS: intFrom(20000, 1),

  /**
   * `token:userId` pairs, comma separated (tokens of 16+ characters). Unset or empty: loopback
   * only, everything owned by `local`. A value that parses to no pair stops start-up.
   */
  API_TOKENS: z.string().default(''),
  /**
   * Secret for short-lived stream tokens (EventSource cannot send headers). Required with
   * API_TOKENS: 32+ characters of your own; the default is public, for loopback mode only.
   */
  STREAM_TOKEN_SECRET: z.string().min(16).default(DEFAULT_STREAM_TOKEN_SECRET),
  /** Lifetime of a stream token; tokens claiming to live longer than the maximum are refused. */
  STREAM_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).max(MAX_STREAM_TOKEN_TTL_SECONDS).default(600),

  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('scriptorium'),
  TEMPORAL_UI_URL: z.string().default('http://127.0.0.1:8233'),
  /**
   * Worker Versioning (docs/operations.md, "Deploying new agent logic"). Every worker declares
   * the deployment WORKER_DEPLOYMENT_NAME and a build id. `pinned`: the worker only takes work
   * routed to its build; a turn finishes on the build that started it, a job moves to the
   * deployment's current build at a chapter boundary. `off`: unversioned (any worker takes any
   * task; the patch policy alone keeps running histories replayable, as in local development,
   * where a restarted `npm start` must go on with the turn it was running). `auto`: pinned in
   * production (NODE_ENV=production), off otherwise.
   */
  WORKER_VERSIONING: z.enum(['auto', 'pinned', 'off']).default('auto'),
  WORKER_DEPLOYMENT_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only (Temporal joins it to the build id with a dot)')
    .default('scriptorium'),
  /** This build's id; default: the package version and the git commit (`0.1.0-3c208fd`). */
  SCRIPTORIUM_BUILD_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.+-]+$/, 'letters, digits and . _ + - only')
    .max(200)
    .optional(),
  /**
   * Whether a versioned worker makes its build the deployment's current one when it starts:
   * `if-none` (a deployment's first build only; later builds are ramped and promoted by the
   * operator with `temporal worker deployment`), `always` (a single-worker setup where the
   * build just started must serve new work), `never`.
   */
  WORKER_PROMOTE: z.enum(['always', 'if-none', 'never']).default('if-none'),

  MONGODB_URI: z.string().default('mongodb://127.0.0.1:27017/scriptorium'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  /** Prefix of every Redis key, so several deployments (or test suites) can share a server. */
  REDIS_KEY_PREFIX: z.string().default('scriptorium:'),
  STREAM_TTL_SECONDS: intFrom(3600, 1),
  /**
   * A session feed (GET /sessions/:id/events) expires this long after the session's last
   * event; a client resuming after that gets a `reset` and reloads the session.
   */
  SESSION_FEED_TTL_SECONDS: intFrom(7 * 24 * 3600, 60),
  /** Safety cap on a live stream's length (approximate MAXLEN); trimmed ids answer `reset`. */
  STREAM_MAXLEN: intFrom(100000, 100),
  SSE_KEEPALIVE_MS: intFrom(15000, 100),
  SSE_RETRY_MS: intFrom(2000, 100),

  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().optional(),
  OPENAI_MODEL: z.string().default('gpt-4o-mini'),
  /**
   * The model that routes each turn (one short JSON answer). Unset: a small model of the same
   * provider where it has one (gpt-4o-mini on OpenAI's API), else OPENAI_MODEL (routerModelOf).
   */
  ROUTER_MODEL: z.string().optional(),
  /** One router request's time limit: a router that hangs costs the turn this per attempt (three), not the step's limit. */
  ROUTER_TIMEOUT_SECONDS: intFrom(20, 1),
  /**
   * Prices per million tokens by model, JSON: {"<model>": {"input": 2.5, "cachedInput": 1.25,
   * "output": 10}}. Merged over the built-in list prices (src/core/prices.ts); a call to a
   * model with no price has no cost (null) in the usage API.
   */
  MODEL_PRICES: z.string().default(''),
  /**
   * How a retried LLM step goes on from the text its crashed attempt streamed (src/core/model/continuation.ts):
   * prefix (DeepSeek), continue_final_message (vLLM), instruction (any OpenAI-compatible API),
   * off (start over), auto (prefix for DeepSeek's API, instruction otherwise).
   */
  LLM_CONTINUATION: z.enum(CONTINUATION_STRATEGIES).default('auto'),
  /** Offline model: used whenever OPENAI_API_KEY is unset. Port 0 picks a free port. */
  OFFLINE_MODEL_PORT: intFrom(0),
  OFFLINE_MODEL_TTFT_MS: intFrom(300),
  OFFLINE_MODEL_TOKENS_PER_SECOND: intFrom(80, 1),

  /** Run the Temporal worker inside the API process (local default; production runs it apart). */
  RUN_WORKER_IN_PROCESS: boolFrom(true),
  REVIEW_WORD_THRESHOLD: intFrom(800, 1),
  /** Review-gate rounds per turn: stops writer↔reviewer loops. */
  REVIEW_MAX_ROUNDS: intFrom(2, 0),
  /** Characters of this turn's body files the reviewer gets as [content under review]. */
  REVIEW_EVIDENCE_MAX_CHARS: intFrom(16000, 500),
  /** Milliseconds the turn's preparation reads (the previous turn, the earlier requests) have together; past it the turn goes on without them and says so. */
  PREPARATION_READ_BUDGET_MS: intFrom(500, 50),
  /** Milliseconds the reviewer's fact check (cards and quotes against the draft) may take; past it the packet says it was cut short. */
  FACT_CHECK_BUDGET_MS: intFrom(500, 50),
  MAX_AGENT_RUNS: intFrom(8, 1),
  MAX_AGENT_STEPS: intFrom(12, 1),
  LLM_STEP_TIMEOUT_SECONDS: intFrom(600, 5),
  /**
   * A model stream that has started and then sends nothing for this long is given up and the
   * step retried (going on from its text): a stalled provider costs this, not the step's whole
   * time limit on every attempt. Counted between chunks only — a provider queueing the request
   * or loading the model before its first token is bounded by LLM_STEP_TIMEOUT_SECONDS. 0: off.
   */
  LLM_STREAM_IDLE_SECONDS: intFrom(60, 0),
  /**
   * How long a silent activity may go before Temporal presumes its worker dead and retries it
   * elsewhere: the recovery time after a worker crash. Activities heartbeat every second from
   * their start (the LLM step while it waits for its first token too), so a few seconds is
   * safe.
   */
  LLM_HEARTBEAT_TIMEOUT_SECONDS: intFrom(3, 1),
  STORE_HEARTBEAT_TIMEOUT_SECONDS: intFrom(5, 1),
  /** A worker asked to stop (SIGTERM) cancels its running activities after this long (0: at once). */
  WORKER_SHUTDOWN_GRACE_MS: intFrom(0, 0),
  /**
   * Worker capacity (0: the Temporal SDK's default). Activities a worker runs at once (default
   * 100: each running LLM step holds one for the whole answer, so this caps the turns and job
   * chapters a worker streams at once); workflow tasks at once (default 40); workflows kept in
   * its sticky cache (default: by the worker's memory), which saves replaying a turn's history
   * on each of its tasks. See docs/capacity.md.
   */
  WORKER_MAX_CONCURRENT_ACTIVITIES: intFrom(0, 0),
  WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: intFrom(0, 0),
  WORKER_MAX_CACHED_WORKFLOWS: intFrom(0, 0),

  AGENT_CONTEXT_TOKEN_BUDGET: intFrom(32000, 1000),
  AGENT_CHAT_HISTORY_TOKEN_BUDGET: intFrom(32000, 1000),
  PROMPT_TOKEN_LEDGER_CEILING: intFrom(160000, 4000),
  AGENT_WORKING_SET_MAX_FILES: intFrom(8, 0),
  AGENT_WORKING_SET_MAX_CHARS: intFrom(60000, 0),

  JOB_CHAPTERS_PER_RUN: intFrom(10, 1),
  JOB_MAX_REVISION_ROUNDS: intFrom(2, 0),
  /** Days a deleted file (with its versions) stays in the trash, restorable, before it is purged. */
  FILE_TRASH_RETENTION_DAYS: intFrom(30, 1),
  /**
   * Minutes an author's burst of editor autosaves keeps folding into one version, from its
   * first save (src/db/author-saves.ts); after that, or a save by hand, the next starts a new one.
   */
  AUTOSAVE_BURST_MINUTES: intFrom(10, 1),

  /**
   * A session lock (or job claim) whose turn (job) is still `queued` this long after it was
   * taken, and whose workflow does not exist, belongs to a request that died before starting
   * the workflow: it is cleared instead of answering 409 forever.
   */
  START_GRACE_SECONDS: intFrom(30, 1),
  /**
   * Turn starts (session lock, records, workflow start) an API process runs at once; more
   * wait their turn in arrival order. In a burst the earliest turns then start first instead
   * of all of them sharing the process and starting last (docs/capacity.md).
   */
  TURN_START_CONCURRENCY: intFrom(2, 1),
  /**
   * Token-event batches a worker's streams send a second, all together: past it each stream's
   * 50 ms window widens evenly, up to 250 ms (src/activities/stream/batching-publisher.ts `StreamLoad`).
   * 400: 20 streams keep the 50 ms window, 50 batch every 125 ms.
   */
  STREAM_BATCHES_PER_SECOND: intFrom(400, 1),
  /**
   * Heartbeats a worker's running activities send a second, all together: past it each
   * activity's 1 s beat widens evenly, up to 2 s and never past two thirds of its heartbeat
   * timeout (src/activities/heartbeat.ts `HeartbeatLoad`). 25: 25 streaming steps keep 1 s,
   * 50 beat every 2 s.
   */
  HEARTBEATS_PER_SECOND: intFrom(25, 1),

  /** host:port where the worker's Temporal runtime serves Prometheus metrics (task slots, schedule-to-start, activity latency). Empty: off. */
  TEMPORAL_METRICS_BIND_ADDRESS: z.string().default(''),
  /** Port where a standalone worker serves Scriptorium's own metrics at /metrics (the API serves them on its own port). 0: off. */
  WORKER_METRICS_PORT: intFrom(0),
  /**
   * Bearer token a scraper sends for /metrics on the API port (16+ characters, no spaces). With
   * API_TOKENS set, /metrics answers 401 without it (and to everyone when it is unset, unless
   * METRICS_PORT moves metrics off the API port); in loopback mode it is required only when set.
   */
  METRICS_TOKEN: z.string().min(16).regex(/^\S+$/, 'no spaces').optional(),
  /** A port of its own for the API's /metrics, on 127.0.0.1; the API port then serves none. 0: off. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** OTLP/HTTP collector base URL (e.g. http://otel-collector:4318); traces go to <url>/v1/traces. Empty: tracing off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().default(''),
  OTEL_SERVICE_NAME: z.string().default('scriptorium'),
  /** Seconds a SIGTERM waits for running activities and open SSE clients before the process exits. */
  SHUTDOWN_GRACE_SECONDS: intFrom(25, 0),

  /** Seconds a turn waits for the author to approve deleting or rewriting a file they wrote; no answer counts as no. */
  APPROVAL_WAIT_SECONDS: intFrom(900, 5),
  /** A message that is not a yes or no while a turn waits for approval denies it; the API waits this long for that turn to end, then starts the message as the next turn. */
  APPROVAL_FOLLOW_UP_WAIT_SECONDS: intFrom(60, 1),

  /** `llm`: the router model picks the plan; `off`: every turn starts with the writer, no router call. */
  ROUTER_STRATEGY: z.enum(['llm', 'off']).default('llm'),
  /** 2–4 next steps for the author after each turn that did not fail (one small model call). */
  SUGGESTIONS_ENABLED: boolFrom(true),
  SUGGESTIONS_MODEL: z.string().optional(),

  /** Skill zip import caps: the upload, its file count, one file and all files uncompressed. */
  SKILL_ZIP_MAX_BYTES: intFrom(1024 * 1024, 1024),
  SKILL_MAX_FILES: intFrom(64, 1),
  SKILL_MAX_FILE_BYTES: intFrom(256 * 1024, 1024),
  SKILL_MAX_TOTAL_BYTES: intFrom(2 * 1024 * 1024, 1024),
  /** Per request (turn): distinct skills read, tokens of skill text, characters per resource page. */
  SKILLS_PER_REQUEST: intFrom(3, 1),
  SKILL_TOKEN_BUDGET: intFrom(8000, 100),
  SKILL_PAGE_CHARS: intFrom(6000, 100),

  /** Spend limits per user, held in Redis so they hold across API replicas; 0 turns one off. */
  RATE_LIMIT_TURNS: intFrom(60, 0),
  RATE_LIMIT_TURNS_WINDOW_SECONDS: intFrom(60, 1),
  RATE_LIMIT_JOBS: intFrom(10, 0),
  RATE_LIMIT_JOBS_WINDOW_SECONDS: intFrom(3600, 1),
});

export type Config = z.infer<typeof configSchema> & {
  /** Where each effective value came from, and keys set differently in env and `.env`. */
  meta: ConfigMeta;
};

export interface ConfigConflict {
  key: string;
  winner: 'dotenv' | 'process';
  effective: string;
  ignored: string;
}

export interface ConfigMeta {
  priority: EnvPriority;
  dotenvPath: string | null;
  conflicts: ConfigConflict[];
  offlineModel: boolean;
  /** Model prices (USD per million tokens): the built-in list with MODEL_PRICES over it. */
  prices: PriceTable;
  /** Auth mode and the parsed bearer tokens (decided from the parsed API_TOKENS, not the raw string). */
  auth: AuthSettings;
}

export type EnvPriority = 'dotenv' | 'process' | 'none';

/** OpenAI's small chat model: it takes temperature 0 and max_tokens, which its reasoning models (o-series, gpt-5) refuse. */
export const OPENAI_ROUTER_MODEL = 'gpt-4o-mini';

/** The small GPT-4 models (4o-mini, 4.1-mini, 4.1-nano): already what the router wants. */
const SMALL_GPT4 = /^gpt-4[^-]*-(mini|nano)(-|$)/;

/**
 * The router's model. ROUTER_MODEL when set. Offline, the id every agent sends (the offline
 * model answers to any). On OpenAI's own API, its small model unless OPENAI_MODEL is one
 * already: routing is a short label, and the big model's latency sits before every first token.
 * On any other endpoint, OPENAI_MODEL: another provider's small sibling cannot be guessed.
 */
export function routerModelOf(
  config: Pick<Config, 'ROUTER_MODEL' | 'OPENAI_MODEL' | 'OPENAI_BASE_URL' | 'OPENAI_API_KEY'>,
): string {
  if (config.ROUTER_MODEL) return config.ROUTER_MODEL;
  const openAi = !config.OPENAI_BASE_URL || /^https?:\/\/api\.openai\.com(\/|$)/i.test(config.OPENAI_BASE_URL);
  if (!config.OPENAI_API_KEY || !openAi || SMALL_GPT4.test(config.OPENAI_MODEL)) return config.OPENAI_MODEL;
  return OPENAI_ROUTER_MODEL;
}

const SECRET_KEY = /KEY|SECRET|TOKEN|PASSWORD|URI|URL/i;

/** Masks secrets so /health can show "what the effective value looks like" without leaking it. */
export function maskValue(key: string, value: string): string {
  if (!SECRET_KEY.test(key)) return value;
  if (/URI|URL/i.test(key)) return value.replace(/\/\/([^@/]*)@/, '//***@');
  return value.length <= 6 ? '***' : `***${value.slice(-4)}`;
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  /** Directory holding `.env`; defaults to the working directory. */
  cwd?: string;
}

/** Reads, merges and validates settings. Throws a readable error naming each bad key. */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  const priorityRaw = env.SCRIPTORIUM_ENV_PRIORITY ?? 'dotenv';
  const priority = z.enum(['dotenv', 'process', 'none']).parse(priorityRaw);
  const dotenvPath = path.join(options.cwd ?? process.cwd(), '.env');
  const fromFile = priority !== 'none' && fs.existsSync(dotenvPath) ? dotenv.parse(fs.readFileSync(dotenvPath)) : {};

  const keys = Object.keys(configSchema.shape) as (keyof typeof configSchema.shape)[];
  const merged: Record<string, string | undefined> = {};
  const conflicts: ConfigConflict[] = [];
  for (const key of keys) {
    const p = env[key];
    const f = fromFile[key];
    const winner = priority === 'process' ? (p ?? f) : (f ?? p);
    merged[key] = winner === '' && key !== 'API_TOKENS' ? undefined : winner;
    if (p !== undefined && f !== undefined && p !== f) {
      const won = priority === 'process' ? 'process' : 'dotenv';
      conflicts.push({
        key,
        winner: won,
        effective: maskValue(key, won === 'process' ? p : f),
        ignored: maskValue(key, won === 'process' ? f : p),
      });
    }
  }

  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  let prices: PriceTable;
  try {
    prices = priceTable(parsed.data.MODEL_PRICES);
  } catch (err) {
    throw new Error(`Invalid configuration:\n  ${(err as Error).message}`);
  }
  let auth: AuthSettings;
  try {
    // The raw value: an unset secret and an explicit copy of the default are both refused with tokens.
    auth = resolveAuth(parsed.data.API_TOKENS, merged.STREAM_TOKEN_SECRET);
  } catch (err) {
    const problems = (err as { problems?: string[] }).problems ?? [(err as Error).message];
    throw new Error(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return {
    ...parsed.data,
    meta: {
      priority,
      dotenvPath: Object.keys(fromFile).length > 0 ? dotenvPath : null,
      conflicts,
      offlineModel: !parsed.data.OPENAI_API_KEY,
      auth,
      prices,
    },
  };
}
