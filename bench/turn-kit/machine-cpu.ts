/**
 * The whole machine's CPU through a concurrent batch, from /proc/stat: every process on the
 * cores counts (API, worker, Temporal, the MongoDB-wire server, Redis, the offline model and
 * the clients), since under 50 turns at once the cores, not one process, are the limit.
 * Sampled every 50 ms so the CPU spent until a given moment (the p50 first token) can be read.
 */
import fs from 'node:fs';
import os from 'node:os';

interface Sample {
  at: number;
  busyMs: number;
}

function busyMsNow(): number {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = cpu;
  const ticks = user + nice + system + irq + softirq + steal;
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

export class MachineCpu {
  private readonly samples: Sample[] = [];
  private readonly timer: NodeJS.Timeout | null;
  readonly cores = os.cpus().length;

  constructor() {
    const ok = fs.existsSync('/proc/stat');
    this.timer = ok ? setInterval(() => this.sample(), 50) : null;
    if (ok) this.sample();
  }

  private sample(): void {
    this.samples.push({ at: performance.now(), busyMs: busyMsNow() });
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.sample();
  }

  /** Busy CPU milliseconds (all cores) between two moments on performance.now()'s clock. */
  busyBetween(from: number, to: number): number | null {
    const at = (t: number): number | null => {
      const s = this.samples.filter((x) => x.at <= t).pop() ?? null;
      return s ? s.busyMs : null;
    };
    const a = at(from) ?? this.samples[0]?.busyMs ?? null;
    const b = at(to);
    return a === null || b === null ? null : b - a;
  }
}
