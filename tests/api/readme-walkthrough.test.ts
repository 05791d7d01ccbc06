/**
 * The README's "Try a turn" walk-through, run as written against a live API: its
 * shell block creates a project, a session and a turn, extracting each id from the JSON
 * answer — with `jq`, and with `node` alone on a machine without `jq` — and streams the turn
 * to its end.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createHarness, type Harness } from '../helpers/harness';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

/** The README's shell block after "Try a turn", pointed at this test's API. */
function walkthrough(baseUrl: string): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = /Try a turn[\s\S]*?```bash\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README has no "Try a turn" bash block');
  return (
    block
      .replace(/^B=http:\/\/127\.0\.0\.1:3000\/api\/v1$/m, `B=${baseUrl}/api/v1`)
      // The Temporal CLI line lists the app's namespace; this test's turn is in the suite's.
      .replace(/^\.local\/bin\/temporal .*$/m, '')
      .concat('\necho "P=$P S=$S T=$T"\n')
  );
}

/** A PATH holding only what the walk-through needs besides `jq`. */
function pathWithoutJq(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'no-jq-'));
  for (const tool of ['curl', 'sed', 'cat']) {
    const found = ['/usr/bin', '/bin', '/usr/local/bin'].map((d) => path.join(d, tool)).find((p) => fs.existsSync(p));
    if (found) fs.symlinkSync(found, path.join(dir, tool));
  }
  fs.symlinkSync(process.execPath, path.join(dir, 'node'));
  return dir;
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

test.each([
  ['with jq', () => process.env.PATH ?? ''],
  ['without jq (node reads the JSON)', pathWithoutJq],
])(
  'the README walk-through runs as written, %s',
  async (_name, pathFor) => {
    const script = walkthrough(h.baseUrl);
    const { stdout } = await run('/bin/bash', ['-e', '-o', 'pipefail', '-c', script], {
      env: { PATH: pathFor(), HOME: os.tmpdir() },
      timeout: 90_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const ids = /P=([0-9a-f]{24}) S=([0-9a-f]{24}) T=([0-9a-f]{24})/.exec(stdout);
    expect(ids).not.toBeNull();
    // The stream the walk-through followed ran to the turn's end, and the turn is on record.
    expect(stdout).toMatch(/"type":"done"/);
    const turn = await h.runtime.models.Turn.findById(ids![3]).lean();
    expect(turn).toMatchObject({ sessionId: ids![2], projectId: ids![1], message: 'Write chapter 1' });
  },
  120_000,
);
