/**
 * Which build this process is: the id a worker declares to Temporal's worker deployment, the
 * API's `/health` and both start-up banners show (worker-deployment.ts uses it).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config';
import { prebuiltBundlePath } from './bundling';

const ROOT = path.resolve(__dirname, '..');

/** `pinned` or `off`, with `auto` resolved (pinned in production). */
export function versioningMode(config: Pick<Config, 'WORKER_VERSIONING' | 'NODE_ENV'>): 'pinned' | 'off' {
  if (config.WORKER_VERSIONING !== 'auto') return config.WORKER_VERSIONING;
  return config.NODE_ENV === 'production' ? 'pinned' : 'off';
}

function packageVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/**
 * What tells this build's code from another's: the git commit where there is one (local runs,
 * CI), else a digest of the prebuilt workflow bundle (an image built without `.git`), so two
 * images of the same code share a build id and two of different code never do.
 */
function codeMark(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short=7', 'HEAD'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    })
      .toString()
      .trim();
  } catch {
    // No git here: the bundle's digest.
  }
  for (const traced of [false, true]) {
    const bundle = prebuiltBundlePath(traced);
    if (fs.existsSync(bundle)) return createHash('sha256').update(fs.readFileSync(bundle)).digest('hex').slice(0, 12);
  }
  return 'dev';
}

let defaultBuildId: string | undefined;

/** SCRIPTORIUM_BUILD_ID, or the package version and the code's mark (`0.1.0-3c208fd`). */
export function buildIdOf(config: Pick<Config, 'SCRIPTORIUM_BUILD_ID'>): string {
  if (config.SCRIPTORIUM_BUILD_ID) return config.SCRIPTORIUM_BUILD_ID;
  defaultBuildId ??= `${packageVersion()}-${codeMark()}`;
  return defaultBuildId;
}
