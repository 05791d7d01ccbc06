/**
 * The Temporal server's requests through a batch, by operation, from its Prometheus endpoint
 * (`service_requests` of the frontend service: what workers and clients asked of it). The dev
 * server serves them on TEMPORAL_METRICS_PORT (scripts/services.sh); a server elsewhere may not,
 * and the line then says so. Each request is server work (and on Temporal Cloud, most are billed
 * actions), so a change that saves requests shows here even when the batch's timings hide it.
 */
const FRONTEND_REQUESTS = /^service_requests\{([^}]*)\} (\d+(?:\.\d+)?)$/;

export function temporalMetricsUrl(): string {
  return process.env.TEMPORAL_METRICS_URL ?? `http://127.0.0.1:${process.env.TEMPORAL_METRICS_PORT ?? '8235'}/metrics`;
}

/** Requests the frontend served so far in `namespace`, by operation; null when the endpoint does not answer. */
export async function temporalRequests(url: string, namespace: string): Promise<Record<string, number> | null> {
  const text = await fetch(url, { signal: AbortSignal.timeout(2000) })
    .then((r) => (r.ok ? r.text() : null))
    .catch(() => null);
  if (text === null) return null;
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = FRONTEND_REQUESTS.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (labels.service_name !== 'frontend' || labels.namespace !== namespace || !labels.operation) continue;
    out[labels.operation] = (out[labels.operation] ?? 0) + Number(m[2]);
  }
  return out;
}

/** "Temporal server requests per turn: …", the most frequent operations first. */
export function temporalRequestsLine(
  before: Record<string, number> | null,
  after: Record<string, number> | null,
  turns: number,
): string {
  if (!before || !after)
    return 'Temporal server requests: not available (no metrics endpoint; the dev server serves one on TEMPORAL_METRICS_PORT)';
  const diff = Object.entries(after)
    .map(([op, n]) => [op, n - (before[op] ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  const total = diff.reduce((n, [, d]) => n + d, 0);
  const per = (n: number) => (n / turns).toFixed(1);
  return `Temporal server requests per turn: ${per(total)} (${diff
    .slice(0, 6)
    .map(([op, n]) => `${op} ${per(n)}`)
    .join(', ')})`;
}
