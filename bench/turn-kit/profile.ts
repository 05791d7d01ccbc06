/**
 * Reads a V8 `.cpuprofile` (node --cpu-prof) and lists where the time went: top frames by
 * self time, and self time by module (a package under node_modules, a file of ours, or
 * node internals), so the worker's hot spots under load read at a glance.
 *
 *   npx tsx bench/turn-kit/profile.ts <file.cpuprofile> [top]
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

function moduleOf(url: string): string {
  if (!url) return '(native / idle / gc)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  const ours = /\/(src|bench|tests)\/(.*)$/.exec(url);
  if (ours) return `${ours[1]}/${ours[2]}`;
  if (url.startsWith('node:')) return 'node internals';
  return url.replace(/^file:\/\//, '');
}

export interface ProfileSummary {
  totalMs: number;
  frames: { name: string; ms: number; pct: number }[];
  modules: { name: string; ms: number; pct: number }[];
}

export function summarize(file: string, top = 20): ProfileSummary {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const frames = new Map<string, number>();
  const modules = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    const f = n.callFrame;
    total += ms;
    const short = f.url
      .replace(/^.*node_modules\//, '')
      .replace(/^.*\/(src|bench|tests)\//, '$1/')
      .replace(/^file:\/\//, '');
    const name = `${f.functionName || '(anonymous)'} ${short ? `${short}:${f.lineNumber + 1}` : ''}`.trim();
    frames.set(name, (frames.get(name) ?? 0) + ms);
    const mod = moduleOf(f.url);
    modules.set(mod, (modules.get(mod) ?? 0) + ms);
  }
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms, pct: (ms / total) * 100 }));
  return { totalMs: total, frames: rank(frames), modules: rank(modules) };
}

export function printSummary(s: ProfileSummary): void {
  console.log(`profile: ${(s.totalMs / 1000).toFixed(1)} s sampled`);
  console.log('top frames by self time:');
  for (const f of s.frames)
    console.log(`  ${f.ms.toFixed(0).padStart(7)} ms ${f.pct.toFixed(1).padStart(5)} %  ${f.name}`);
  console.log('self time by module:');
  for (const m of s.modules)
    console.log(`  ${m.ms.toFixed(0).padStart(7)} ms ${m.pct.toFixed(1).padStart(5)} %  ${m.name}`);
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile.ts <file.cpuprofile> [top]');
  printSummary(summarize(file, Number(process.argv[3] ?? 20)));
}
