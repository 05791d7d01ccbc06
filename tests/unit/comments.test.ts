/**
 * Comments stand alone: a comment in src/ or studio/src/ says what the code does and why in
 * its own words, and never sends the reader to a document the repository does not hold — an
 * issue number ("issue 32", "(#12)") or the design documents ("SPEC §4", "seed 001"). Such a
 * citation tells a reader nothing, and it goes stale when the documents move on. Only comment
 * lines are read (a line whose trimmed text starts with `//`, `/*` or `*`), so code and
 * strings may use these words freely.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const DIRS = ['src', 'studio/src'];
/** Generated from the API's OpenAPI document: its comments are not written here. */
const SKIP = [path.join(ROOT, 'studio/src/generated')];

const CITATIONS: RegExp[] = [/\bissues? #?\d+/i, /\(#\d+\)/, /\bSPEC\b/, /\bseeds? ?0\d\d\b/i];

/** A comment line that cites an issue or a design document. */
function citesOutside(line: string): boolean {
  const t = line.trim();
  if (!t.startsWith('//') && !t.startsWith('/*') && !t.startsWith('*')) return false;
  return CITATIONS.some((re) => re.test(t));
}

function sourceFiles(dir: string): string[] {
  if (SKIP.includes(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

function citations(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => (citesOutside(line) ? [`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : []));
}

describe('comments cite no document outside the repository', () => {
  it('finds a citation in a comment line and ignores clean lines and code', () => {
    expect(citesOutside('  // Resumes from the partial text (issue 32).')).toBe(true);
    expect(citesOutside(' * Fixed in (#12).')).toBe(true);
    expect(citesOutside(' * The turn workflow, top to bottom (SPEC §4): announce')).toBe(true);
    expect(citesOutside('/** Run control from chat (seed 004 L1). */')).toBe(true);
    expect(citesOutside(' * Seeds 000/001 describe the router.')).toBe(true);
    expect(citesOutside('  // Resumes from the partial text.')).toBe(false);
    expect(citesOutside(' * Each issued token verifies for its own resource; a seeded book.')).toBe(false);
    expect(citesOutside("  const note = 'issue 32';")).toBe(false);
  });

  it('has no comment line in src/ or studio/src/ citing an issue number or the design documents', () => {
    const files = DIRS.flatMap((d) => sourceFiles(path.join(ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(citations)).toEqual([]);
  });
});
