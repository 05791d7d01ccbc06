/**
 * Fault points for crash tests. Production passes no injector and every `hit` is a no-op.
 * Fault tests start a worker (or API) process with TEST_FAULTS set; when a matching point
 * is hit, the process SIGKILLs itself — a real crash at an exact place (e.g. after a tool's
 * MongoDB write committed, before the activity completed; or after the API took a
 * session's lock, before it started the turn's workflow).
 */
export interface FaultInjector {
  hit(point: string, info: Record<string, unknown>): void;
  /** Test-only stall at a point (e.g. a slow parallel sub-task); absent in production and in crash tests. */
  pause?(point: string, info: Record<string, unknown>): Promise<void>;
}

export interface FaultRule {
  point: string;
  /** Every key must equal the same key of the hit's info. */
  match?: Record<string, unknown>;
  /** SIGKILL (default): a crash. SIGTERM: an orderly shutdown request, sent once, at that exact point. */
  signal?: 'SIGKILL' | 'SIGTERM';
}

export function faultsFromEnv(raw: string | undefined): FaultInjector | undefined {
  if (!raw) return undefined;
  const rules = JSON.parse(raw) as FaultRule[];
  const fired = new Set<FaultRule>();
  return {
    hit(point, info) {
      const rule = rules.find(
        (r) => r.point === point && !fired.has(r) && Object.entries(r.match ?? {}).every(([k, v]) => info[k] === v),
      );
      if (!rule) return;
      const signal = rule.signal ?? 'SIGKILL';
      fired.add(rule);
      process.stderr.write(
        `FAULT ${point} ${JSON.stringify(info)}: ${signal === 'SIGKILL' ? 'killing the process' : 'asking the process to shut down'}\n`,
      );
      process.kill(process.pid, signal);
    },
  };
}
