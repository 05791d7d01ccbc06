/**
 * The README and docs/ name files of the repository; a renamed or removed file leaves a path
 * that points nowhere. Every repository path they mention must exist, and the README stays a
 * first page (at most 150 lines) with the rest in docs/.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const DOCS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`)];
/** A path into one of the repository's folders: `src/core/words/orders.ts`, `scripts/services.sh`. */
const REPO_PATH = /(?<![\w./-])((?:src|scripts|tests|studio|bench|deploy|docs)\/[\w./@-]*\w)/g;

function pathsIn(doc: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
  return [...text.matchAll(REPO_PATH)].map((m) => m[1]);
}

describe('the README and docs/', () => {
  it.each(DOCS)('%s names only paths that exist', (doc) => {
    const missing = pathsIn(doc).filter((p) => !fs.existsSync(path.join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  it('reads a stale path as missing', () => {
    expect('see `src/shared/author-scope.ts` and scripts/services.sh.'.match(REPO_PATH)).toEqual([
      'src/shared/author-scope.ts',
      'scripts/services.sh',
    ]);
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
