/**
 * Closing the task board at the end of an author's turn: in-progress tasks close only from
 * files this request actually wrote that still exist with body text. A range task ("第2-5集",
 * "chapters 2–5") is done only when every unit has a file; until then it records `doneUnits`
 * and `progress`, and units whose files were deleted drop out.
 *
 * Pure module. Unit numbers come from the shared numeral parser (src/core/words/numerals.ts).
 */
import { findUnitRefs } from '../words/numerals';

/** The largest range a title may name: "chapters 1-100000" is a typo, not a task. */
const MAX_RANGE = 1000;

/**
 * The chapter/episode units a title names (the shared numeral parser: "第二到五章",
 * "第2-5集", "chapters 2–5", "Chapter 3"): every unit of each range, else null.
 */
export function titleUnits(title: string): number[] | null {
  const units = new Set<number>();
  for (const r of findUnitRefs(title)) {
    if (r.to - r.from >= MAX_RANGE) continue;
    for (let n = r.from; n <= r.to; n++) units.add(n);
  }
  return units.size ? [...units].sort((x, y) => x - y) : null;
}

export interface BoardTask {
  id: string;
  title: string;
  status?: string | null;
  artifact?: string | null;
  doneUnits?: number[] | null;
  progress?: string | null;
}

export interface BoardFile {
  title: string;
  /** Body files (draft / script) carry units; any file can be a task's artifact. */
  body: boolean;
}

export interface BoardFacts {
  /** Files this request wrote that still exist with body text. */
  written: BoardFile[];
  /** Units of every live body file with text in the project (written now or before). */
  liveUnits: ReadonlySet<number>;
}

const same = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();
const sortedUnique = (ns: number[]): number[] => [...new Set(ns)].sort((a, b) => a - b);

/** "2/4 written: 2, 3" */
export const progressText = (done: number[], total: number): string =>
  `${done.length}/${total} written${done.length ? `: ${done.join(', ')}` : ''}`;

/** One in-progress task after this turn's writes, or the same object when nothing changes. */
function finalizeTask<T extends BoardTask>(t: T, facts: BoardFacts, writtenUnits: ReadonlySet<number>): T {
  if (t.status !== 'in_progress') return t;
  if (t.artifact) return facts.written.some((f) => same(f.title, t.artifact!)) ? { ...t, status: 'done' } : t;
  const units = titleUnits(t.title);
  if (!units) {
    // No units, no artifact: only a file this turn wrote under the task's own name closes it.
    const named = facts.written.some(
      (f) =>
        f.title.trim().length >= 2 &&
        (same(f.title, t.title) || t.title.toLowerCase().includes(f.title.trim().toLowerCase())),
    );
    return named ? { ...t, status: 'done' } : t;
  }
  const kept = (t.doneUnits ?? []).filter((u) => units.includes(u) && facts.liveUnits.has(u));
  const done = sortedUnique([...kept, ...units.filter((u) => writtenUnits.has(u))]);
  const before = sortedUnique(t.doneUnits ?? []);
  if (done.length === units.length)
    return { ...t, status: 'done', doneUnits: done, progress: progressText(done, units.length) };
  if (done.length === before.length && done.every((u, i) => u === before[i])) return t;
  return { ...t, doneUnits: done, progress: progressText(done, units.length) };
}

/**
 * The board after an author's turn, and whether anything changed. Tasks that are not in
 * progress are left as they are.
 */
export function finalizeBoard<T extends BoardTask>(
  tasks: readonly T[],
  facts: BoardFacts,
): { tasks: T[]; changed: boolean } {
  const writtenUnits = new Set(facts.written.filter((f) => f.body).flatMap((f) => titleUnits(f.title) ?? []));
  const next = tasks.map((t) => finalizeTask(t, facts, writtenUnits));
  return { tasks: next, changed: next.some((t, i) => t !== tasks[i]) };
}

/** Units of a range task marked done that have no live body file: the model's claim is unverified. */
export function missingUnits(title: string, liveUnits: ReadonlySet<number>): number[] {
  return (titleUnits(title) ?? []).filter((u) => !liveUnits.has(u));
}
