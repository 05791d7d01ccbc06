/**
 * Samples and the side-by-side table of `bench:turn`. Every figure is a median over
 * rounds (contenders interleaved round by round), so a noisy neighbour moves all alike.
 */

export type ContenderName = 'floor' | 'scriptorium' | 'peer';

export interface LoneSample {
  contender: ContenderName;
  data: string;
  timing: string;
  wall: number;
  ttft: number;
  model: number;
  calls: number;
  cpuMs: number;
  mongo: number;
  events?: number;
}

export interface ConcurrentSample {
  contender: ContenderName;
  data: string;
  timing: string;
  total: number;
  ttfts: number[];
}

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v).toLocaleString('en-US')} ms` : '—');
const sec = (v: number) => (Number.isFinite(v) ? `${(v / 1000).toFixed(2)} s` : '—');
const ratio = (a: number, b: number) =>
  Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : '—';

interface Figures {
  addedTtft: number;
  overhead: number;
  overheadPct: number;
  perCall: number;
  cpu: number;
  concRatio: number;
  concTtft: number;
  concTtftVsLone: number;
  mongo: number;
  mongoPerCall: number;
  n: number;
}

function figures(
  lone: LoneSample[],
  conc: ConcurrentSample[],
  who: ContenderName,
  data: string,
  timing: string,
): Figures {
  const mine = lone.filter((s) => s.contender === who && s.data === data && s.timing === timing);
  const floor = lone.filter((s) => s.contender === 'floor' && s.data === data && s.timing === timing);
  const overhead = median(mine.map((s) => s.wall - s.model));
  const model = median(mine.map((s) => s.model));
  const calls = median(mine.map((s) => s.calls));
  const c = conc.filter((s) => s.contender === who && s.data === data && s.timing === timing);
  const loneWall = median(mine.map((s) => s.wall));
  const concTtft = median(c.flatMap((s) => s.ttfts));
  const mongo = median(mine.map((s) => s.mongo));
  return {
    addedTtft: median(mine.map((s) => s.ttft)) - median(floor.map((s) => s.ttft)),
    overhead,
    overheadPct: (overhead / model) * 100,
    perCall: overhead / calls,
    cpu: median(mine.map((s) => s.cpuMs)),
    concRatio: median(c.map((s) => s.total)) / loneWall,
    concTtft,
    concTtftVsLone: concTtft / median(mine.map((s) => s.ttft)),
    mongo,
    mongoPerCall: mongo / calls,
    n: mine.length,
  };
}

/** Prints one table per timing: Scriptorium, the peer and their ratio, for each data mode. */
export function printTables(
  lone: LoneSample[],
  conc: ConcurrentSample[],
  timings: { name: string; label: string }[],
  datas: string[],
  concurrency: number,
): void {
  for (const t of timings) {
    const cols: string[] = [];
    const rows: [string, (s: Figures, p: Figures) => [string, string, string]][] = [
      [
        'added time to first token vs the bare model calls',
        (s, p) => [ms(s.addedTtft), ms(p.addedTtft), ratio(s.addedTtft, p.addedTtft)],
      ],
      [
        'overhead per turn (wall − model time)',
        (s, p) => [
          `${ms(s.overhead)} (${s.overheadPct.toFixed(1)} %)`,
          `${ms(p.overhead)} (${p.overheadPct.toFixed(1)} %)`,
          ratio(s.overhead, p.overhead),
        ],
      ],
      ['overhead per model call', (s, p) => [ms(s.perCall), ms(p.perCall), ratio(s.perCall, p.perCall)]],
      ['CPU per turn, own processes', (s, p) => [sec(s.cpu), sec(p.cpu), ratio(s.cpu, p.cpu)]],
      [
        `${concurrency} concurrent turns: total wall / one turn`,
        (s, p) => [ratio(s.concRatio, 1), ratio(p.concRatio, 1), ratio(s.concRatio, p.concRatio)],
      ],
      [
        `${concurrency} concurrent turns: time to first token p50`,
        (s, p) => [
          `${sec(s.concTtft)} (${ratio(s.concTtftVsLone, 1)} lone)`,
          `${sec(p.concTtft)} (${ratio(p.concTtftVsLone, 1)} lone)`,
          ratio(s.concTtft, p.concTtft),
        ],
      ],
      [
        'MongoDB commands per turn',
        (s, p) => [
          `${Math.round(s.mongo)} (${s.mongoPerCall.toFixed(1)} per model call)`,
          `${Math.round(p.mongo)} (${p.mongoPerCall.toFixed(1)} per model call)`,
          ratio(s.mongo, p.mongo),
        ],
      ],
    ];
    for (const d of datas) cols.push(`Scriptorium ${d}`, `peer ${d}`, `ratio ${d}`);
    const per = datas.map(
      (d) => [figures(lone, conc, 'scriptorium', d, t.name), figures(lone, conc, 'peer', d, t.name)] as const,
    );
    const floorModel = datas.map((d) =>
      median(lone.filter((s) => s.contender === 'floor' && s.data === d && s.timing === t.name).map((s) => s.model)),
    );
    console.log(`\n| ${t.label} | ${cols.join(' | ')} |`);
    console.log(`|---|${cols.map(() => '---').join('|')}|`);
    for (const [label, fn] of rows) console.log(`| ${label} | ${per.flatMap(([s, p]) => fn(s, p)).join(' | ')} |`);
    console.log(
      `| rounds (lone turns per contender); floor model time | ${per.flatMap(([s, p], i) => [String(s.n), String(p.n), sec(floorModel[i]!)]).join(' | ')} |`,
    );
  }
}
