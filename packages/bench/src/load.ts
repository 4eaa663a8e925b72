import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';

export interface Measurement {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p975Ms: number;
  p99Ms: number;
  /** Connection errors, timeouts and answers that were not 2xx. */
  errors: number;
  requests: number;
  /** 2xx answers of the measured run: what the server accepted. */
  accepted: number;
  /** CPU time the server process spent per answered request, when it can be read. */
  serverCpuUsPerRequest: number | null;
}

export interface LoadPlan {
  label: string;
  url: string;
  /**
   * What each connection sends, in turn: fixed requests are built once (the load
   * generator's cost per request then matches the ceiling's fixed request), a
   * request with a setupRequest is built anew each time (a body that must differ).
   */
  requests: autocannon.Request[];
  headers?: Record<string, string>;
  /** CPU seconds the server process has used so far, or null when unknown. */
  serverCpuSeconds: () => number | null;
  /**
   * Measure a fixed number of requests (the warm-up's rate times the duration)
   * instead of a fixed time, so that every request sent gets its answer and
   * `accepted` is exact; the warm-up's last answers are awaited first.
   */
  exact?: boolean;
  /** Runs between the warm-up and the measured run. */
  beforeMeasured?: () => Promise<void>;
}

export interface LoadShape {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

/** Long enough for a request the warm-up left in flight to be answered and committed. */
const SETTLE_MS = 1000;

function fire(plan: LoadPlan, connections: number, length: { duration: number } | { amount: number }): Promise<autocannon.Result> {
  return autocannon({
    url: plan.url,
    connections,
    ...length,
    headers: plan.headers ?? {},
    requests: plan.requests,
  });
}

function toMeasurement(label: string, result: autocannon.Result, exact: boolean, cpuSeconds: number | null): Measurement {
  return {
    label,
    // A fixed number of requests ends in a partial second, which the per-second mean would count as a whole one.
    requestsPerSecond: exact ? result.requests.total / result.duration : result.requests.average,
    p50Ms: result.latency.p50,
    p975Ms: result.latency.p97_5,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
    requests: result.requests.total,
    accepted: result['2xx'],
    serverCpuUsPerRequest:
      cpuSeconds === null || result.requests.total === 0 ? null : (cpuSeconds * 1e6) / result.requests.total,
  };
}

/** Warm-up rounds at most: a scenario still speeding up after them is measured as it is. */
const MAX_WARMUPS = 5;

/** A round this much faster than the one before shows the scenario still warming up. */
const STILL_WARMING = 1.2;

const rateOf = (result: autocannon.Result): number => (result.duration > 0 ? result.requests.total / result.duration : 0);

/**
 * Warm-up rounds until the rate settles: another round while a round answered
 * nothing (a 1,000-report batch planning routes for 1,000 unseen customers can
 * outlast one) or ran more than 20% faster than the round before. The last
 * round's rate sizes a measurement of a fixed number of requests.
 */
async function warmUp(plan: LoadPlan, shape: LoadShape, progress: (line: string) => void): Promise<autocannon.Result> {
  let previous: autocannon.Result | null = null;
  for (let round = 1; ; round++) {
    const why = round === 1 ? '' : previous!.requests.total === 0 ? ' (again: no answer yet' : ' (again: still speeding up';
    progress(`  warming up for ${shape.warmupSeconds} s${why ? `${why}, round ${round} of ${MAX_WARMUPS})` : ''}`);
    const warmup = await fire(plan, shape.connections, { duration: shape.warmupSeconds });
    const settled = warmup.requests.total > 0 && (previous !== null && rateOf(warmup) <= rateOf(previous) * STILL_WARMING);
    if (settled || (round === MAX_WARMUPS && warmup.requests.total > 0)) return warmup;
    if (round === MAX_WARMUPS) throw new Error(`${plan.label}: no response in ${MAX_WARMUPS} warm-ups of ${shape.warmupSeconds} s`);
    previous = warmup;
    await sleep(plan.exact ? SETTLE_MS : 0);
  }
}

/** A warm-up whose figures are thrown away (JIT, pools, caches), then the measured run. */
export async function measure(plan: LoadPlan, shape: LoadShape, progress: (line: string) => void): Promise<Measurement> {
  const warmup = await warmUp(plan, shape, progress);
  let length: { duration: number } | { amount: number } = { duration: shape.durationSeconds };
  if (plan.exact) {
    await sleep(SETTLE_MS);
    const amount = Math.max(shape.connections, Math.round((warmup.requests.total / warmup.duration) * shape.durationSeconds));
    length = { amount };
    progress(`  measuring ${amount} requests (about ${shape.durationSeconds} s) at ${shape.connections} connections`);
  } else {
    progress(`  measuring for ${shape.durationSeconds} s at ${shape.connections} connections`);
  }
  await plan.beforeMeasured?.();
  const cpuBefore = plan.serverCpuSeconds();
  const result = await fire(plan, shape.connections, length);
  const cpuAfter = plan.serverCpuSeconds();
  const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  const measurement = toMeasurement(plan.label, result, plan.exact === true, cpu);
  const cpuText = measurement.serverCpuUsPerRequest === null ? '' : `, server CPU ${Math.round(measurement.serverCpuUsPerRequest)} µs/req`;
  progress(
    `  ${Math.round(measurement.requestsPerSecond)} req/s, p99 ${measurement.p99Ms} ms, ${measurement.errors} errors${cpuText}`,
  );
  return measurement;
}

/**
 * The paths in one shuffled order (the same in every run), each a GET built once.
 * Every connection cycles through them: the mix is random, but the load generator
 * builds no request while measuring, as for the ceiling's fixed request.
 */
export function shuffledGets(paths: readonly string[]): autocannon.Request[] {
  if (paths.length === 0) throw new Error('shuffledGets needs at least one path');
  return shuffled(paths).map((path) => ({ method: 'GET', path }));
}

/** GETs of one path whose header `name` takes each of `values`, in one shuffled order, each built once. */
export function shuffledHeaderGets(path: string, name: string, values: readonly string[]): autocannon.Request[] {
  if (values.length === 0) throw new Error('shuffledHeaderGets needs at least one value');
  return shuffled(values).map((value) => ({ method: 'GET', path, headers: { [name]: value } }));
}

/** A Fisher-Yates shuffle driven by a fixed linear congruential sequence, so that every run sends the same order. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  let state = 0x2545f491;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A JSON POST whose body `bodyFor(n)` is built with a new `n` for every request. */
export function numberedPost(path: string, bodyFor: (n: number) => unknown): autocannon.Request[] {
  let next = 0;
  return [
    {
      method: 'POST',
      path,
      setupRequest: (request) => ({ ...request, body: JSON.stringify(bodyFor(next++)) }),
    },
  ];
}
