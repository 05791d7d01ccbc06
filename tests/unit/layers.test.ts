/**
 * The layout's promises, checked on the import graph:
 * - determinism lives in src/workflows and src/core: the workflow bundle reaches no other
 *   folder (the ESLint determinism rule covers exactly these two);
 * - layers import only downward: core ← workflows and activities ← api and worker;
 *   db below the api and the activities; the API imports no activity code; observability
 *   (metrics, tracing, the activity interceptor) sits below the activities, the API and the
 *   workflows and imports none of them; every folder of src/ has its rule;
 * - no folder of src/ holds more than 25 files at its top level: more are grouped in rooms;
 * - no import cycles, type-only imports included (a circle of types still ties the modules together).
 */
import fs from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '../../src');
const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:([^;]*?)\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

interface Edge {
  to: string;
  typeOnly: boolean;
}

function resolve(from: string, spec: string): string | null {
  const p = path.resolve(path.dirname(from), spec);
  for (const c of [`${p}.ts`, path.join(p, 'index.ts'), p]) if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  return null;
}

const cache = new Map<string, Edge[]>();
function edgesOf(file: string): Edge[] {
  let edges = cache.get(file);
  if (edges) return edges;
  edges = [];
  const text = fs.readFileSync(file, 'utf8');
  for (const m of text.matchAll(IMPORT)) {
    const to = resolve(file, m[4]!);
    if (!to) continue;
    // `import type {…}`, or every name imported as `type X`: erased from the JavaScript.
    const names = m[3]?.trim() ?? '';
    const allTypes =
      /^\{[\s\S]*\}$/.test(names) &&
      names
        .slice(1, -1)
        .split(',')
        .every((n) => !n.trim() || /^type\s/.test(n.trim()));
    edges.push({ to, typeOnly: !!m[2] || allTypes });
  }
  cache.set(file, edges);
  return edges;
}

const rel = (f: string): string => path.relative(SRC, f);
const layerOf = (f: string): string => rel(f).split(path.sep)[0]!.replace(/\.ts$/, '');

function allFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? allFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}

test('the workflow bundle reaches only src/workflows and src/core', () => {
  const seen = new Set<string>();
  const queue = [path.join(SRC, 'workflows/index.ts')];
  while (queue.length) {
    const f = queue.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const e of edgesOf(f)) if (!e.typeOnly) queue.push(e.to);
  }
  const outside = [...seen].map(rel).filter((f) => !/^(workflows|core)\//.test(f));
  expect(outside).toEqual([]);
  expect([...seen].map(rel)).toEqual(
    expect.arrayContaining(['workflows/turn.ts', 'core/words/routing.ts', 'core/events.ts']),
  );
});

/**
 * Which top-level folders (or entry files) each folder of src/ may import from, types included.
 * The entry files at src/'s top level (main.ts, worker.ts, runtime.ts, config.ts…) wire the
 * layers together and are not listed.
 */
const MAY_IMPORT: Record<string, string[]> = {
  core: ['core'],
  workflows: ['core', 'workflows', 'activities' /* types only, checked below */],
  db: ['core', 'db', 'shared', 'config'],
  streams: ['core', 'streams'],
  shared: ['core', 'shared'],
  agents: ['core', 'agents'],
  skills: ['core', 'skills', 'db', 'config'],
  // Below the activities, the API and the workflows: it observes them, they import it.
  observability: ['core', 'observability', 'db', 'shared', 'config'],
  'offline-model': ['core', 'offline-model', 'shared'],
  cli: ['core', 'cli'],
  scripts: ['scripts', 'bundling'],
  activities: [
    'core',
    'activities',
    'db',
    'shared',
    'skills',
    'observability',
    'agents',
    'streams',
    'config',
    'logger',
    'workflow-liveness',
  ],
  api: [
    'core',
    'api',
    'db',
    'shared',
    'skills',
    'observability',
    'streams',
    'config',
    'logger',
    'workflow-liveness',
    'build-identity' /* /health names the build */,
    'workflows' /* types only */,
  ],
};

test('every folder of src/ has a rule', () => {
  const folders = fs
    .readdirSync(SRC, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  expect(folders.filter((f) => !MAY_IMPORT[f])).toEqual([]);
  expect(folders).toEqual(expect.arrayContaining(['observability', 'activities', 'core']));
});

test('no folder of src/ holds more than 25 files at its top level', () => {
  const crowded: string[] = [];
  const visit = (dir: string): void => {
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    const files = entries.filter((e) => e.isFile()).length;
    if (files > 25) crowded.push(`src/${rel(dir)} (${files})`);
    for (const e of entries) if (e.isDirectory()) visit(path.join(dir, e.name));
  };
  visit(SRC);
  expect(crowded).toEqual([]);
});

test('layers import only downward, and the API and observability import no activity code', () => {
  const violations: string[] = [];
  for (const f of allFiles(SRC)) {
    const allowed = MAY_IMPORT[layerOf(f)];
    if (!allowed) continue;
    for (const e of edgesOf(f)) {
      const to = layerOf(e.to);
      const typesOnlyLayer =
        (layerOf(f) === 'workflows' && to === 'activities') || (layerOf(f) === 'api' && to === 'workflows');
      if (!allowed.includes(to) || (typesOnlyLayer && !e.typeOnly)) violations.push(`${rel(f)} → ${rel(e.to)}`);
    }
  }
  expect(violations).toEqual([]);
});

test('no import cycles, type-only imports included', () => {
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (f: string, stack: string[]): void => {
    if (state.get(f) === 'done') return;
    if (state.get(f) === 'open') {
      cycles.push([...stack.slice(stack.indexOf(f)), f].map(rel).join(' → '));
      return;
    }
    state.set(f, 'open');
    for (const e of edgesOf(f)) visit(e.to, [...stack, f]);
    state.set(f, 'done');
  };
  for (const f of allFiles(SRC)) visit(f, []);
  expect(cycles).toEqual([]);
});
