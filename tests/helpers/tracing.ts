/**
 * Tracing in Jest. OpenTelemetry's auto-instrumentation hooks Node's `require`, which Jest
 * bypasses with a module registry of its own: here the same patches are applied by hand to
 * the modules as this test file's registry loads them (the mechanism bundler plugins use,
 * through `getModuleDefinitions`). Production processes need none of this.
 */
import type { InstrumentationBase } from '@opentelemetry/instrumentation';

// semver ships no types here; it comes with the OpenTelemetry SDK.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const semver = require('semver') as { satisfies(v: string, range: string): boolean };

function versionOf(name: string): string {
  if (!name.includes('/') && ['http', 'https'].includes(name)) return process.versions.node;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(`${name}/package.json`) as { version: string }).version;
}

const fits = (version: string, ranges: string[]): boolean => ranges.some((r) => semver.satisfies(version, r));

export function patchJestModules(instrumentations: InstrumentationBase[]): void {
  for (const inst of instrumentations) {
    for (const def of inst.getModuleDefinitions()) {
      let version: string;
      try {
        version = versionOf(def.name);
      } catch {
        continue; // not installed (undici's definitions are diagnostics-channel based anyway)
      }
      if (!fits(version, def.supportedVersions)) continue;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      if (def.patch) def.moduleExports = def.patch(require(def.name), version);
      for (const file of def.files) {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        if (fits(version, file.supportedVersions)) file.patch(require(file.name), version);
      }
    }
  }
}
