/**
 * The README and docs/ name files of the repository; a renamed or removed file leaves a path
 * that points nowhere. Every repository path they mention must exist, and the README stays a
 * first page (at most 150 lines) with the rest in docs/.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const DOCS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`)];
/** A path into one of the repository's folders: `src/core/words/orders.ts`, `scripts/services.sh`. */
const REPO_PATH = /(?<![\w./-])((?:src|scripts|tests|studio|bench|deploy|docs)\/[\w./@-]*\w)/g;

/**
 * A build output (`studio/dist`) is named in the docs but exists only after a build; git's
 * ignore list says which paths are outputs, so a clean clone does not read them as stale.
 */
function isBuildOutput(p: string): boolean {
  try {
    // Both spellings: a pattern such as `studio/dist/` matches a folder only when written as one.
    execFileSync('git', ['check-ignore', p, `${p}/`], { cwd: ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function pathsIn(doc: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
  return [...text.matchAll(REPO_PATH)].map((m) => m[1]);
}

describe('the README and docs/', () => {
  it.each(DOCS)('%s names only paths that exist', (doc) => {
    const missing = pathsIn(doc).filter((p) => !fs.existsSync(path.join(ROOT, p)) && !isBuildOutput(p));
    expect(missing).toEqual([]);
  });

  it('reads a stale path as missing', () => {
    expect('see `src/shared/author-scope.ts` and scripts/services.sh.'.match(REPO_PATH)).toEqual([
      'src/shared/author-scope.ts',
      'scripts/services.sh',
    ]);
  });

  it('does not take a build output for a stale path, nor a source file for an output', () => {
    expect(isBuildOutput('studio/dist')).toBe(true);
    expect(isBuildOutput('src/core/words/orders.ts')).toBe(false);
  });

  it('keeps the README to a first page', () => {
    const lines = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(150);
  });

  it('links every page of docs/ from the README', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    for (const doc of DOCS.filter((d) => d.startsWith('docs/'))) expect(readme).toContain(`(${doc})`);
  });
});
