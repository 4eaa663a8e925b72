/**
 * What the tests that kill `billow start` processes share: a migrated template to copy
 * workspaces from, their cleanup after each test, and a start with failpoints set.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import {
  api,
  assertBuilt,
  killServers,
  makeWorkspace,
  migratedTemplate,
  printedCredentials,
  startServer,
  type StartedServer,
  type Workspace,
} from '../../cli/test/support.js';

export type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: any; replayed?: true }>;

/** Registers the file's hooks; the returned function makes a fresh workspace (its own database) for a test. */
export function crashWorkspaces(): () => Promise<Workspace> {
  let template: Workspace | null = null;
  const workspaces: Workspace[] = [];
  // A migrated embedded database takes a while to make on a busy machine.
  beforeAll(async () => {
    assertBuilt();
    template = await migratedTemplate();
  }, 300_000);
  afterAll(() => template?.cleanup());
  afterEach(async () => {
    await killServers();
    await Promise.all(workspaces.splice(0).map((w) => w.cleanup()));
  });
  return async () => {
    const w = await makeWorkspace({ emptyDatabase: true, copyOf: template });
    workspaces.push(w);
    return w;
  };
}

/** `billow start` on the workspace with the default leases, `env` added, and `failpoints` armed when given. */
export async function startWithFailpoints(w: Workspace, failpoints: string | null, env: Record<string, string> = {}): Promise<{ server: StartedServer; call: Call }> {
  const server = await startServer({ ...w, env: { ...w.env, ...env, ...(failpoints ? { BILLOW_FAILPOINTS: failpoints } : {}) } });
  const key = printedCredentials(server.stdout()).sandbox.serverKey;
  return { server, call: (method, path, body, headers) => api(`${server.sandboxUrl}/api/v1${path}`, method, { key, body, headers }) };
}

/** A keyed write to kill between its effect and its answer, and what its retry must show. */
export interface KeyedCase {
  name: string;
  path: string;
  body: unknown;
  status: number;
  /**
   * The retry is the first run's stored answer, replayed: the answer was committed with the
   * effect. Routes that find their effect by a key of their own answer anew instead.
   */
  replayed?: boolean;
  /** The effect exists once, and the answer is the one that describes it. */
  once(call: Call, answer: any): Promise<void>;
  /** Who sends the case's request, when not the sandbox's server key (production, a partner). */
  caller?: (server: StartedServer) => Call;
}

/** The case's request, which must kill its process; the process must die within half a minute. */
async function crash(server: StartedServer, call: Call, item: KeyedCase): Promise<void> {
  await expect(call('POST', item.path, item.body, { 'idempotency-key': item.name })).rejects.toThrow();
  expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
}

/** The previous case's retry on a new process: at once, the first run's answer, the effect once, and replayed again the same. */
async function retry(call: Call, item: KeyedCase): Promise<void> {
  const began = performance.now();
  const retried = await call('POST', item.path, item.body, { 'idempotency-key': item.name }).catch((error: unknown) => {
    throw new Error(`${item.name}: the retry ran the request again (and reached the failpoint): ${String(error)}`);
  });
  expect([item.name, retried.status], JSON.stringify(retried.body)).toEqual([item.name, item.status]);
  if (item.replayed) expect([item.name, retried.replayed], 'the retry ran the write again').toEqual([item.name, true]);
  expect(performance.now() - began, `${item.name}: the retry waited`).toBeLessThan(10_000);
  await item.once(call, retried.body);
  const again = await call('POST', item.path, item.body, { 'idempotency-key': item.name });
  expect([again.status, again.body]).toEqual([retried.status, retried.body]);
}

/**
 * Each case killed at idempotency.before-answer on a process of its own, and retried on the
 * next one (a replay must not reach the failpoint again), which then dies in its own case.
 */
export async function crashEachInTurn(w: Workspace, table: KeyedCase[], env: Record<string, string> = {}): Promise<void> {
  let previous: KeyedCase | null = null;
  for (const item of [...table, null]) {
    const next = await startWithFailpoints(w, item ? 'idempotency.before-answer' : null, env);
    const callerOf = (keyed: KeyedCase) => keyed.caller?.(next.server) ?? next.call;
    if (previous) await retry(callerOf(previous), previous);
    if (item) await crash(next.server, callerOf(item), item);
    previous = item;
  }
}

/** `call`, throwing on an answer other than 2xx; the answer's body. */
export function okWith(call: Call) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
}

/** A list's results, answered 200. */
export async function list(call: Call, path: string): Promise<any[]> {
  const res = await call('GET', path);
  expect(res.status).toBe(200);
  return res.body.results;
}
