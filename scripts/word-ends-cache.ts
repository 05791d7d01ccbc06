/**
 * `npm run fixtures:word-ends`: where jieba ends each Chinese word of every message the unit
 * tests read (the intent corpus, its held-out batches, and the Chinese string literals of
 * tests/unit), written to tests/fixtures/intent/word-ends.json. The unit tests replay these cuts
 * (as a turn's workflow replays the ones its preparation recorded) instead of loading jieba's
 * dictionary in every test file, which a mutation run pays once per mutant.
 * tests/conformance/word-ends-cache.test.ts fails when the file no longer matches jieba.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { authorWordEnds } from '../src/activities/reading/segmenter';

const ROOT = path.resolve(__dirname, '..');
export const WORD_ENDS_FILE = path.join(ROOT, 'tests/fixtures/intent/word-ends.json');
const HAN = /\p{Script=Han}/u;

/** Every message with Chinese in it that the unit tests read. */
export function messagesToCut(): string[] {
  const out = new Set<string>();
  const corpora = [
    path.join(ROOT, 'tests/fixtures/intent/corpus.json'),
    ...listJson(path.join(ROOT, 'tests/fixtures/intent/batches')),
  ];
  for (const file of corpora) {
    const c = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, { msg?: string }[] | unknown>;
    for (const part of Object.values(c))
      if (Array.isArray(part))
        for (const item of part)
          if (item && typeof item === 'object' && 'msg' in item && typeof item.msg === 'string') out.add(item.msg);
  }
  // The string literals of the unit tests, as TypeScript reads them (comments and apostrophes aside).
  for (const file of listTs(path.join(ROOT, 'tests/unit'))) {
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.add(node.text);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return [...out].filter((m) => HAN.test(m)).sort();
}

function listJson(dir: string): string[] {
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => path.join(dir, f))
    : [];
}
function listTs(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
}

/** The cuts of every message, as jieba makes them now. */
export function wordEndsOf(messages: string[]): Record<string, number[]> {
  return Object.fromEntries(messages.map((m) => [m, authorWordEnds(m)]));
}

if (require.main === module) {
  const cuts = wordEndsOf(messagesToCut());
  fs.writeFileSync(WORD_ENDS_FILE, `${JSON.stringify(cuts)}\n`);
  console.log(`[word-ends] ${Object.keys(cuts).length} messages → ${path.relative(ROOT, WORD_ENDS_FILE)}`);
}
