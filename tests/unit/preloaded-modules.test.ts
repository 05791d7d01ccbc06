/**
 * The workflow modules every turn shares (PRELOADED_WORKFLOW_MODULES, src/bundling.ts): Temporal
 * evaluates them once per worker and deep-freezes their exports. Each must import nothing of
 * `@temporalio/*`, export no global or sticky regex (a frozen one throws on its next use), and
 * read the author's words the same with its exports frozen, and whatever it read before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PRELOADED_WORKFLOW_MODULES } from '../../src/bundling';
import { type Corpus, corpusSchema, type EvalResult, evaluateCorpus } from '../../scripts/intent-eval';
import { read } from './read';

const corpus = corpusSchema.parse(
  JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/intent/corpus.json'), 'utf8')),
);

/** The source file a relative import names. */
function resolveImport(from: string, spec: string): string {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f)) ?? base;
}

/** Every module a file and its own imports load at run time (type-only imports left out). */
function runtimeImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = fs.readFileSync(file, 'utf8');
  for (const m of source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+'([^']+)';/gms)) {
    const spec = m[1]!;
    if (spec.startsWith('.')) runtimeImports(resolveImport(file, spec), seen);
    else seen.add(spec);
  }
  return seen;
}

/** What Temporal does to a shared module's exports (reusable-vm.js `deepFreeze`). */
function deepFreeze(value: unknown, visited = new WeakSet<object>()): void {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return;
  if (visited.has(value) || Object.isFrozen(value)) return;
  visited.add(value);
  if (typeof value === 'object')
    for (const key of Reflect.ownKeys(value)) {
      try {
        deepFreeze((value as Record<PropertyKey, unknown>)[key], visited);
      } catch {
        // As in Temporal: some objects cannot be frozen (typed arrays).
      }
    }
  Object.freeze(value);
}

/** Regexes reachable from an export that every use writes to (global or sticky). */
function writtenRegexes(value: unknown, at: string, visited = new WeakSet<object>()): string[] {
  if (value === null || typeof value !== 'object') return [];
  if (visited.has(value)) return [];
  visited.add(value);
  if (value instanceof RegExp) return value.global || value.sticky ? [`${at} = ${String(value)}`] : [];
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return entries.flatMap(([k, v]) => writtenRegexes(v, `${at}.${String(k)}`, visited));
}

/** A corpus run as comparable data: the totals and the failures in a fixed order. */
function outcome(result: EvalResult) {
  return {
    passed: result.passed,
    failed: result.failed,
    falseAuthorisations: result.falseAuthorisations,
    asking: result.asking,
    failures: result.failures.map((f) => `${f.category} ${f.detail}`).sort(),
  };
}

/** The same cases, each part in the opposite order. */
function reversed(c: Corpus): Corpus {
  const out = { ...c } as Record<string, unknown>;
  for (const [k, v] of Object.entries(c)) if (Array.isArray(v) && !k.startsWith('files_')) out[k] = [...v].reverse();
  return out as Corpus;
}

test('no shared module loads @temporalio/* (the SDK would be shared and frozen with it)', () => {
  for (const file of PRELOADED_WORKFLOW_MODULES)
    expect([...runtimeImports(file)].filter((m) => m.startsWith('@temporalio/'))).toEqual([]);
});

test('no shared module exports a global or sticky regex', () => {
  const found = PRELOADED_WORKFLOW_MODULES.flatMap((file) =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    writtenRegexes(require(file) as unknown, path.basename(file)),
  );
  expect(found).toEqual([]);
});

test('the rules read the corpus the same with the shared exports frozen, and in any order', () => {
  const before = outcome(evaluateCorpus(corpus, read));
  expect(before.passed).toBeGreaterThan(1000);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  for (const file of PRELOADED_WORKFLOW_MODULES) deepFreeze(require(file));
  expect(outcome(evaluateCorpus(corpus, read))).toEqual(before);
  expect(outcome(evaluateCorpus(reversed(corpus), read))).toEqual(before);
});
