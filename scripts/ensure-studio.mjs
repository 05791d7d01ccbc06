// Builds Studio (studio/ → studio/dist) when the build is missing or older than any of its
// sources, so `npm start` serves /studio with nothing else to run. Quick when up to date.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const studio = path.join(root, 'studio');
const stamp = path.join(studio, 'dist', 'index.html');

function newest(p) {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((f) => newest(path.join(p, f))));
}

// Studio bundles the core's rules too (chapter numbers, word counts, verdicts): src/core is a source.
const sources = [
  ...['src', 'index.html', 'vite.config.mts', 'tsconfig.json'].map((f) => path.join(studio, f)),
  path.join(root, 'src/core'),
];
const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
const changed = Math.max(
  ...sources.filter((f) => fs.existsSync(f)).map(newest),
  fs.statSync(path.join(root, 'package-lock.json')).mtimeMs,
);
if (built < changed) {
  console.log(
    built ? '[studio] sources changed since the last build: building Studio' : '[studio] no build yet: building Studio',
  );
  execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      path.join(studio, 'vite.config.mts'),
      '--logLevel',
      'warn',
    ],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
