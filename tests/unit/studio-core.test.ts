/**
 * Studio takes its rules from the core (chapter numbers, word counts, the reviewer's verdict,
 * the stream contract) instead of keeping copies, and what it takes must run in a browser:
 * every module of src/ that Studio's code reaches at run time is in src/core, imports no Node
 * built-in and nothing outside the core but zod, and together they stay small.
 */
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';

const ROOT = path.resolve(__dirname, '../..');
const STUDIO = path.join(ROOT, 'studio/src');
const CORE = path.join(ROOT, 'src/core');
const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:([^;]*?)\s+from\s+)?['"]([^'"]+)['"]/g;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Imports that reach the JavaScript (not `import type`, nor only `type` names). */
function runtimeImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const names = m[3]?.trim() ?? '';
    const allTypes =
      /^\{[\s\S]*\}$/.test(names) &&
      names
        .slice(1, -1)
        .split(',')
        .every((n) => !n.trim() || /^type\s/.test(n.trim()));
    if (!m[2] && !allTypes) out.push(m[4]!);
  }
  return out;
}

function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const p = path.resolve(path.dirname(from), spec);
  for (const c of [`${p}.ts`, `${p}.tsx`, path.join(p, 'index.ts'), p])
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  return null;
}

test('Studio reaches only Node-free core modules of src/, and they stay small', () => {
  const reached = new Set<string>();
  const queue = filesUnder(STUDIO).flatMap((f) =>
    runtimeImports(f)
      .map((s) => resolve(f, s))
      .filter((p): p is string => !!p && !p.startsWith(STUDIO)),
  );
  const problems: string[] = [];
  while (queue.length) {
    const f = queue.pop()!;
    if (reached.has(f)) continue;
    reached.add(f);
    if (!f.startsWith(CORE + path.sep)) problems.push(`${path.relative(ROOT, f)} is outside src/core`);
    for (const spec of runtimeImports(f)) {
      const target = resolve(f, spec);
      if (target) queue.push(target);
      else if (spec !== 'zod')
        problems.push(
          `${path.relative(ROOT, f)} imports ${spec}${builtinModules.includes(spec.replace(/^node:/, '')) ? ' (a Node built-in)' : ''}`,
        );
    }
  }
  expect(problems).toEqual([]);
  // The core's own rules, not a copy: these are what Studio's tree, editor and verdict badge use.
  expect([...reached].map((f) => path.relative(ROOT, f)).sort()).toEqual(
    expect.arrayContaining(['src/core/words/numerals.ts', 'src/core/text.ts', 'src/core/verdict.ts']),
  );
  // Source bytes, comments included (the bundle is minified): the turn fold, the job task and the
  // author-facing words came in with the record and the job screens; a whole activity would not fit.
  const bytes = [...reached].reduce((n, f) => n + fs.statSync(f).size, 0);
  expect(bytes).toBeLessThan(96 * 1024);
});

test('Studio keeps no copy of the word counter, the chapter-number parser or the verdict parser', () => {
  const copies = filesUnder(STUDIO).filter((f) =>
    /function (countWords|chapterNumber|verdictOf|parseVerdict)\b|\/verdict\\s\*\[:：\]/.test(
      fs.readFileSync(f, 'utf8'),
    ),
  );
  expect(copies.map((f) => path.relative(ROOT, f))).toEqual([]);
});
