/**
 * EPUBCheck, the W3C's validator, on an exported book. scripts/epubcheck.sh fetches it from
 * Maven Central once; a machine without Java has no validator (null).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

/** EPUBCheck's classpath, provisioned by scripts/epubcheck.sh; null where there is no Java. */
export function epubcheckClasspath(): string | null {
  if (spawnSync('java', ['-version']).status !== 0) return null;
  return execFileSync('bash', [path.join(ROOT, 'scripts/epubcheck.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 300_000,
  }).trim();
}

/** EPUBCheck's verdict on one file: its exit status and whether it found nothing at all. */
export function epubcheck(cp: string, file: string): { status: number | null; clean: boolean; out: string } {
  const run = spawnSync('java', ['-cp', cp, 'com.adobe.epubcheck.tool.Checker', file], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  const out = `${run.stdout}${run.stderr}`;
  return { status: run.status, clean: out.includes('No errors or warnings detected'), out };
}
