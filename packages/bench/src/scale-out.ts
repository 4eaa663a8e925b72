/**
 * Step 2 of docs/scaling.md, run on this machine (issue 32, item 7; decision 0123): a PostgreSQL
 * primary with a synchronous streaming replica, two Billow nodes on their own loopback addresses
 * (node A: API and background work; node B: API only), both reading what may lag from the
 * replica. It checks that a client reads its own writes across nodes, that killing a node under
 * load loses no acknowledged write and delivers every webhook once, and that after the primary
 * dies the documented failover (promote the replica, move the database's address) lets both
 * nodes carry on. Used by `npm run bench -- replicas` (figures) and packages/cli/test/scale-out.test.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { startReplicatedPostgres, type ReplicatedPostgres } from './pg-replication.js';
import { freePort, runNode, startNode, waitUntilServing, type ServerProcess } from './processes.js';
import { WebhookReceivers } from './webhook-receivers.js';

const CLI = fileURLToPath(new URL('../../cli/dist/main.js', import.meta.url));
const DATABASE = 'billow';

export interface ScaleOutReport {
  pairStartMs: number;
  /** Customers created on node B then looked for at once in node A's list. */
  readYourWrites: { writes: number; missing: number; listP50Ms: number; listP99Ms: number };
  /** Node A's /metrics after that: the reads the replica served and those that went to the primary. */
  replicaReads: { replica: number; primary: number };
  nodeKill: NodeKillReport;
  /**
   * Deliveries across a kill of the delivering node: every event delivered; a repeat only for a
   * delivery that was being sent when the node died (its receiver may have had it already).
   */
  webhooks: { events: number; delivered: number; inFlightAtKill: number; duplicates: number; resumedAfterMs: number };
  failover: FailoverReport;
}

export interface NodeKillReport {
  /** Creations answered 201 by the node before it was killed. */
  acknowledged: number;
  /** Of those, how many the database does not have afterwards. */
  lost: number;
}

export interface FailoverReport extends NodeKillReport {
  /** The replica's promotion and the move of the address. */
  promoteMs: number;
  /** From the primary's crash to each node's first write answered 201 again. */
  backAfterMs: { a: number; b: number };
  /** Lists read on each node after the failover, found complete. */
  listsAfter: boolean;
}

interface Node {
  label: string;
  url: string;
  process: ServerProcess & { child: ChildProcess };
  args: string[];
  env: NodeJS.ProcessEnv;
}

type Say = (line: string) => void;

async function startBillowNode(label: string, host: string, args: string[], env: NodeJS.ProcessEnv): Promise<Node> {
  const port = await freePort();
  const nodeEnv = { ...env, HOST: host, PORT: String(port) };
  const process = startNode(label, CLI, ['start', ...args], nodeEnv);
  const url = `http://${host}:${port}`;
  await waitUntilServing(process, `${url}/healthz`, 60_000);
  return { label, url, process, args, env: nodeEnv };
}

async function restarted(node: Node): Promise<Node> {
  const process = startNode(node.label, CLI, ['start', ...node.args], node.env);
  await waitUntilServing(process, `${node.url}/healthz`, 60_000);
  return { ...node, process };
}

function killed(node: Node): Promise<void> {
  const child = node.process.child;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** The parts of Billow's answers this run reads: a list's count and results, or a problem. */
interface Answer {
  count?: number;
  results?: { customerId: string }[];
  detail?: string;
}

async function call(url: string, key: string, method: string, body?: unknown): Promise<{ status: number; body: Answer | null }> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** POST /customers/; true when answered 201, false for any other answer or a failed connection. */
async function created(node: Node, key: string, customerId: string): Promise<boolean> {
  try {
    const answer = await call(`${node.url}/sandbox/api/v1/customers/`, key, 'POST', { customerId, email: `${customerId}@example.com` });
    return answer.status === 201;
  } catch {
    return false;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function readYourWrites(a: Node, b: Node, key: string, writes: number) {
  let missing = 0;
  const times: number[] = [];
  for (let i = 0; i < writes; i++) {
    const customerId = `ryw-${i}`;
    if (!(await created(b, key, customerId))) throw new Error(`Node B refused to create ${customerId}`);
    const started = performance.now();
    const list = await call(`${a.url}/sandbox/api/v1/customers/?search=${customerId}`, key, 'GET');
    times.push(performance.now() - started);
    if (list.status !== 200 || !list.body?.results?.some((c) => c.customerId === customerId)) missing++;
  }
  times.sort((x, y) => x - y);
  return { writes, missing, listP50Ms: round(percentile(times, 50)), listP99Ms: round(percentile(times, 99)) };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

async function replicaReads(node: Node): Promise<{ replica: number; primary: number }> {
  const text = await (await fetch(`${node.url}/metrics`)).text();
  const count = (by: string) => Number(new RegExp(`billow_db_replica_reads_total\\{served_by="${by}"\\} (\\d+)`).exec(text)?.[1] ?? NaN);
  return { replica: count('replica'), primary: count('primary') };
}

/** Writers creating customers through `nodes` until `stop()`; every id answered 201 is kept. */
function writers(nodes: () => Node[], key: string, prefix: string, concurrency: number) {
  const acknowledged: string[] = [];
  const firstAfter = new Map<string, number>();
  let running = true;
  let n = 0;
  const loop = async (worker: number) => {
    while (running) {
      const node = nodes()[worker % nodes().length]!;
      const customerId = `${prefix}-${worker}-${n++}`;
      if (await created(node, key, customerId)) {
        acknowledged.push(customerId);
        if (!firstAfter.has(node.label)) firstAfter.set(node.label, performance.now());
      } else await sleep(20);
    }
  };
  const loops = Array.from({ length: concurrency }, (_, worker) => loop(worker));
  return {
    acknowledged,
    /** When each node next answers a creation with 201, from now. */
    watchFirst: () => firstAfter.clear(),
    firstAt: (label: string) => firstAfter.get(label) ?? null,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function countMissing(url: string, customerIds: readonly string[]): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ customer_id: string }>('SELECT customer_id FROM customers WHERE customer_id = ANY($1)', [customerIds]);
    const present = new Set(rows.map((row) => row.customer_id));
    return customerIds.filter((id) => !present.has(id)).length;
  } finally {
    await client.end();
  }
}

interface Setup {
  pair: ReplicatedPostgres;
  receivers: WebhookReceivers;
  key: string;
  a: Node;
  b: Node;
  dataRoot: string;
}

/** The pair made synchronous: a commit is acknowledged once the replica has it, so a failover loses none. */
async function synchronousReplication(pair: ReplicatedPostgres): Promise<void> {
  const client = new pg.Client({ connectionString: pair.primaryUrl('postgres') });
  await client.connect();
  try {
    await client.query("ALTER SYSTEM SET synchronous_standby_names = '*'");
    await client.query('SELECT pg_reload_conf()');
    for (let i = 0; i < 500; i++) {
      const { rows } = await client.query<{ sync_state: string }>('SELECT sync_state FROM pg_stat_replication');
      if (rows[0]?.sync_state === 'sync') return;
      await sleep(10);
    }
    throw new Error('The replica did not become synchronous');
  } finally {
    await client.end();
  }
}

async function setUp(say: Say): Promise<Setup & { pairStartMs: number }> {
  const started = performance.now();
  const pair = await startReplicatedPostgres();
  const pairStartMs = Math.round(performance.now() - started);
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'billow-scale-out-'));
  try {
    await pair.createDatabase(DATABASE);
    await synchronousReplication(pair);
    say(`  PostgreSQL primary and synchronous streaming replica started in ${pairStartMs} ms`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: pair.addressUrl(DATABASE),
      DATABASE_REPLICA_URL: pair.replicaUrl(DATABASE),
      BILLOW_SECRET: randomBytes(32).toString('hex'),
      BILLOW_WEBHOOK_SANDBOX_PRIVATE_TARGETS: 'true',
      BILLOW_RATE_LIMIT_MAX: '1000000',
      LOG_LEVEL: 'warn',
    };
    delete env.REDIS_URL;
    await runNode(CLI, ['migrate'], env);
    const org = JSON.parse(await runNode(CLI, ['org', 'create', '--name', 'Scale-out', '--json'], env)) as { sandbox: { serverKey: string } };
    const key = org.sandbox.serverKey;
    const receivers = await WebhookReceivers.start(1);
    const a = await startBillowNode('Billow node A', '127.0.0.2', [], { ...env, BILLOW_DATA_DIR: path.join(dataRoot, 'a') });
    const b = await startBillowNode('Billow node B', '127.0.0.3', ['--role', 'api'], { ...env, BILLOW_DATA_DIR: path.join(dataRoot, 'b') });
    say(`  node A (API and background work) at ${a.url}, node B (API) at ${b.url}`);
    const endpoint = await call(`${a.url}/sandbox/api/v1/webhook/endpoints/`, key, 'POST', { url: receivers.urls[0], eventTypes: ['customer.created'] });
    if (endpoint.status !== 201) throw new Error(`The webhook endpoint was refused: ${JSON.stringify(endpoint.body)}`);
    return { pair, receivers, key, a, b, dataRoot, pairStartMs };
  } catch (error) {
    await pair.close();
    fs.rmSync(dataRoot, { recursive: true, force: true });
    throw error;
  }
}

/** Writers on both nodes; node B is killed halfway, then started again. */
async function killNodeUnderLoad(setup: Setup, say: Say): Promise<NodeKillReport> {
  const load = writers(() => [setup.a, setup.b], setup.key, 'kill', 8);
  await sleep(1500);
  await killed(setup.b);
  await sleep(1000);
  await load.stop();
  setup.b = await restarted(setup.b);
  const lost = await countMissing(setup.pair.addressUrl(DATABASE), load.acknowledged);
  say(`  node B killed (SIGKILL) under 8 writers: ${load.acknowledged.length} creations acknowledged, ${lost} lost`);
  return { acknowledged: load.acknowledged.length, lost };
}

/** Node A, the one that delivers, is killed while a burst of events is delivered, then started again. */
async function webhooksAcrossAKill(setup: Setup, say: Say) {
  const burst = writers(() => [setup.b], setup.key, 'burst', 8);
  await sleep(1000);
  await killed(setup.a);
  const inFlightAtKill = await deliveriesInFlight(setup.pair.addressUrl(DATABASE));
  await burst.stop();
  const restarting = performance.now();
  setup.a = await restarted(setup.a);
  const events = await customerCreatedEvents(setup.pair.addressUrl(DATABASE));
  const deadline = Date.now() + 90_000;
  while (distinctReceived(setup.receivers, events) < events.size && Date.now() < deadline) await sleep(20);
  const resumedAfterMs = Math.round(performance.now() - restarting);
  const delivered = distinctReceived(setup.receivers, events);
  const duplicates = setup.receivers.duplicates(events);
  say(`  node A killed while delivering (${inFlightAtKill} being sent): ${events.size} customer.created events, all ${delivered === events.size ? '' : 'but ' + (events.size - delivered) + ' '}delivered ${resumedAfterMs} ms after its restart began, ${duplicates} twice`);
  return { events: events.size, delivered, inFlightAtKill, duplicates, resumedAfterMs };
}

async function customerCreatedEvents(url: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>("SELECT id FROM events WHERE type = 'customer.created'");
    return new Set(rows.map((row) => row.id));
  } finally {
    await client.end();
  }
}

async function deliveriesInFlight(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivering'");
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

function distinctReceived(receivers: WebhookReceivers, events: ReadonlySet<string>): number {
  return receivers.firstReceipts(events).length;
}

/** The primary crashes under writers on both nodes; the replica is promoted and the address moved to it. */
async function failover(setup: Setup, say: Say): Promise<FailoverReport> {
  const load = writers(() => [setup.a, setup.b], setup.key, 'failover', 4);
  await sleep(1000);
  const crashedAt = performance.now();
  await setup.pair.crashPrimary();
  load.watchFirst();
  const promoteMs = await setup.pair.promoteReplica();
  const deadline = Date.now() + 60_000;
  while ((load.firstAt(setup.a.label) === null || load.firstAt(setup.b.label) === null) && Date.now() < deadline) await sleep(50);
  await sleep(1000);
  await load.stop();
  for (const node of [setup.a, setup.b]) {
    const child = node.process.child;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${node.label} ended during the failover (${child.exitCode ?? child.signalCode}):\n${node.process.output()}`);
  }
  const since = (label: string) => Math.round((load.firstAt(label) ?? NaN) - crashedAt);
  const lost = await countMissing(setup.pair.addressUrl(DATABASE), load.acknowledged);
  const lists = await Promise.all([setup.a, setup.b].map((node) => call(`${node.url}/sandbox/api/v1/customers/?search=failover`, setup.key, 'GET')));
  const listsAfter = lists.every((list) => list.status === 200 && (list.body?.count ?? 0) >= load.acknowledged.length - lost);
  const report = { acknowledged: load.acknowledged.length, lost, promoteMs, backAfterMs: { a: since(setup.a.label), b: since(setup.b.label) }, listsAfter };
  say(`  primary crashed; replica promoted in ${promoteMs} ms; writes back on A after ${report.backAfterMs.a} ms, on B after ${report.backAfterMs.b} ms; ${report.acknowledged} acknowledged, ${lost} lost`);
  return report;
}

async function tearDown(setup: Setup): Promise<void> {
  await Promise.all([killed(setup.a), killed(setup.b)]);
  await setup.receivers.close();
  await setup.pair.close();
  fs.rmSync(setup.dataRoot, { recursive: true, force: true });
}

/** The whole run: start, the four checks in order, and the figures. */
export async function runScaleOut(say: Say = () => undefined, writes = 300): Promise<ScaleOutReport> {
  const setup = await setUp(say);
  try {
    const ryw = await readYourWrites(setup.a, setup.b, setup.key, writes);
    const reads = await replicaReads(setup.a);
    say(`  ${writes} customers created on B, each at once in A's list: ${ryw.missing} missing; list p50 ${ryw.listP50Ms} ms, p99 ${ryw.listP99Ms} ms; A's replica-eligible reads: ${reads.replica} on the replica, ${reads.primary} on the primary`);
    const nodeKill = await killNodeUnderLoad(setup, say);
    const webhooks = await webhooksAcrossAKill(setup, say);
    const failed = await failover(setup, say);
    return { pairStartMs: setup.pairStartMs ?? 0, readYourWrites: ryw, replicaReads: reads, nodeKill, webhooks, failover: failed };
  } finally {
    await tearDown(setup);
  }
}
