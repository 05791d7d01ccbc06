/**
 * Author-file protection bound to what the author said about that file (seed 001: "作者在
 * 消息里点名这个文件并说删（或整份重写）时才执行。删除（单个文件或递归删文件夹里的）要作者在
 * 点名的那一处说删"). A file the author last wrote may be deleted or wholly rewritten only
 * when this turn's message names it (a whole reference: 第十章 = 第10章 = Chapter 10, and
 * "Chapter 10" never names "Chapter 1") and the delete / rewrite verb governs the clause
 * that names it. A file named as the model to follow ("以第3章为准", "和第3章保持统一"), as a
 * place inside which something changes ("the ending of chapter 3"), as kept, or as already
 * done ("第3章改好了") is not a target. The file the author has open counts as named when the
 * message points at it ("delete this", "重写它") or gives a bare order ("删掉").
 * When in doubt the answer is no: the agent then asks the author. Pure module.
 */
import { findUnitRefs, halfWidthDigits, unitOfTitle } from './numerals';

export type AuthorAction = 'delete' | 'rewrite';

/** What the author said, as a tool sees it. */
export interface AuthorScope {
  message: string;
  /** The file open in the author's editor when they sent the message. */
  focusFileId?: string | null;
}

type VerbKind = AuthorAction | 'keep' | 'other';
interface Verb {
  kind: VerbKind;
  start: number;
  end: number;
}
interface Clause {
  text: string;
  /** The separator that came before this clause ('' for the first). */
  sep: string;
}

// Longest alternatives first: "重写" must win over "写", "删除" over "删".
const VERB_RE = new RegExp(
  [
    String.raw`(?<rewrite>\b(?:rewrite|re-write|overwrite|redo|start over|write (?:it|them) again|from scratch)\b|整份重写|全部重写|推翻重写|重新写|重写|覆盖|推翻|重做|重来)`,
    String.raw`(?<delete>\b(?:delete|remove|erase|trash|discard|scrap|drop|get rid of)\b|删除|删掉|删了|删去|删|去掉|移除|扔掉|清除)`,
    String.raw`(?<keep>\b(?:keep|leave|retain|preserve|spare|except|but not|other than|stays?)\b|保留|留着|留下|别动|不动|别碰|除了|除)`,
    String.raw`(?<other>\b(?:write|edit|polish|revise|fix|improve|tighten|review|read|check|look at|expand|shorten|continue|change|tweak)\b|续写|扩写|缩写|修改|润色|优化|检查|写|改|看|读|审)`,
  ].join('|'),
  'giu',
);
/** A negation right before a verb turns it into "keep" ("don't delete", "不要删"). */
const NEGATION_BEFORE = /(?:\b(?:don'?t|do not|never|not|no need to|without)\s+(?:\w+\s+)?|不要|不用|不必|不需要|无需|别|勿|不)\s*$/iu;
/** A negation right before the file reference ("not chapter 3", "不包括第3章"). */
const NEGATED_REF = /(?:\b(?:not|never|no)\s+(?:the\s+)?|不包括|不含|不是|不要|别)\s*$/iu;
/** The file is the model to follow, not the target. */
const REFERENCE_BEFORE =
  /(?:\b(?:like|as in|per|based on|according to|consistent with|in line with|in keeping with|match(?:es|ing)?|follow(?:s|ing)?|the style of|modell?ed on|using|use|from|after|than|similar to|same as|with)\s+(?:the\s+)?|以|按|按照|参考|参照|依照|根据|仿照|对照|照着|比照|借鉴|像|用)\s*$/iu;
const REFERENCE_AFTER = /^(?:\s*(?:为准|为参考|为标准|为蓝本|为范本|为例|那样|一样|的风格|的写法|的语气|的文风)|'s\s+(?:style|tone|voice|pacing)|\s+as (?:the |a )?(?:reference|model|template|baseline|guide))/iu;
/** "和第3章保持统一": 和/跟/与/同 make a reference only before a word of agreement. */
const AGREE_BEFORE = /(?:和|跟|与|同)\s*$/u;
const AGREE_AFTER = /^\s*(?:的)?\s*(?:保持|一致|统一|一样|相同|类似|对齐|呼应|衔接|接上)/u;
/** The file is where something changes, not what is deleted ("the ending of chapter 3", "第3章的结尾"). */
const LOCATION_BEFORE = /\b(?:(?<!\brid )of|from|in|inside|within)\s+(?:the\s+)?$/iu;
const LOCATION_AFTER = /^\s*(?:里|中|的(?!文件))/u;
/** The clause reports work as done: what it names is not a target ("第3章改好了", "chapter 3 is done"). */
const DONE = /好了|完了|已经(?!有)|已(?![经有])|写完|改完|\b(?:done|finished|already|i've|i have|i rewrote|i deleted|i removed)\b/iu;
/** Pointing at the open file. */
const DEICTIC = /\b(?:this|it|that|current)\b|这|它|此|本章|本文|当前/iu;
/** Words that carry no object: a clause made only of these and verbs is a bare order. */
const FILLER = /\b(?:please|pls|just|the|file|for me|now|then|and|can you|could you|go ahead and)\b|请|帮我|麻烦|给我|把|吧|了|掉|一下|吗|呢|啊/giu;
const CLAUSE_SEP = /([,，、;；。!！?？\n]|(?<!\b(?:ch|chs|ep|eps|vol))\.(?!\d)|\b(?:but|since|because|so|while|although|though|however|after that)\b|但是|但|因为|所以|然后|不过|而且|之后|以后|同时)/iu;
/** Only a list separator lets a verbless clause borrow its neighbour's verb ("delete chapter 3, chapter 4"). */
const LIST_SEPS = [',', '，', '、'];

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Splits a message into clauses, remembering the separator in front of each. */
export function splitClauses(message: string): Clause[] {
  const parts = halfWidthDigits(message).split(new RegExp(CLAUSE_SEP.source, 'giu'));
  const out: Clause[] = [];
  let sep = '';
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 1) {
      sep = parts[i]!;
      continue;
    }
    if (parts[i]!.trim()) out.push({ text: parts[i]!, sep });
  }
  return out;
}

function verbsIn(clause: string): Verb[] {
  const out: Verb[] = [];
  for (const m of clause.matchAll(VERB_RE)) {
    const g = m.groups!;
    let kind: VerbKind = g.rewrite ? 'rewrite' : g.delete ? 'delete' : g.keep ? 'keep' : 'other';
    if ((kind === 'delete' || kind === 'rewrite') && NEGATION_BEFORE.test(clause.slice(0, m.index))) kind = 'keep';
    out.push({ kind, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Where a clause names the file: its unit ("第十章" for "Chapter 10") or its whole title. */
function nameSpans(clause: string, title: string): { start: number; end: number }[] {
  const unit = unitOfTitle(title);
  if (unit)
    return findUnitRefs(clause)
      .filter((r) => r.kind === unit.kind && r.from <= unit.n && unit.n <= r.to)
      .map((r) => ({ start: r.start, end: r.end }));
  const t = title.trim();
  if (!t) return [];
  const re = new RegExp(`(?<![A-Za-z0-9])${escapeRegex(t)}(?![A-Za-z0-9])`, 'giu');
  return [...clause.matchAll(re)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/** Whether the text around a name makes the file something other than the object. */
function notAnObject(before: string, after: string): boolean {
  if (REFERENCE_BEFORE.test(before) || REFERENCE_AFTER.test(after)) return true;
  if (AGREE_BEFORE.test(before) && AGREE_AFTER.test(after)) return true;
  if (LOCATION_BEFORE.test(before) || LOCATION_AFTER.test(after)) return true;
  return NEGATED_REF.test(before);
}

/** A clause that names nothing and says only "delete" / "重写吧". */
function isBareOrder(clause: string, verbs: Verb[]): boolean {
  let rest = clause;
  for (const v of [...verbs].reverse()) rest = rest.slice(0, v.start) + ' ' + rest.slice(v.end);
  return !/[\p{L}\p{N}]/u.test(rest.replace(FILLER, ' '));
}

/**
 * The verb that governs a name at [start, end) of clause `i`: the nearest one before it in
 * the clause, else the first after it, else a list neighbour's.
 */
function governingVerb(clauses: Clause[], verbs: Verb[][], i: number, start: number, end: number): VerbKind | null {
  const own = verbs[i]!;
  const before = own.filter((v) => v.end <= start);
  if (before.length) return before[before.length - 1]!.kind;
  const after = own.find((v) => v.start >= end);
  if (after) return after.kind;
  if (own.length) return null;
  for (let j = i; j > 0 && LIST_SEPS.includes(clauses[j]!.sep); j--) {
    const prev = verbs[j - 1]!;
    if (prev.length) return prev[prev.length - 1]!.kind;
  }
  const next = clauses[i + 1];
  if (next && LIST_SEPS.includes(next.sep) && verbs[i + 1]!.length && findUnitRefs(next.text).length === 0) return verbs[i + 1]![0]!.kind;
  return null;
}

/**
 * Whether the author, in this turn's message, named this file and asked for this action
 * on it. Any clause that keeps it (or negates the action) wins over one that asks.
 */
export function authorAskedFor(scope: AuthorScope, file: { id: string; title: string }, action: AuthorAction): boolean {
  const clauses = splitClauses(scope.message);
  const verbs = clauses.map((c) => verbsIn(c.text));
  const isFocus = !!scope.focusFileId && scope.focusFileId === file.id;
  const kinds: VerbKind[] = [];
  clauses.forEach((c, i) => {
    if (DONE.test(c.text)) return;
    const spans = nameSpans(c.text, file.title);
    if (isFocus && spans.length === 0 && findUnitRefs(c.text).length === 0) {
      const deictic = DEICTIC.exec(c.text);
      if (deictic) spans.push({ start: deictic.index, end: deictic.index + deictic[0].length });
      else if (isBareOrder(c.text, verbs[i]!)) spans.push({ start: c.text.length, end: c.text.length });
    }
    for (const s of spans) {
      if (notAnObject(c.text.slice(0, s.start), c.text.slice(s.end))) continue;
      const kind = governingVerb(clauses, verbs, i, s.start, s.end);
      if (kind) kinds.push(kind);
    }
  });
  return kinds.includes(action) && !kinds.includes('keep');
}
