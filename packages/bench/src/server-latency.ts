/**
 * The server's own view of a scenario's latency, from the request-duration
 * histogram Billow exports at /metrics: the time from the request's arrival to
 * its response, without the network or the load generator. Read before and
 * after a run; the difference of the bucket counts is the run's histogram.
 */
const METRIC = 'billow_http_request_duration_seconds_bucket';

export type Buckets = Map<number, number>;

/** The cumulative bucket counts (upper bound in seconds -> requests) of one route's 2xx answers. */
export async function readBuckets(baseUrl: string, method: string, route: string): Promise<Buckets> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const buckets: Buckets = new Map();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${METRIC}{`)) continue;
    const labels = line.slice(METRIC.length + 1, line.indexOf('}'));
    if (!labels.includes(`method="${method}"`) || !labels.includes(`route="${route}"`) || !/status_code="2\d\d"/.test(labels)) continue;
    const le = /le="([^"]+)"/.exec(labels)?.[1];
    if (!le || le === '+Inf') continue;
    const bound = Number(le);
    buckets.set(bound, (buckets.get(bound) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return buckets;
}

/** The smallest bucket bound, in milliseconds, under which `share` of the run's requests were answered; null if none. */
export function percentileBound(before: Buckets, after: Buckets, total: number, share: number): number | null {
  if (total === 0) return null;
  const bounds = [...after.keys()].sort((a, b) => a - b);
  for (const bound of bounds) {
    const count = (after.get(bound) ?? 0) - (before.get(bound) ?? 0);
    if (count >= total * share) return bound * 1000;
  }
  return null;
}
