/**
 * The grammar of orders: a clause authorises a whole-file delete or rewrite, or a job command,
 * only when every word of it is accounted for — an optional lead (courtesy, "ok", "please",
 * 请/帮我/麻烦), the verb as a whole word, a complete object (a unit in any numeral, a title, a
 * list, a range with its exceptions, the open file by pointing), closing words, punctuation and
 * emoji. Any other word means the clause is not an order, and nothing is authorised by it: the
 * agent asks instead. This is an allow-list; the lists of things that make a sentence something
 * else (questions, hedges, jokes, take-backs: core/words/utterance, `VOIDS`) are a second check on
 * top, never the reason an order is read. What an order names is read in order-targets.ts, the
 * tokens in order-tokens.ts, job orders in job-orders.ts. Pure module.
 */
import type { ReadClause } from './reading';
import * as W from './order-words';
import { STEP_VERBS } from './step-verbs';
import { isHedgedClause } from './utterance';
import { Cursor, tokensOf } from './order-tokens';
import { eatException, eatTargets, type Target } from './order-targets';

export type { Target } from './order-targets';
export {
  bareJobVerbOf,
  bareResumeOf,
  jobOrderOf,
  mentionsJobControl,
  namesJob,
  type JobAction,
  type JobOrder,
} from './job-orders';

export type FileAction = 'delete' | 'rewrite';

export interface FileOrder {
  action: FileAction;
  targets: Target[];
  /** What the order leaves out ("except 6", "第6章除外"). */
  except: Target[];
  /** The order has no object of its own ("删了吧"): it points at the topic or the open file. */
  implicit: boolean;
}

/** The model after an English object ("to match chapter 3", "in the style of the Prologue"): consumed, never a target. */
function eatMannerEn(c: Cursor, titles: readonly string[]): boolean {
  const mark = c.i;
  if (c.eat(W.MANNER_AFTER_EN) && eatTargets(c, titles)) return true;
  c.i = mark;
  return false;
}

/** The model before a Chinese verb ("按第3章的风格", "以第三章为准"). */
function eatMannerZh(c: Cursor, titles: readonly string[]): boolean {
  const mark = c.i;
  if (c.eat(W.MANNER_BEFORE_ZH) && eatTargets(c, titles)) {
    c.eat(W.MANNER_TAIL_ZH);
    c.skipMarks();
    return true;
  }
  c.i = mark;
  return false;
}

const FILE_VERBS: { action: FileAction; en: readonly string[]; zh: readonly string[] }[] = [
  { action: 'rewrite', en: W.REWRITE_EN, zh: W.REWRITE_ZH },
  { action: 'delete', en: W.DELETE_EN, zh: W.DELETE_ZH },
];

function eatFileVerb(c: Cursor, lang: 'en' | 'zh'): { action: FileAction; verb: string } | null {
  for (const v of FILE_VERBS) {
    const verb = lang === 'en' ? c.eatVerb(v.en, W.TYPO_TARGETS) : c.eat(v.zh);
    if (verb) return { action: v.action, verb };
  }
  return null;
}

/** Closing words, particles and marks after an order. */
function skipClosing(c: Cursor, action: FileAction): void {
  if (action === 'rewrite')
    c.skip(W.CLOSE_EN, W.CLOSE_ZH, W.PARTICLE_ZH, W.WRITE_ANEW_EN, W.REWRITE_WHOLE_ZH, W.REWRITE_ZH);
  else c.skip(W.CLOSE_EN, W.CLOSE_ZH, W.PARTICLE_ZH);
}

/** Between orders joined in one clause ("scrap chapter 8 and rewrite chapter 9", "删掉笔记并重写大纲"). */
const ORDER_JOIN = ['and', 'and then', 'then', '&', ',', '，', '并', '再', '并且', '然后', '同时'];

/** The perfective particle, Mandarin and Cantonese ("删了", "删咗"). */
const PERFECTIVE = ['了', '咗'];

/**
 * A verb with 了 and nothing softening it after ("删了第三章", "第三章删掉了", "重写了") tells what
 * happened as often as it asks: an order only with 把 or 给我 before it, or 吧 / 呗 / 就行 after it
 * ("把第三章删了", "都给我删了", "删了吧", "删了就行").
 */
function perfectiveReport(c: Cursor, verbEnd: number, imperative: boolean): boolean {
  let next = verbEnd;
  if (c.toks[next]?.key === '掉') next++;
  if (!PERFECTIVE.includes(c.toks[next]?.key ?? '') || imperative) return false;
  const after = c.toks
    .slice(next + 1)
    .map((t) => t.key)
    .join('');
  return !W.ORDER_AFTER_PERFECTIVE.some((p) => after.includes(p));
}

/**
 * Reads a clause as whole-file orders (one, or several joined), or [] when any word of it is not
 * accounted for. `inSeries`: another clause of its sentence is an order, so a verb with 了 in this
 * one is one of a list of orders ("序章删了，大纲重写"), not a report.
 */
export function fileOrdersOf(clause: ReadClause, titles: readonly string[] = [], inSeries = false): FileOrder[] {
  const toks = tokensOf(clause, titles);
  for (const read of [englishFileOrder, chineseFileOrder, wantedFileOrder]) {
    const c = new Cursor(toks);
    const orders: FileOrder[] = [];
    for (;;) {
      const order = read(c, titles, inSeries);
      if (!order) break;
      // "scrap chapter 8 and write it fresh", "throw the Outline away and write it again": one rewrite of it.
      const prev = orders[orders.length - 1];
      if (prev?.action === 'delete' && order.action === 'rewrite' && pointsBack(order))
        orders[orders.length - 1] = {
          ...order,
          targets: prev.targets,
          except: [...prev.except, ...order.except],
          implicit: prev.implicit,
        };
      else orders.push(order);
      if (c.done) return orders;
      const mark = c.i;
      if (!c.eat(ORDER_JOIN)) break;
      c.skipMarks();
      // "… and keep the Prologue": what is kept is left out of every order of the clause.
      const keepAt = c.i;
      if (c.eat(W.KEEP_EN) ?? c.eat(W.KEEP_ZH)) {
        const kept = eatTargets(c, titles, true);
        c.skip(W.KEEP_TAIL_EN, W.KEEP_CLOSE, W.CLOSE_EN, W.PARTICLE_ZH);
        if (kept && c.done) return orders.map((o) => ({ ...o, except: [...o.except, ...kept] }));
        c.i = keepAt;
      }
      if (c.done) {
        c.i = mark;
        break;
      }
    }
  }
  return [];
}

/** An order whose object is only a pointer ("… and rewrite it") or none. */
const pointsBack = (o: FileOrder): boolean => o.implicit || o.targets.every((t) => t.kind === 'pointer');

/** The first order of a clause that is nothing but orders, or null. */
export function fileOrderOf(clause: ReadClause, titles: readonly string[] = []): FileOrder | null {
  return fileOrdersOf(clause, titles)[0] ?? null;
}

/** After the object: closing words, exceptions and a model to follow, in any order. */
function eatObjectTail(c: Cursor, titles: readonly string[], action: FileAction, except: Target[]): void {
  for (;;) {
    const at = c.i;
    skipClosing(c, action);
    const more = eatException(c, titles);
    if (more) except.push(...more);
    eatMannerEn(c, titles);
    if (c.i === at) return;
  }
}

/** LEAD* VERB TARGETS [EXCEPT] [MANNER] CLOSE* · LEAD* write TARGETS from-scratch CLOSE* · LEAD* start TARGETS over. */
function englishFileOrder(c: Cursor, titles: readonly string[]): FileOrder | null {
  const begin = c.i;
  // Authors mix languages: "帮我 delete chapter 4".
  c.skip(W.LEAD_EN, W.LEAD_ZH);
  const start = c.i;
  let verb = eatFileVerb(c, 'en');
  let anew = false;
  if (!verb && c.eat(['write'])) {
    verb = { action: 'rewrite', verb: 'write' };
    anew = true;
  }
  // "throw the Outline away": a delete whose particle follows its object.
  let particle = false;
  if (!verb && c.eat(W.DELETE_SPLIT_EN)) {
    verb = { action: 'delete', verb: 'throw' };
    particle = true;
  }
  if (!verb && c.eat(['start over on', 'start over with', 'start over']))
    verb = { action: 'rewrite', verb: 'start over' };
  let startOver = false;
  if (!verb && c.eat(['start'])) {
    verb = { action: 'rewrite', verb: 'start' };
    startOver = true;
  }
  if (!verb || c.i === start) {
    c.i = begin;
    return null;
  }
  // No object at all ("please delete", "rewrite it" is a pointer): the order points at the open file.
  const targets = eatTargets(c, titles) ?? (verb.verb !== 'write' && verb.verb !== 'start' ? [] : null);
  if (!targets) {
    c.i = begin;
    return null;
  }
  const except: Target[] = [];
  if (startOver && !c.eat(['over', 'over again', 'from scratch'])) return null;
  if (particle && !c.eat(['away', 'out'])) return null;
  const anewAt = c.i;
  eatObjectTail(c, titles, verb.action, except);
  // "write chapter 3" is writing it; only "… from scratch / again / anew" makes it a rewrite.
  if (anew && !c.toks.slice(anewAt, c.i).some((t) => /^(?:scratch|again|anew|afresh|fresh|up|beginning)$/.test(t.key)))
    return null;
  if (verb.action === 'rewrite') eatPurposeEn(c);
  return c.done || ORDER_JOIN.includes(c.peek()!.key)
    ? { action: verb.action, targets, except, implicit: targets.length === 0 }
    : null;
}

/**
 * The order said as a wish for the file's state: "I want the Research Notes deleted", "I'd like chapter
 * 3 gone", and after a join the same shape without its lead ("… and the Character Cards rewritten
 * from scratch"): WANT TARGETS PARTICIPLE CLOSE*.
 */
function wantedFileOrder(c: Cursor, titles: readonly string[]): FileOrder | null {
  const begin = c.i;
  c.skip(W.LEAD_EN);
  if (!c.eat(W.WANT_EN) && begin === 0) return null;
  const targets = eatTargets(c, titles);
  const part =
    targets && !targets.some((t) => t.kind === 'pointer') ? c.eat(W.PARTICIPLE_EN.flatMap((p) => p.words)) : null;
  const action = W.PARTICIPLE_EN.find((p) => part && p.words.includes(part))?.action;
  if (!targets || !action) {
    c.i = begin;
    return null;
  }
  const except: Target[] = [];
  eatObjectTail(c, titles, action, except);
  return c.done || ORDER_JOIN.includes(c.peek()!.key) ? { action, targets, except, implicit: false } : null;
}

/**
 * What a rewrite is for or what it should become, after its object: "as a clean working document for
 * the second draft", "to reflect the shorter book". It says how to write the new text, so it may hold
 * any words but those that could narrow what is rewritten or make it something else: no file or
 * unit, no part of a file, no exception, keep, negation or limit, no hedge. Consumed to the clause's
 * end, or not at all.
 */
function eatPurposeEn(c: Cursor): void {
  const mark = c.i;
  if (!c.eat(W.PURPOSE_EN)) return;
  const rest = c.toks.slice(c.i);
  const plain = rest.every(
    (t) =>
      !t.title &&
      (t.word?.kind === 'word' || (t.word?.kind === 'punct' && !/[?？]/u.test(t.text))) &&
      !W.PART_WORDS.includes(t.key) &&
      !W.PURPOSE_NOT_EN.includes(t.key),
  );
  if (rest.length && plain && !isHedgedClause(rest.map((t) => t.text).join(' '))) c.i = c.toks.length;
  else c.i = mark;
}

/**
 * LEAD* [MANNER] (把|将) TARGETS ADV* VERB PARTICLE* CLOSE* · LEAD* TARGETS ADV* VERB … ·
 * LEAD* VERB [掉] TARGETS … · LEAD* VERB PARTICLE* (no object: it points back).
 */
function chineseFileOrder(c: Cursor, titles: readonly string[], inSeries = false): FileOrder | null {
  c.skip(W.LEAD_ZH, W.LEAD_EN);
  // "帮我删了第五章", "唔该删咗附录二": a lead that asks for the work makes a verb with 了 a request.
  const lead = c.toks
    .slice(0, c.i)
    .map((t) => t.key)
    .join('');
  const asked = W.REQUEST_LEAD_ZH.some((p) => lead.includes(p));
  eatMannerZh(c, titles);
  c.skip(W.LEAD_ZH, W.ADVERB_ZH);
  const ba = !!c.eat(['把', '将']);
  c.skipMarks();
  const before = eatTargets(c, titles);
  if (ba && !before) return null;
  const except = (before && eatException(c, titles)) ?? [];
  const advAt = c.i;
  c.skip(W.ADVERB_ZH);
  // "请从零开始重写…", "帮我整集重写": how whole a rewrite is may come before its verb (never a delete's).
  const whole = c.i;
  c.skip(W.ADVERB_ZH, W.REWRITE_WHOLE_ZH);
  if (c.i !== whole && !new Cursor(c.toks.slice(c.i)).eat(W.REWRITE_ZH)) c.i = whole;
  const imperative =
    ba ||
    asked ||
    c.toks
      .slice(advAt, c.i)
      .map((t) => t.key)
      .join('')
      .includes('给我');
  if (!before) eatMannerZh(c, titles);
  // "把 Notes delete 掉", "第四章 delete", "人物设定 rewrite 一下", "ch2 rewrite from scratch": an English
  // verb after its object is the order's after 把, in a clause that mixes in Chinese, or after units
  // alone; after an English title alone ("Notes delete") it is its subject's.
  const mixed = c.toks.some((t) => /\p{Script=Han}/u.test(t.text)) || !!before?.every((t) => t.kind === 'unit');
  const verb = eatFileVerb(c, 'zh') ?? (ba || (before && mixed) ? eatFileVerb(c, 'en') : null);
  if (!verb) return null;
  if (perfectiveReport(c, c.i, imperative || (inSeries && !!before))) return null;
  let targets = before;
  if (!targets) {
    c.eat(['掉']);
    // Past perfectiveReport, a 了 here belongs to a request ("给我删了第三章").
    if (imperative) c.eat(PERFECTIVE);
    const mark = c.i;
    c.skipMarks();
    targets = eatTargets(c, titles);
    if (!targets) c.i = mark;
  }
  eatObjectTail(c, titles, verb.action, except);
  if (!(c.done || ORDER_JOIN.includes(c.peek()!.key))) return null;
  return { action: verb.action, targets: targets ?? [], except, implicit: !targets };
}

/**
 * A clause that only names exceptions to an order of its sentence or files to keep: "第6章除外",
 * "除了第6章", "别删第三章", "but leave 3 alone", "except chapter 6", "keep chapter 6", "leave it".
 * Null when it is anything else.
 */
export function exceptionClauseOf(clause: ReadClause, titles: readonly string[] = []): Target[] | null {
  if (W.NEGATED_KEEP.test(clause.text)) return null;
  const c = new Cursor(tokensOf(clause, titles));
  c.skip(W.LEAD_EN, W.LEAD_ZH);
  let got: Target[] | null = null;
  if (c.eat(W.EXCEPT_EN) ?? c.eat(W.EXCEPT_ZH)) {
    got = eatTargets(c, titles, true);
    if (got) c.eat(W.EXCEPT_TAIL_ZH);
  } else if (c.eat(W.KEEP_EN) ?? c.eat(W.KEEP_ZH)) {
    got = eatTargets(c, titles, true);
    if (got) c.eat(W.KEEP_TAIL_EN);
  } else {
    c.eat(['把', '将']);
    got = eatTargets(c, titles, true);
    c.skip(W.ADVERB_ZH);
    if (got && !(c.eat(W.EXCEPT_TAIL_ZH) ?? c.eat(W.KEEP_ZH))) got = null;
  }
  if (!got) return null;
  // A keep said twice over ("第6章留着别动") keeps the same files.
  c.skip(W.CLOSE_EN, W.CLOSE_ZH, W.PARTICLE_ZH, W.KEEP_CLOSE, W.KEEP_ZH);
  return c.done ? got : null;
}

/**
 * The files a clause opens with, as its subject ("第三章写得太烂了", "Chapter 4 - …", "Notes is a
 * mess"): whole files only, not a part of one ("第三章的结尾", "chapter 3's ending"). Null when the
 * clause does not open with references.
 */
export function openingTargets(clause: ReadClause, titles: readonly string[] = []): Target[] | null {
  const c = new Cursor(tokensOf(clause, titles));
  c.skip(W.LEAD_EN, W.LEAD_ZH);
  const targets = eatTargets(c, titles);
  if (!targets || targets.some((t) => t.kind === 'pointer')) return null;
  const next = c.peek();
  if (next && /^(?:的|里|中|之|'s|’s|of|from|in)$/iu.test(next.text)) return null;
  return targets;
}

export type StepAction = keyof typeof STEP_VERBS;

/**
 * A plain order for a step an agent offered ("write it", "写吧", "go ahead and revise chapter 1",
 * "改第二章吧"): LEAD* VERB [TARGETS] CLOSE*, every word accounted for. Null otherwise.
 */
export function stepOrderOf(clause: ReadClause): { action: StepAction; targets: Target[] } | null {
  for (const action of Object.keys(STEP_VERBS) as StepAction[]) {
    const c = new Cursor(tokensOf(clause, []));
    c.skip(W.LEAD_EN, W.LEAD_ZH);
    if (!c.eat(STEP_VERBS[action])) continue;
    c.skip(W.PARTICLE_ZH, ['on', 'with', 'up']);
    const targets = eatTargets(c, []) ?? [];
    c.skip(W.CLOSE_EN, W.CLOSE_ZH, W.PARTICLE_ZH, ['next', 'then', 'now', 'please', 'go ahead', 'all']);
    if (c.done) return { action, targets };
  }
  return null;
}

/**
 * Whether every word of the clause is one of these phrases (punctuation and emoji aside), read
 * left to right taking the longest phrase at each place; and the words each list matched.
 */
export function accountFor(
  clause: ReadClause,
  lists: Record<string, readonly string[]>,
): Record<string, number> | null {
  const lexicon = Object.values(lists)
    .flat()
    .filter((p) => /^\p{Script=Han}+$/u.test(p));
  const c = new Cursor(tokensOf(clause, [], lexicon));
  const counts: Record<string, number> = Object.fromEntries(Object.keys(lists).map((k) => [k, 0]));
  for (;;) {
    c.skipMarks();
    if (c.done) return counts;
    let best: { key: string; next: number } | null = null;
    for (const [key, list] of Object.entries(lists)) {
      const at = c.i;
      if (c.eat(list) && (!best || c.i > best.next)) best = { key, next: c.i };
      c.i = at;
    }
    if (!best) return null;
    counts[best.key]!++;
    c.i = best.next;
  }
}
