/**
 * The whole machine's CPU through a concurrent batch, from /proc/stat: every process on the
 * cores counts (API, worker, Temporal, the MongoDB-wire server, Redis, the offline model and
 * the clients), since under 50 turns at once the cores, not one process, are the limit.
 * Sampled every 50 ms so the CPU spent until a given moment (the p50 first token) can be read,
 * with the named processes' share of it (/proc/<pid>/stat); the rest is other processes and
 * the kernel's own work (loopback networking, mostly).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Linux's USER_HZ: /proc reports CPU time in hundredths of a second. */
const TICK_MS = 10;

interface Sample {
  at: number;
  busyMs: number;
  byProcess: Record<string, number>;
}

function machineBusyMs(): number {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = cpu;
  return (user + nice + system + irq + softirq + steal) * TICK_MS;
}

/** A process's user and system time so far (/proc/<pid>/stat), in ms, or null once it is gone. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/** A process's resident memory now and at its peak (/proc/<pid>/status VmRSS, VmHWM), in bytes; null once it is gone. */
export function processMemory(pid: number): { rss: number; peak: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') * 1024, peak: kb('VmHWM') * 1024 };
  } catch {
    return null;
  }
}

/** The local services' process ids that scripts/services.sh recorded, by name. */
export function localServicePids(root: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, file] of [
    ['Temporal', 'temporal'],
    ['MongoDB server', 'mongo'],
    ['Redis', 'redis'],
  ] as const) {
    try {
      const pid = Number(fs.readFileSync(path.join(root, '.local/run', `${file}.pid`), 'utf8').trim());
      if (pid > 0) out[name] = pid;
    } catch {
      // Not started by services.sh (an external server): left out of the split.
    }
  }
  return out;
}

export class MachineCpu {
  private readonly samples: Sample[] = [];
  private readonly timer: NodeJS.Timeout | null;
  readonly cores = os.cpus().length;

  /** `processes`: name → pid of the processes to split the machine's CPU by. */
  constructor(private readonly processes: Record<string, number> = {}) {
    const ok = fs.existsSync('/proc/stat');
    this.timer = ok ? setInterval(() => this.sample(), 50) : null;
    if (ok) this.sample();
  }

  private sample(): void {
    const byProcess: Record<string, number> = {};
    for (const [name, pid] of Object.entries(this.processes)) {
      const ms = processCpuMs(pid);
      if (ms !== null) byProcess[name] = ms;
    }
    this.samples.push({ at: performance.now(), busyMs: machineBusyMs(), byProcess });
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.sample();
  }

  private around(from: number, to: number): [Sample, Sample] | null {
    const last = (t: number) => this.samples.filter((x) => x.at <= t).pop();
    const a = last(from) ?? this.samples[0];
    const b = last(to);
    return a && b ? [a, b] : null;
  }

  /** Busy CPU milliseconds (all cores) between two moments on performance.now()'s clock. */
  busyBetween(from: number, to: number): number | null {
    const s = this.around(from, to);
    return s ? s[1].busyMs - s[0].busyMs : null;
  }

  /** Each named process's CPU milliseconds between two moments (a process that ended is left out). */
  byProcessBetween(from: number, to: number): Record<string, number> {
    const s = this.around(from, to);
    const out: Record<string, number> = {};
    if (!s) return out;
    for (const [name, end] of Object.entries(s[1].byProcess)) {
      const start = s[0].byProcess[name];
      if (start !== undefined) out[name] = end - start;
    }
    return out;
  }
}

/**
 * How fast this machine runs a fixed piece of Node work right now: serialising and parsing
 * 200 stream events 400 times, the best of three tries, in ms (lower is faster). The same
 * code's figures moved by 40 % within one day on the benchmark machine, with no steal time
 * reported and nothing else running; printed at the start and the end of a run, it tells
 * such drift apart from a change in the code.
 */
export function machineSpeedMs(): number {
  const delta = 'the lamps of the harbour went out one by one, '.repeat(3);
  const batch = {
    events: Array.from({ length: 200 }, (_, i) => ({ id: `1-${i}`, type: 'content', data: { delta }, seq: i })),
  };
  let best = Infinity;
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = performance.now();
    let parsed = 0;
    for (let i = 0; i < 400; i++) parsed += (JSON.parse(JSON.stringify(batch)) as typeof batch).events.length;
    if (parsed !== 400 * batch.events.length) throw new Error('calibration lost events');
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** The calibration line, e.g. `machine speed at the start: 54 ms for the fixed calibration work (…)`. */
export function machineSpeedLine(when: string): string {
  return `machine speed ${when}: ${machineSpeedMs().toFixed(0)} ms for the fixed calibration work (lower is faster; compare runs only at similar speeds)`;
}

/** Past this size the dev server's SQLite state slows every Temporal request (docs/capacity.md). */
const TEMPORAL_STATE_WARN_MB = 100;

/**
 * The size of the local Temporal dev server's state (scripts/services.sh keeps it in
 * `.local/data/temporal.db`), with a warning when it is big enough to inflate the figures: it
 * grows with every test run, and at 419 MB it had added about 80 ms to a turn. Null when the
 * file is not there (another Temporal server).
 */
export function temporalStateLine(root: string): string | null {
  const file = path.join(root, '.local/data/temporal.db');
  if (!fs.existsSync(file)) return null;
  const mb = fs.statSync(file).size / 2 ** 20;
  const warn =
    mb > TEMPORAL_STATE_WARN_MB
      ? ` — over ${TEMPORAL_STATE_WARN_MB} MB, it slows every Temporal request: stop the services, move the file aside and start them again before comparing figures`
      : '';
  return `Temporal dev server state: ${mb.toFixed(0)} MB (${path.relative(root, file)})${warn}`;
}
