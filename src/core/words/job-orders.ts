/**
 * The grammar of job orders (run control from chat, core/words/job-commands.ts): a clause is an
 * order for the running job only when every word of it is accounted for — a lead, the verb, the job
 * by name or id, closing words — or a bare verb right after a clause about the job. Pure module.
 */
import * as W from './order-words';
import * as J from './job-words';
import { OBJECT_ID_ANY_CASE } from '../ids';
import type { ReadClause } from './reading';
import { Cursor, norm, oneTypo, tokensOf } from './order-tokens';

export type JobAction = 'pause' | 'resume' | 'cancel';

export interface JobOrder {
  action: JobAction;
}

const JOB_VERBS: { action: JobAction; words: readonly string[] }[] = [
  { action: 'pause', words: [...J.PAUSE_EN, ...J.PAUSE_ZH] },
  { action: 'resume', words: [...J.RESUME_EN, ...J.RESUME_ZH] },
  { action: 'cancel', words: [...J.CANCEL_EN, ...J.CANCEL_ZH] },
];

function eatJobVerb(c: Cursor): JobAction | null {
  for (const v of JOB_VERBS) if (c.eatVerb(v.words, W.TYPO_TARGETS)) return v.action;
  return null;
}

/** The job, by name or by its id (24 hex). */
function eatJobNoun(c: Cursor): boolean {
  if (c.eat(J.JOB_NOUN_EN) ?? c.eat(J.JOB_NOUN_ZH) ?? eatDescribedJob(c)) {
    // A job id is 24 hex digits, which the tokeniser cuts into numbers and letters: read them back together.
    let hex = '';
    let j = c.i;
    while (
      j < c.toks.length &&
      /^[0-9a-f]+$/i.test(c.toks[j]!.text) &&
      (j === c.i || c.toks[j]!.start === c.toks[j - 1]!.end)
    )
      hex += c.toks[j++]!.text;
    if (OBJECT_ID_ANY_CASE.test(hex)) c.i = j;
    return true;
  }
  return false;
}

/**
 * The job named with words that say how it runs: DET? DESCRIBER{1,2} NOUN ("the running job", "the
 * auto-write job", "自动写作任务"). Null (cursor unmoved) otherwise.
 */
function eatDescribedJob(c: Cursor): string | null {
  const mark = c.i;
  for (const list of [J.JOB_DESCRIBED_EN, J.JOB_DESCRIBED_ZH]) {
    c.i = mark;
    c.eat(list.det);
    let described = 0;
    while (described < 2 && c.eat(list.words)) described++;
    const noun = described ? c.eat(list.nouns) : null;
    if (noun) return noun;
  }
  c.i = mark;
  return null;
}

/**
 * Reads a clause as a job order: LEAD* VERB JOB CLOSE* · LEAD* (把) JOB ADV* VERB PARTICLE* ·
 * "put the job on hold". Null when any word is not accounted for.
 */
export function jobOrderOf(clause: ReadClause): JobOrder | null {
  const toks = tokensOf(clause, []);
  const verbFirst = (): JobAction | null => {
    const c = new Cursor(toks);
    c.skip(W.LEAD_EN, W.LEAD_ZH, J.JOB_LEAD_EN);
    if (c.eat(['put'])) {
      if (!eatJobNoun(c) || !c.eat(['on hold'])) return null;
      c.skip(J.JOB_CLOSE);
      return c.done ? 'pause' : null;
    }
    const action = eatJobVerb(c);
    if (!action) return null;
    c.skip(W.ADVERB_ZH, ['掉', '一下', '下']);
    if (!eatJobNoun(c)) return null;
    c.skip(J.JOB_CLOSE, J.JOB_RESTATED[action]);
    return c.done ? action : null;
  };
  const nounFirst = (): JobAction | null => {
    const c = new Cursor(toks);
    c.skip(W.LEAD_EN, W.LEAD_ZH, J.JOB_LEAD_EN);
    c.eat(['把', '将']);
    if (!eatJobNoun(c)) return null;
    c.skip(W.ADVERB_ZH);
    const action = eatJobVerb(c);
    if (!action) return null;
    c.skip(J.JOB_CLOSE, J.JOB_RESTATED[action]);
    return c.done ? action : null;
  };
  const action = verbFirst() ?? nounFirst();
  return action ? { action } : null;
}

/** A clause that is only a job verb ("取消掉", "pause it"): an order when the clause before it is about the job ("任务不要了，取消掉"). */
export function bareJobVerbOf(clause: ReadClause): JobAction | null {
  const c = new Cursor(tokensOf(clause, []));
  c.skip(W.LEAD_EN, W.LEAD_ZH);
  const action = eatJobVerb(c);
  if (!action) return null;
  c.skip(J.JOB_CLOSE, ['掉', 'it', 'that']);
  return c.done ? action : null;
}

/**
 * "Please resume", "unpause it", "resume writing": verbs that in a writing room can only mean the job,
 * whole in their clause, are a resume without the job's name. "Continue" and "恢复" are left out: they
 * go on with a chapter or restore a file as often.
 */
export function bareResumeOf(clause: ReadClause): boolean {
  const c = new Cursor(tokensOf(clause, []));
  c.skip(W.LEAD_EN);
  if (!c.eat(['resume', 'unpause'])) return false;
  c.skip(J.JOB_CLOSE, ['it', 'writing', 'the writing', 'generating']);
  return c.done;
}

/** Whether a clause names the job ("任务不要了", "the job is wrong"). */
export function namesJob(clause: ReadClause): boolean {
  const keys = tokensOf(clause, []).map((t) => t.key);
  return [...J.JOB_NOUN_EN, ...J.JOB_NOUN_ZH].some(
    (n) => keys.includes(norm(n)) || keys.join(' ').includes(n.toLowerCase()),
  );
}

/** Whether a clause mentions a job and a control verb at all (then, when it is not an order, the author is asked). */
export function mentionsJobControl(clause: ReadClause): JobAction | 'stop' | null {
  const keys = tokensOf(clause, []).map((t) => t.key);
  const joined = keys.join(' ');
  const hasNoun = [...J.JOB_NOUN_EN, ...J.JOB_NOUN_ZH].some(
    (n) => keys.includes(norm(n)) || joined.includes(n.toLowerCase()),
  );
  if (!hasNoun) return null;
  for (const v of JOB_VERBS)
    if (
      v.words.some(
        (w) => keys.includes(norm(w)) || keys.some((k) => k.length >= 5 && W.TYPO_TARGETS.includes(w) && oneTypo(k, w)),
      )
    )
      return v.action;
  if (keys.some((k) => ['stop', '停止', '停掉', '停', '结束', 'halt'].includes(k))) return 'stop';
  return null;
}
