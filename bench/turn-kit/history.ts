/**
 * Where a Scriptorium turn's time outside the model goes: along its Temporal history
 * (workflow tasks, activity queueing and run times) and inside the worker (each activity
 * type's own time and MongoDB commands, from bench/turn-kit/child.ts).
 */
import type { Runtime } from '../../src/runtime';
import type { ChildStats } from './child';

type Stats = {
  mongoBy: Record<string, number>;
  mongoMsBy: Record<string, number>;
  activities: ChildStats['activities'];
};

interface Breakdown {
  label: string;
  workflowTasks: number;
  workflowTaskMs: number;
  /** Of which: scheduled → started (the server handing the task to the worker). */
  workflowTaskDispatchMs: number;
  activityQueueMs: number;
  activities: Record<string, { calls: number; ms: number; mongo: number }>;
  mongoBy: [string, number][];
  mongoMsBy: [string, number][];
}

const breakdowns: Breakdown[] = [];

const msOf = (t: { seconds?: unknown; nanos?: number | null } | null | undefined): number =>
  t ? Number(t.seconds ?? 0) * 1000 + (t.nanos ?? 0) / 1e6 : 0;

/** Records the breakdown of one finished turn (printed by {@link printActivities}). */
export async function historyBreakdown(
  runtime: Runtime,
  workflowId: string,
  before: Stats,
  after: Stats,
  label: string,
): Promise<void> {
  const history = await runtime.temporal.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const at = new Map<number, number>();
  let workflowTasks = 0;
  let workflowTaskMs = 0;
  let workflowTaskDispatchMs = 0;
  let activityQueueMs = 0;
  for (const e of events) {
    const id = Number(e.eventId);
    const t = msOf(e.eventTime as never);
    at.set(id, t);
    if (e.workflowTaskCompletedEventAttributes) {
      workflowTasks += 1;
      workflowTaskMs += t - (at.get(Number(e.workflowTaskCompletedEventAttributes.scheduledEventId)) ?? t);
    }
    if (e.workflowTaskStartedEventAttributes)
      workflowTaskDispatchMs += t - (at.get(Number(e.workflowTaskStartedEventAttributes.scheduledEventId)) ?? t);
    if (e.activityTaskStartedEventAttributes)
      activityQueueMs += t - (at.get(Number(e.activityTaskStartedEventAttributes.scheduledEventId)) ?? t);
  }
  const activities: Breakdown['activities'] = {};
  for (const [name, a] of Object.entries(after.activities)) {
    const b = before.activities[name] ?? { calls: 0, ms: 0, mongo: 0 };
    if (a.calls > b.calls) activities[name] = { calls: a.calls - b.calls, ms: a.ms - b.ms, mongo: a.mongo - b.mongo };
  }
  const mongoBy = Object.entries(after.mongoBy)
    .map(([k, v]) => [k, v - (before.mongoBy[k] ?? 0)] as [string, number])
    .filter(([, v]) => v > 0)
    .sort((x, y) => y[1] - x[1]);
  const mongoMsBy = Object.entries(after.mongoMsBy)
    .map(([k, v]) => [k, v - (before.mongoMsBy[k] ?? 0)] as [string, number])
    .filter(([, v]) => v >= 1)
    .sort((x, y) => y[1] - x[1]);
  breakdowns.push({
    label,
    workflowTasks,
    workflowTaskMs,
    workflowTaskDispatchMs,
    activityQueueMs,
    activities,
    mongoBy,
    mongoMsBy,
  });
}

export function printActivities(): void {
  for (const b of breakdowns) {
    console.log(`\nScriptorium turn breakdown (${b.label}, last round):`);
    console.log(
      `  workflow tasks: ${b.workflowTasks}, ${b.workflowTaskMs.toFixed(0)} ms scheduled→completed in all (${b.workflowTaskDispatchMs.toFixed(0)} ms of it scheduled→started); activity tasks queued ${b.activityQueueMs.toFixed(0)} ms in all`,
    );
    for (const [name, a] of Object.entries(b.activities).sort((x, y) => y[1].ms - x[1].ms))
      console.log(
        `  ${name.padEnd(18)} ×${String(a.calls).padEnd(3)} ${a.ms.toFixed(0).padStart(6)} ms (${(a.ms / a.calls).toFixed(0)} ms each)  ${a.mongo} MongoDB commands (${(a.mongo / a.calls).toFixed(1)} each)`,
      );
    console.log(
      `  MongoDB commands by command and collection (API + worker): ${b.mongoBy.map(([k, v]) => `${k} ${v}`).join(', ')}`,
    );
    console.log(
      `  MongoDB time by command and collection (API + worker, ms): ${b.mongoMsBy.map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`,
    );
  }
}

/**
 * One turn's timeline (`--timeline`): the client's POST and first token, each model request
 * as the model's server saw it, and the turn's Temporal history events, in one clock (epoch ms,
 * relative to the POST), so every gap between two model calls can be read event by event.
 */
export async function printTimeline(
  runtime: Runtime,
  workflowId: string,
  turn: { start: number; firstToken: number; end: number },
  spans: { start: number; firstByte: number; end: number }[],
): Promise<void> {
  const epoch = (perf: number): number => performance.timeOrigin + perf;
  const t0 = epoch(turn.start);
  const rows: [number, string][] = [
    [0, 'client POST /turns'],
    [epoch(turn.firstToken) - t0, 'client: first token'],
    [epoch(turn.end) - t0, 'client: done'],
  ];
  spans
    .filter((s) => s.start >= turn.start && s.end <= turn.end + 5_000)
    .forEach((s, i) => {
      rows.push([epoch(s.start) - t0, `model call ${i + 1} request`]);
      rows.push([epoch(s.end) - t0, `model call ${i + 1} answered`]);
    });
  const history = await runtime.temporal.workflow.getHandle(workflowId).fetchHistory();
  for (const e of history.events ?? []) {
    const kind = Object.keys(e).find((k) => k.endsWith('EventAttributes')) ?? 'event';
    const attrs = (e as Record<string, { activityType?: { name?: string }; markerName?: string }>)[kind];
    const what = attrs?.activityType?.name ?? attrs?.markerName ?? '';
    rows.push([msOf(e.eventTime as never) - t0, `  #${e.eventId} ${kind.replace('EventAttributes', '')} ${what}`]);
  }
  rows.sort((a, b) => a[0] - b[0]);
  console.log(`\ntimeline of ${workflowId} (ms after the POST, which was at ${t0.toFixed(0)} ms epoch):`);
  let prev = 0;
  for (const [t, label] of rows) {
    console.log(`  ${t.toFixed(1).padStart(8)}  (+${(t - prev).toFixed(1).padStart(6)})  ${label}`);
    prev = t;
  }
}
