/**
 * Test support: a real PostgreSQL 15 primary with a streaming replica on this machine, behind a
 * TCP proxy that stands for "the database's address" (DNS, a virtual IP or PgBouncer in
 * production), so a failover can be shown without restarting clients.
 *
 * The servers run as the user `postgres` (initdb refuses root) from Debian's binaries, listen on
 * 127.0.0.1 and on sockets inside a fresh temp directory, on ports the kernel picks, and never
 * touch the machine's own server on 5432.
 *
 * In a test: `describe.skipIf(!replicationAvailable().ok)`, start in beforeAll, `close()` in
 * afterAll. createDatabase() and replayed() concern the pair before a failover.
 */
import { execFileSync, spawn } from 'node:child_process';
import { accessSync, appendFileSync, chownSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const BIN_DIR = '/usr/lib/postgresql/15/bin';
const REQUIRED_BINARIES = ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'];
const SERVER_USER = 'postgres';
const LOG_TAIL_CHARS = 3000;
const WAIT_TIMEOUT_MS = 30_000;
const POLL_INTERVAL_MS = 10;

export interface ReplicatedPostgres {
  /** postgres://postgres@127.0.0.1:<port>/<database> of the first primary (dead after crashPrimary()). */
  primaryUrl(database?: string): string;
  /** The replica's URL; after promoteReplica() it is the new primary's. */
  replicaUrl(database?: string): string;
  /** Through the proxy, which forwards to the current primary: what clients should use. */
  addressUrl(database?: string): string;
  /** Creates a database on the primary (trust auth); returns once the replica can connect to it. */
  createDatabase(name: string): Promise<void>;
  /** Waits until the replica's pg_last_wal_replay_lsn() has reached the primary's pg_current_wal_lsn() read at the call. */
  replayed(): Promise<void>;
  /** Stops the primary at once, as a crash would (pg_ctl stop -m immediate). */
  crashPrimary(): Promise<void>;
  /**
   * Promotes the replica, moves the proxy to it (closing connections still open to the old
   * primary) and resolves once it accepts writes, with the milliseconds that took.
   */
  promoteReplica(): Promise<number>;
  /** Stops both servers and the proxy and removes the temp directory; safe to call twice and after a failure midway. */
  close(): Promise<void>;
}

export interface ReplicationOptions {
  /** Receives one line per step (with its duration), for a test's or the bench's log. */
  log?: (line: string) => void;
}

/** Whether this machine can run the pair: the binaries exist, the user postgres exists, and we are root or postgres. */
export function replicationAvailable(): { ok: true } | { ok: false; reason: string } {
  for (const name of REQUIRED_BINARIES) {
    try {
      accessSync(path.join(BIN_DIR, name), constants.X_OK);
    } catch {
      return { ok: false, reason: `${path.join(BIN_DIR, name)} is missing (apt-get install postgresql-15)` };
    }
  }
  let account: { uid: number; gid: number };
  try {
    account = serverAccount();
  } catch {
    return { ok: false, reason: `there is no user ${SERVER_USER}` };
  }
  const uid = process.getuid?.();
  if (uid !== 0 && uid !== account.uid) return { ok: false, reason: `must run as root or ${SERVER_USER}, not uid ${uid}` };
  return { ok: true };
}

function serverAccount(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, SERVER_USER], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

// ---------------------------------------------------------------------------------------------
// The proxy

/**
 * A TCP forwarder on 127.0.0.1 that can be pointed at another port. Retargeting closes the
 * connections still open to the old target, as a failover does to a client's sessions.
 */
export class TcpProxy {
  private readonly server = net.createServer((client) => this.forward(client));
  private readonly connections = new Set<net.Socket>();
  private listeningPort = 0;

  constructor(private targetPort: number) {}

  /** Starts listening (on `port`, or one the kernel picks) and returns the port. */
  listen(port = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        const address = this.server.address();
        this.listeningPort = typeof address === 'object' && address ? address.port : 0;
        resolve(this.listeningPort);
      });
    });
  }

  /** The port clients connect to (0 before listen()). */
  get port(): number {
    return this.listeningPort;
  }

  /** The port connections are forwarded to. */
  get target(): number {
    return this.targetPort;
  }

  /** New connections go to `port`; the ones open now are closed. */
  retarget(port: number): void {
    this.targetPort = port;
    this.dropConnections();
  }

  /** Stops listening and closes every connection; safe to call twice. */
  close(): Promise<void> {
    this.dropConnections();
    if (!this.server.listening) return Promise.resolve();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private forward(client: net.Socket): void {
    const upstream = net.connect(this.targetPort, '127.0.0.1');
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    const pair = [client, upstream];
    for (const socket of pair) {
      this.connections.add(socket);
      // Either side ending or failing (a crashed target refuses) ends both, as a lost server would.
      socket.once('close', () => {
        this.connections.delete(socket);
        for (const other of pair) other.destroy();
      });
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }

  private dropConnections(): void {
    for (const socket of this.connections) socket.destroy();
    this.connections.clear();
  }
}

// ---------------------------------------------------------------------------------------------
// Running the binaries as postgres

function tailOf(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(-LOG_TAIL_CHARS);
  } catch {
    return '(no log)';
  }
}

/** Without the caller's PG* variables, which would otherwise steer pg_basebackup or pg_ctl. */
function serverEnvironment(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, LC_ALL: 'C', LANG: 'C' };
}

/** Runs a PostgreSQL binary as postgres to completion; `logFile` is quoted in the error if it fails. */
async function runAsServerUser(binary: string, args: string[], workDir: string, logFile?: string): Promise<string> {
  const command = path.join(BIN_DIR, binary);
  const asRoot = process.getuid?.() === 0;
  const child = asRoot
    ? spawn('runuser', ['-u', SERVER_USER, '--', command, ...args], { cwd: workDir, env: serverEnvironment() })
    : spawn(command, args, { cwd: workDir, env: serverEnvironment() });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code === 0) return output;
  const log = logFile ? `\n--- ${logFile} (tail) ---\n${tailOf(logFile)}` : '';
  throw new Error(`${binary} ${args.join(' ')} exited with ${code}:\n${output.trim()}${log}`);
}

// ---------------------------------------------------------------------------------------------
// One server

interface Server {
  label: string;
  dataDir: string;
  logFile: string;
  port: number;
}

/** Postmasters started and not yet stopped, so an exiting test process can still end them. */
const livePostmasters = new Set<Server>();

function postmasterPid(server: Server): number | null {
  try {
    const pid = Number(readFileSync(path.join(server.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

let exitHookInstalled = false;

/** On 'exit' nothing asynchronous runs any more: SIGQUIT is PostgreSQL's immediate shutdown. */
function stopPostmastersOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const server of livePostmasters) {
      const pid = postmasterPid(server);
      if (pid === null) continue;
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {
        // already gone
      }
    }
  });
}

function url(port: number, database = 'postgres'): string {
  return `postgres://${SERVER_USER}@127.0.0.1:${port}/${database}`;
}

/** Appends settings to postgresql.conf; later lines win, so the replica can override the copy it inherits. */
function appendSettings(server: Server, settings: Record<string, string | number>): void {
  const lines = Object.entries(settings).map(([name, value]) => `${name} = ${typeof value === 'number' ? value : `'${value}'`}`);
  appendFileSync(path.join(server.dataDir, 'postgresql.conf'), `\n${lines.join('\n')}\n`);
}

async function startServer(server: Server, workDir: string): Promise<void> {
  stopPostmastersOnExit();
  livePostmasters.add(server);
  // -l is needed besides the log: without it the postmaster keeps our pipes and `close` never comes.
  await runAsServerUser('pg_ctl', ['start', '-D', server.dataDir, '-l', server.logFile, '-w', '-t', '30'], workDir, server.logFile);
}

/** Stops a server with pg_ctl; if that fails, signals the postmaster directly. Quiet when it is not running. */
async function stopServer(server: Server, mode: 'immediate' | 'fast', workDir: string): Promise<void> {
  if (!livePostmasters.has(server)) return;
  try {
    if (existsSync(path.join(server.dataDir, 'postmaster.pid'))) {
      await runAsServerUser('pg_ctl', ['stop', '-D', server.dataDir, '-m', mode, '-w', '-t', '30'], workDir, server.logFile);
    }
  } catch (error) {
    const pid = postmasterPid(server);
    if (pid === null) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
    throw error;
  } finally {
    livePostmasters.delete(server);
  }
}

async function withClient<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  client.on('error', () => {}); // a server stopping under an idle client must not crash the process
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Retries `attempt` until it returns true or the time is up; the last error explains a timeout. */
async function pollUntil(what: string, attempt: () => Promise<boolean>, timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await attempt()) return;
    } catch (error) {
      lastError = error;
    }
    await sleep(POLL_INTERVAL_MS);
  }
  const cause = lastError instanceof Error ? `: ${lastError.message}` : '';
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
}

// ---------------------------------------------------------------------------------------------
// The pair

/** Free ports for the two servers, found by binding port 0 on 127.0.0.1. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => {
      const server = net.createServer();
      return new Promise<net.Server>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve(server));
      });
    }),
  );
  // All are held open together so the kernel cannot hand out the same port twice.
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  return ports;
}

function makeTempRoot(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'billow-repl-'));
  const { uid, gid } = serverAccount();
  chownSync(root, uid, gid);
  return root;
}

const HBA = [
  'local all         all              trust',
  'host  all         all 127.0.0.1/32 trust',
  'local replication all              trust',
  'host  replication all 127.0.0.1/32 trust',
  '',
].join('\n');

async function initPrimary(primary: Server, root: string): Promise<void> {
  await runAsServerUser(
    'initdb',
    ['-D', primary.dataDir, '-U', SERVER_USER, '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'],
    root,
  );
  writeFileSync(path.join(primary.dataDir, 'pg_hba.conf'), HBA); // the file exists, so it stays postgres's
  appendSettings(primary, {
    listen_addresses: '127.0.0.1',
    port: primary.port,
    unix_socket_directories: root,
    wal_level: 'replica',
    max_wal_senders: 5,
    hot_standby: 'on',
    // Throwaway test data: no durability, for speed. A crash here is pg_ctl -m immediate, which
    // leaves the OS page cache intact, so nothing is lost even so.
    fsync: 'off',
    full_page_writes: 'off',
    max_connections: 50,
  });
}

async function cloneReplica(primary: Server, replica: Server, root: string): Promise<void> {
  // -c fast: the base backup's checkpoint would otherwise be spread over minutes.
  await runAsServerUser(
    'pg_basebackup',
    ['-D', replica.dataDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync', '-h', '127.0.0.1', '-p', String(primary.port), '-U', SERVER_USER],
    root,
    primary.logFile,
  );
  appendSettings(replica, { port: replica.port, hot_standby_feedback: 'on', max_standby_streaming_delay: '5s' });
}

/** Runs `step`, then logs how long it took. */
async function timed<T>(log: (line: string) => void, label: string, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await step();
  log(`${label} in ${Math.round(performance.now() - started)} ms`);
  return result;
}

/** Starts a primary, a streaming replica of it, and a proxy to the primary; throws (after cleaning up) if any step fails. */
export async function startReplicatedPostgres(options: ReplicationOptions = {}): Promise<ReplicatedPostgres> {
  const log = options.log ?? (() => {});
  const availability = replicationAvailable();
  if (!availability.ok) throw new Error(`Cannot start a replicated PostgreSQL: ${availability.reason}`);
  const root = makeTempRoot();
  const [primaryPort = 0, replicaPort = 0] = await freePorts(2);
  const server = (label: string, port: number): Server => ({ label, port, dataDir: path.join(root, label), logFile: path.join(root, `${label}.log`) });
  const pair = new ReplicationPair(root, server('primary', primaryPort), server('replica', replicaPort), log);
  const started = performance.now();
  try {
    await pair.start();
  } catch (error) {
    await pair.close().catch(() => {});
    throw error;
  }
  log(`primary :${primaryPort}, replica :${replicaPort}, address :${pair.proxy.port} ready in ${Math.round(performance.now() - started)} ms`);
  return pair;
}

class ReplicationPair implements ReplicatedPostgres {
  readonly proxy: TcpProxy;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly root: string,
    private readonly primary: Server,
    private readonly replica: Server,
    private readonly log: (line: string) => void,
  ) {
    this.proxy = new TcpProxy(primary.port);
  }

  async start(): Promise<void> {
    await timed(this.log, 'initdb', () => initPrimary(this.primary, this.root));
    await timed(this.log, 'primary started', () => startServer(this.primary, this.root));
    await timed(this.log, 'base backup', () => cloneReplica(this.primary, this.replica, this.root));
    await timed(this.log, 'replica started', () => startServer(this.replica, this.root));
    await timed(this.log, 'replica streaming', () => this.waitUntilStreaming());
    await this.proxy.listen();
  }

  primaryUrl(database?: string): string {
    return url(this.primary.port, database);
  }

  replicaUrl(database?: string): string {
    return url(this.replica.port, database);
  }

  addressUrl(database?: string): string {
    return url(this.proxy.port, database);
  }

  async createDatabase(name: string): Promise<void> {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
    await withClient(this.primaryUrl(), (client) => client.query(`CREATE DATABASE ${name}`));
    await this.replayed();
    await pollUntil(`the replica to open database ${name}`, () => withClient(this.replicaUrl(name), async () => true));
  }

  async replayed(): Promise<void> {
    const target = await withClient(this.primaryUrl(), async (client) => {
      const result = await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      return result.rows[0]?.lsn ?? '0/0';
    });
    await withClient(this.replicaUrl(), (client) =>
      pollUntil(`the replica to replay up to ${target}`, async () => {
        const result = await client.query<{ done: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [target]);
        return result.rows[0]?.done === true;
      }),
    );
  }

  async crashPrimary(): Promise<void> {
    await stopServer(this.primary, 'immediate', this.root);
    this.log('primary stopped (immediate)');
  }

  async promoteReplica(): Promise<number> {
    const started = performance.now();
    await runAsServerUser('pg_ctl', ['promote', '-D', this.replica.dataDir, '-w', '-t', '30'], this.root, this.replica.logFile);
    this.proxy.retarget(this.replica.port);
    // Assigning a transaction id is refused during recovery: it succeeds only once writes are accepted.
    await pollUntil('the promoted replica to accept writes', () =>
      withClient(this.addressUrl(), async (client) => {
        await client.query('SELECT pg_current_xact_id()');
        return true;
      }),
    );
    const elapsed = Math.round(performance.now() - started);
    this.log(`replica promoted and the address moved to it in ${elapsed} ms`);
    return elapsed;
  }

  close(): Promise<void> {
    this.closing ??= this.stopEverything();
    return this.closing;
  }

  private async waitUntilStreaming(): Promise<void> {
    await pollUntil('the replica to stream from the primary', () =>
      withClient(this.primaryUrl(), async (client) => {
        const result = await client.query(`SELECT 1 FROM pg_stat_replication WHERE state = 'streaming'`);
        return result.rowCount === 1;
      }),
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n--- replica log (tail) ---\n${tailOf(this.replica.logFile)}`);
    });
  }

  private async stopEverything(): Promise<void> {
    const results = await Promise.allSettled([
      this.proxy.close(),
      stopServer(this.primary, 'immediate', this.root),
      stopServer(this.replica, 'immediate', this.root),
    ]);
    rmSync(this.root, { recursive: true, force: true });
    const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failure) throw failure.reason;
  }
}
