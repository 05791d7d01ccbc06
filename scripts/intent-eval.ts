/**
 * Measures the deterministic rules that read an author's words on a corpus:
 * author scope (which whole-file deletes / rewrites a message authorises), routing
 * (answer, new instruction, confirmation, refusal, vague edit), plan requests, the reply
 * language, question detection and run control from chat (job commands). The corpus format
 * is fixed so any corpus in it can be run; `npm run eval:intent -- <file.json>` prints the
 * result (scripts/eval-intent.ts).
 */
import { z } from 'zod';
import { endsWithQuestion } from '../src/core/model/file-stream';
import { jobCommandOf } from '../src/core/words/job-commands';
import { type AuthorAction, authorisedFiles } from '../src/core/words/author-scope';
import { readAuthorMessage } from '../src/activities/reading/segmenter';
import type { MessageReading } from '../src/core/words/reading';
import { replyLanguage, sessionLanguage } from '../src/core/words/language';
import type { RoutingDecision, WorkAgent } from '../src/core/plans';
import { countProposedChanges } from '../src/core/words/proposals';
import { preRoute, type PreviousTurnFacts, requestAsksForPlan } from '../src/core/words/routing';

const agent = z.enum(['planner', 'hook_designer', 'writer', 'quality_reviewer']);
export const corpusSchema = z.object({
  files_zh: z.array(z.string()),
  files_en: z.array(z.string()),
  scope: z
    .array(
      z.object({
        msg: z.string(),
        en: z.boolean(),
        delete: z.array(z.string()).default([]),
        rewrite: z.array(z.string()).default([]),
        /** Only whether the listed titles are authorised counts; other titles are not judged. */
        recall_only: z.boolean().default(false),
      }),
    )
    .default([]),
  route: z
    .array(
      z.object({
        prev: z.object({ agent, read_only: z.boolean(), question: z.string().nullable().optional() }).nullable(),
        msg: z.string(),
        expect: z.enum(['inherit', 'not_inherit', 'confirm', 'no_write', 'clarify_first', 'not_clarify']),
      }),
    )
    .default([]),
  plan_request: z.array(z.object({ msg: z.string(), asks: z.boolean() })).default([]),
  /**
   * The reply language: `session` is the session's language so far, or `new` for the first
   * message of a session, answered in `ui` (the author's interface language) when it carries
   * no language of its own.
   */
  lang: z
    .array(
      z.object({
        session: z.enum(['zh', 'en', 'new']),
        ui: z.enum(['zh', 'en']).optional(),
        msg: z.string(),
        expect: z.enum(['zh', 'en']),
      }),
    )
    .default([]),
  question: z.array(z.object({ text: z.string(), is_question: z.boolean() })).default([]),
  /** Run control from chat: the command a message gives a running job, or null for none. */
  job_command: z
    .array(z.object({ msg: z.string(), action: z.enum(['pause', 'resume', 'cancel', 'status']).nullable() }))
    .default([]),
});
export type Corpus = z.infer<typeof corpusSchema>;

export interface Failure {
  category: string;
  detail: string;
}

export interface CategoryResult {
  passed: number;
  failed: number;
}

export interface EvalResult {
  /** Per category ("scope", "route:inherit", …). */
  categories: Map<string, CategoryResult>;
  failures: Failure[];
  falseAuthorisations: number;
  /**
   * The cost of asking: plain orders (scope cases that authorise something, job commands that
   * pause, resume or cancel) and how many of them the rules did not act on, so the author gets an
   * approval card or a one-line question instead.
   */
  asking: { orders: number; asked: number };
  passed: number;
  failed: number;
}

/** What the previous turn left, as the turn's preparation reads it from the stored turn and reply. */
export function previousFacts(prev: NonNullable<Corpus['route'][number]['prev']>): PreviousTurnFacts {
  const question = prev.question?.trim() ? prev.question : null;
  const asked = !!question && endsWithQuestion(question);
  const review = prev.agent === 'quality_reviewer';
  const routing: RoutingDecision = {
    current_agent: prev.agent as WorkAgent,
    workflow_plan: review ? 'review_only' : prev.agent === 'planner' ? 'standard' : 'quick',
    workflow_agents: [],
    write_content: !prev.read_only && !review,
    read_only: prev.read_only,
    scope: '',
    clarify_first: false,
    source: 'llm',
    notes: [],
  };
  return {
    status: asked ? 'awaiting_author' : 'completed',
    stopReason: null,
    routing,
    resume: null,
    askedQuestion: asked,
    proposedChanges: question ? countProposedChanges(question) : 0,
    question,
    deliveredUnits: [],
  };
}

type RouteExpect = Corpus['route'][number]['expect'];

/** How the turn treats a message that is a job command: answered without agents, nothing written. */
const JOB_COMMAND_ROUTE: RoutingDecision = {
  current_agent: 'writer',
  workflow_plan: 'quick',
  workflow_agents: [],
  write_content: false,
  read_only: true,
  scope: 'job command',
  clarify_first: false,
  source: 'llm',
  notes: ['a job command, answered without a model'],
};

/** Whether a routing decision (null: the router model decides) does what the case expects. */
export function routeMeets(expect: RouteExpect, decision: RoutingDecision | null): boolean {
  switch (expect) {
    case 'inherit':
      return decision?.source === 'inherit_after_question';
    case 'not_inherit':
      return decision?.source !== 'inherit_after_question';
    case 'confirm':
      return (
        decision?.source === 'confirm_proposal' &&
        (!decision.read_only || decision.current_agent === 'quality_reviewer')
      );
    case 'no_write':
      return !!decision && decision.read_only && !decision.write_content;
    case 'clarify_first':
      return decision?.clarify_first === true;
    case 'not_clarify':
      return decision?.clarify_first !== true;
  }
}

const describeDecision = (d: RoutingDecision | null): string =>
  d
    ? `${d.source} ${d.current_agent}${d.read_only ? ' read_only' : ''}${d.clarify_first ? ' clarify_first' : ''}`
    : 'router decides';

/**
 * Runs every case of the corpus through the rules. `read` reads an author's message as a turn
 * does (jieba's words); the unit tests pass one that replays recorded cuts, so a mutation run
 * does not load the dictionary for each mutant.
 */
export function evaluateCorpus(
  corpus: Corpus,
  read: (message: string) => MessageReading = readAuthorMessage,
): EvalResult {
  const categories = new Map<string, CategoryResult>();
  const failures: Failure[] = [];
  let falseAuthorisations = 0;
  const asking = { orders: 0, asked: 0 };
  const record = (category: string, ok: boolean, detail: () => string): void => {
    const c = categories.get(category) ?? { passed: 0, failed: 0 };
    if (ok) c.passed++;
    else {
      c.failed++;
      failures.push({ category, detail: detail() });
    }
    categories.set(category, c);
  };

  for (const c of corpus.scope) {
    const titles = c.en ? corpus.files_en : corpus.files_zh;
    const reading = read(c.msg);
    const problems: string[] = [];
    let falseAuth = false;
    for (const action of ['delete', 'rewrite'] as AuthorAction[]) {
      const listed = new Set(c[action]);
      const got = authorisedFiles(
        { reading, titles },
        titles.map((t, i) => ({ id: String(i), title: t })),
        action,
      ).map((f) => f.title);
      for (const t of got)
        if (!listed.has(t) && !c.recall_only) {
          falseAuth = true;
          problems.push(`FALSE AUTHORISATION ${action} "${t}"`);
        }
      for (const t of listed) if (!got.includes(t)) problems.push(`missed ${action} "${t}"`);
    }
    if (falseAuth) falseAuthorisations++;
    if (c.delete.length || c.rewrite.length) {
      asking.orders++;
      if (problems.some((p) => p.startsWith('missed'))) asking.asked++;
    }
    record(
      c.delete.length || c.rewrite.length ? 'scope:authorises' : 'scope:authorises nothing',
      problems.length === 0,
      () => `${JSON.stringify(c.msg)}: ${problems.join('; ')}`,
    );
  }

  for (const c of corpus.route) {
    const previous = c.prev ? previousFacts(c.prev) : null;
    const reading = read(c.msg);
    // Run control comes first in the turn: a job command is answered without routing (read-only).
    const decision = jobCommandOf(reading) ? JOB_COMMAND_ROUTE : preRoute(reading, previous);
    // The rules sending a "no" (or a hedge) to a write is the routing's own false authorisation:
    // the edit the previous turn proposed would be made.
    const writes = c.expect === 'no_write' && !!decision && (decision.write_content || !decision.read_only);
    if (writes) falseAuthorisations++;
    record(
      `route:${c.expect}`,
      routeMeets(c.expect, decision),
      () =>
        `${JSON.stringify(c.msg)} after ${JSON.stringify(c.prev?.question ?? null)}: got ${describeDecision(decision)}${writes ? ' — FALSE AUTHORISATION write' : ''}`,
    );
  }

  for (const c of corpus.plan_request) {
    const got = requestAsksForPlan(c.msg);
    record('plan_request', got === c.asks, () => `${JSON.stringify(c.msg)}: expected asks=${c.asks}`);
  }

  for (const c of corpus.lang) {
    const got = c.session === 'new' ? sessionLanguage([c.msg], c.ui ?? 'zh') : replyLanguage(c.session, c.msg);
    const where = c.session === 'new' ? `a new session (interface ${c.ui ?? 'zh'})` : `a ${c.session} session`;
    record('lang', got === c.expect, () => `${JSON.stringify(c.msg)} in ${where}: got ${got}, expected ${c.expect}`);
  }

  for (const c of corpus.question) {
    const got = endsWithQuestion(c.text);
    record('question', got === c.is_question, () => `${JSON.stringify(c.text)}: expected is_question=${c.is_question}`);
  }

  for (const c of corpus.job_command) {
    const got = jobCommandOf(read(c.msg))?.action ?? null;
    // Pausing, resuming or cancelling a job the author did not ask to is acting on their behalf.
    const acts = got !== null && got !== 'status' && got !== c.action;
    if (acts) falseAuthorisations++;
    if (c.action && c.action !== 'status') {
      asking.orders++;
      if (got !== c.action) asking.asked++;
    }
    record(
      `job_command:${c.action ?? 'none'}`,
      got === c.action,
      () => `${JSON.stringify(c.msg)}: got ${got ?? 'none'}${acts ? ` — FALSE AUTHORISATION ${got}` : ''}`,
    );
  }

  let passed = 0;
  let failed = 0;
  for (const c of categories.values()) {
    passed += c.passed;
    failed += c.failed;
  }
  return { categories, failures, falseAuthorisations, asking, passed, failed };
}

/** Pass rate of the categories whose name starts with `prefix` (1 when there are none). */
export function rate(result: EvalResult, prefix: string): number {
  let passed = 0;
  let total = 0;
  for (const [name, c] of result.categories)
    if (name === prefix || name.startsWith(`${prefix}:`)) {
      passed += c.passed;
      total += c.passed + c.failed;
    }
  return total === 0 ? 1 : passed / total;
}

/** The report `npm run eval:intent` prints: failing cases, a line per category, then the total. */
export function formatReport(result: EvalResult): string {
  const lines = result.failures.map((f) => `FAIL [${f.category}] ${f.detail}`);
  if (lines.length) lines.push('');
  for (const [name, c] of [...result.categories].sort(([a], [b]) => a.localeCompare(b)))
    lines.push(`${name}: ${c.passed}/${c.passed + c.failed} passed${c.failed ? `, ${c.failed} failed` : ''}`);
  lines.push(`false authorisations: ${result.falseAuthorisations}`);
  const { orders, asked } = result.asking;
  lines.push(
    `cost of asking: ${asked} of ${orders} plain orders asked about instead of acted on (${orders ? ((100 * asked) / orders).toFixed(1) : '0.0'} %)`,
  );
  lines.push(`intent: ${result.passed} passed, ${result.failed} failed`);
  return lines.join('\n');
}

export type CorpusPart = keyof Omit<Corpus, 'files_zh' | 'files_en'>;
export const CORPUS_PARTS: CorpusPart[] = ['scope', 'route', 'plan_request', 'lang', 'question', 'job_command'];

/** One case of a corpus as a corpus of its own (same files), to be judged alone. */
export interface SingleCase {
  part: CorpusPart;
  /** Its index within its part. */
  index: number;
  /** The author's message, or the agent's reply for a question case. */
  text: string;
  corpus: Corpus;
}

/** The corpus with only these cases of one part (by default all of that part), same files. */
export function onlyPart<P extends CorpusPart>(corpus: Corpus, part: P, cases: Corpus[P] = corpus[part]): Corpus {
  return { ...corpus, scope: [], route: [], plan_request: [], lang: [], question: [], job_command: [], [part]: cases };
}

export function singleCases(corpus: Corpus): SingleCase[] {
  return CORPUS_PARTS.flatMap((part) =>
    (corpus[part] as Corpus[CorpusPart]).map((c, index) => ({
      part,
      index,
      text: 'msg' in c ? c.msg : c.text,
      corpus: onlyPart(corpus, part, [c] as Corpus[CorpusPart]),
    })),
  );
}
