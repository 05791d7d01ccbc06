/**
 * The layout's size promise: no function in src/ is longer than 80 lines, so each one can be
 * read on one screen; a longer one gets a shape (named steps), not a trim. Measured on the TypeScript syntax tree (declarations, methods,
 * arrows and function expressions), from the first to the last line of the node.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const SRC = path.resolve(__dirname, '../../src');
/** Measured on the code as Prettier formats it (width 120). */
const MAX_LINES = 80;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

function longFunctions(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_LINES) found.push(`${path.relative(SRC, file)}:${first + 1} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('function length in src/', () => {
  it('finds the functions it measures (a function one line over the cap is reported)', () => {
    const tmp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fnlen-')), 'long.ts');
    fs.writeFileSync(tmp, `export const f = () => {\n${'  void 0;\n'.repeat(MAX_LINES - 1)}};\n`);
    expect(longFunctions(tmp)).toHaveLength(1);
  });

  it(`has no function over ${MAX_LINES} lines`, () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap(longFunctions)).toEqual([]);
  });
});
