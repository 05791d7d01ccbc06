/**
 * `.env.example` is generated from the zod config schema and must not drift from it: a
 * key added to src/config.ts without rerunning `npm run env:example` fails here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configSchema, loadConfig } from '../../src/config';
import { renderEnvExample } from '../../scripts/env-example';

const FILE = path.resolve(__dirname, '../../.env.example');

test('.env.example is exactly what `npm run env:example` generates from the config schema', () => {
  const onDisk = fs.existsSync(FILE) ? fs.readFileSync(FILE, 'utf8') : '(missing)';
  // On failure: run `npm run env:example` and commit the file.
  expect(onDisk).toBe(renderEnvExample());
});

test('it lists every setting once, and its values, uncommented, are the defaults', () => {
  const text = renderEnvExample();
  const keys = [...text.matchAll(/^# ([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
  expect(keys).toEqual(['SCRIPTORIUM_ENV_PRIORITY', ...Object.keys(configSchema.shape)]);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-env-example-'));
  fs.writeFileSync(path.join(dir, '.env'), text.replace(/^# ([A-Z][A-Z0-9_]*=)/gm, '$1'));
  const { meta: _a, ...fromExample } = loadConfig({ cwd: dir, env: {} });
  const { meta: _b, ...defaults } = loadConfig({ env: { SCRIPTORIUM_ENV_PRIORITY: 'none' } });
  expect(fromExample).toEqual(defaults);
});

test('every comment line says something: no leftovers of the source comments’ syntax', () => {
  const comments = renderEnvExample()
    .split('\n')
    // A lone `#` is the header's paragraph break.
    .filter((l) => l.startsWith('#') && l !== '#' && !/^# [A-Z][A-Z0-9_]*=/.test(l));
  expect(comments.length).toBeGreaterThan(20);
  // A comment's closing `*/` on a line of its own once came out as `# /`.
  expect(comments.filter((l) => !/[\p{L}\p{N}]/u.test(l))).toEqual([]);
});
