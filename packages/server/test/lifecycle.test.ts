/**
 * The server's life as a process: first start, restart, the data directory lock,
 * roles and graceful shutdown. Drives the built `billow` command (packages/cli/dist).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectDatabase } from '../src/db/connect.js';
import { DataDirectoryLockedError, lockDataDirectory } from '../src/db/lock.js';
import { countOrganizations } from '../src/modules/tenancy/repo.js';
import {
  DATABASE_KIND,
  api,
  assertBuilt,
  killServers,
  makeWorkspace,
  printedCredentials,
  runCli,
  startServer,
  type RunResult,
  type StartedServer,
  type Workspace,
} from '../../cli/test/support.js';

const onPglite = DATABASE_KIND === 'pglite';

beforeAll(assertBuilt);

const workspaces: Workspace[] = [];
async function workspace(options: { emptyDatabase?: boolean } = {}): Promise<Workspace> {
  const created = await makeWorkspace(options);
  workspaces.push(created);
  return created;
}
afterEach(async () => {
  await killServers();
  await Promise.all(workspaces.splice(0).map((w) => w.cleanup()));
});

async function organizationCount(w: Workspace): Promise<number> {
  const url = w.env.DATABASE_URL ?? null;
  const database = await connectDatabase({ databaseUrl: url, dataDir: url ? null : w.dataDir, poolSize: 1 });
  try {
    return await countOrganizations(database.db);
  } finally {
    await database.close();
  }
}

const customers = (base: string) => `${base}/api/v1/customers/`;

const bannerAt = (stdout: string) => stdout.indexOf('\nBillow is running');

/** The server's output once `pattern` shows in it (log lines arrive a moment after the request's answer). */
async function untilLogged(server: StartedServer, pattern: RegExp): Promise<string> {
  for (let waited = 0; waited < 5_000 && !pattern.test(server.stdout()); waited += 20) await new Promise((r) => setTimeout(r, 20));
  return server.stdout();
}

function expectLockedOut(result: RunResult, w: Workspace, server: StartedServer): void {
  expect(result.code).toBe(1);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toBe(
    `billow: The data directory ${w.dataDir} is in use by process ${server.pid}. ` +
      'Stop that process first, or point BILLOW_DATA_DIR somewhere else.',
  );
}

/** The pid of a process that has exited: what a crashed server leaves in its lock file. */
function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  return new Promise((resolve) => child.on('exit', () => resolve(child.pid ?? 0)));
}

describe(`billow start on ${DATABASE_KIND}`, () => {
  it('first start migrates, creates a demo organization, prints its URLs and keys and saves them; a restart reuses them', async () => {
    const w = await workspace({ emptyDatabase: true });
    const first = await startServer({ ...w, env: { ...w.env, LOG_LEVEL: 'info' } }, ['--role', 'all']);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    expect(first.sandboxUrl).toBe(`${first.url}/sandbox`);
    const printed = printedCredentials(first.stdout());
    expect(first.stdout()).toContain(`Created the demo organization ${printed.organizationId}:`);

    const saved: unknown = JSON.parse(fs.readFileSync(w.credentialsFile, 'utf8'));
    expect(saved).toStrictEqual(printed);
    expect(fs.statSync(w.credentialsFile).mode & 0o777).toBe(0o600);
    expect(first.stdout()).toContain(`These keys are saved in ${w.credentialsFile}`);

    const [sandbox, production, crossed, health, ready] = await Promise.all([
      api(customers(first.sandboxUrl), 'GET', { key: printed.sandbox.serverKey }),
      api(customers(first.url), 'GET', { key: printed.production.serverKey }),
      api(customers(first.url), 'GET', { key: printed.sandbox.serverKey }),
      api(`${first.url}/healthz`, 'GET'),
      api(`${first.url}/readyz`, 'GET'),
    ]);
    expect(sandbox.status).toBe(200);
    expect(production.status).toBe(200);
    expect(crossed.status).toBe(401);
    expect(health).toEqual({ status: 200, body: { status: 'ok' } });
    expect(ready).toEqual({ status: 200, body: { status: 'ok', database: 'reachable' } });
    // Through a pipe, JSON log lines: the start-up ones before the summary, the requests' after it.
    await untilLogged(first, /"url":"\/readyz"/);
    const jsonOut = await untilLogged(first, /"url":"\/healthz"/);
    const started = jsonOut.indexOf('"msg":"billow started"');
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThan(bannerAt(jsonOut));
    expect(jsonOut.slice(bannerAt(jsonOut))).toMatch(/^\{.*"url":"\/healthz".*"msg":"request"\}$/m);
    expect(await first.stop()).toEqual({ code: 0, signal: null });

    const second = await startServer({ ...w, env: { ...w.env, LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' } }, ['--role', 'core']);
    // LOG_FORMAT=pretty: a readable line per entry.
    expect(second.stdout().slice(0, bannerAt(second.stdout()))).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: billow started /m);
    expect((await api(`${second.url}/healthz`, 'GET')).status).toBe(200);
    expect(await untilLogged(second, /INFO: GET \/healthz 200 [\d.]+ ms/)).not.toMatch(/^\{/m);
    expect(printedCredentials(second.stdout())).toStrictEqual(printed);
    expect(second.stdout()).toContain(`Demo organization ${printed.organizationId}:`);
    expect(second.stdout()).not.toContain('Created the demo organization');
    expect(JSON.parse(fs.readFileSync(w.credentialsFile, 'utf8'))).toStrictEqual(printed);
    expect((await api(customers(second.sandboxUrl), 'GET', { key: printed.sandbox.clientKey })).status).toBe(403);
    expect(await second.stop()).toEqual({ code: 0, signal: null });
    expect(await organizationCount(w)).toBe(1);
  });

  it.skipIf(onPglite)('servers starting together on an empty database create one demo organization', async () => {
    const [a, b] = await Promise.all([workspace({ emptyDatabase: true }), workspace()]);
    b.env.DATABASE_URL = a.env.DATABASE_URL;
    const servers = await Promise.all([startServer(a), startServer(b)]);
    const exits = await Promise.all(servers.map((s) => s.stop()));
    expect(exits).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
    expect(await organizationCount(a)).toBe(1);
  });

  it('a port in use is a one-line error, and the data directory is let go', async () => {
    const w = await workspace();
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      const result = await runCli(['start'], { ...w.env, PORT: String(port) });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^billow: .*EADDRINUSE.*127\\.0\\.0\\.1:${port}: another process is listening there; set PORT\n$`));
      if (onPglite) expect(fs.existsSync(w.lockFile)).toBe(false);
    } finally {
      taken.close();
    }
  });

  it('refuses an unknown LOG_FORMAT, naming the variable', async () => {
    const wrong = await runCli(['start'], { ...(await workspace()).env, LOG_FORMAT: 'fancy' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/LOG_FORMAT must be one of auto, pretty, json, got "fancy"/);
  });

  // Roles all and core serve the Core API in the first test.
  it('--role edge and --role worker start without the Core API', async () => {
    const w = await workspace();
    for (const role of ['edge', 'worker']) {
      const server = await startServer(w, ['--role', role]);
      const [health, list] = await Promise.all([api(`${server.url}/healthz`, 'GET'), api(customers(server.url), 'GET')]);
      expect(health.status, role).toBe(200);
      // Without a key: 404, where a server with the Core API answers 401.
      expect(list.status, role).toBe(404);
      expect(await server.stop(), role).toEqual({ code: 0, signal: null });
    }
  });
});

describe.skipIf(!onPglite)('the embedded data directory lock', () => {
  it('takes over a stale lock, then refuses a second server and admin commands naming the holder', async () => {
    const w = await workspace();
    fs.writeFileSync(w.lockFile, String(await deadPid()));
    const server = await startServer(w);
    expect(fs.readFileSync(w.lockFile, 'utf8')).toBe(String(server.pid));

    const [secondStart, orgCreate] = await Promise.all([
      runCli(['start'], w.env),
      runCli(['org', 'create', '--name', 'Sneaky'], w.env),
    ]);
    expectLockedOut(secondStart, w, server);
    expectLockedOut(orgCreate, w, server);
    expect((await api(`${server.url}/healthz`, 'GET')).status).toBe(200);
    expect(fs.readFileSync(w.lockFile, 'utf8')).toBe(String(server.pid));

    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(w.lockFile)).toBe(false);
  });

  it('refuses a second lock in the same process, and treats a file with its own pid as stale', () =>
    inTempDir((dataDir) => {
      const lock = lockDataDirectory(dataDir);
      expect(() => lockDataDirectory(dataDir)).toThrow(new DataDirectoryLockedError(dataDir, process.pid));
      lock.release();
      expect(fs.existsSync(`${dataDir}.lock`)).toBe(false);

      // Left by an earlier process that had our pid, as a restarted container's often does.
      fs.writeFileSync(`${dataDir}.lock`, String(process.pid));
      lockDataDirectory(dataDir).release();
      expect(fs.readdirSync(path.dirname(dataDir))).toEqual([]);
    }));

  it('never lets another process see its lock file without its pid in it', () =>
    inTempDir((dataDir) => {
      const lockFile = `${dataDir}.lock`;
      const seen: string[] = [];
      // After every file system call that could create the lock file, look at it as another process would.
      for (const name of ['openSync', 'linkSync', 'renameSync', 'writeFileSync', 'copyFileSync'] as const) {
        const original = (fs as any)[name] as (...args: unknown[]) => unknown;
        vi.spyOn(fs as any, name).mockImplementation((...args: unknown[]) => {
          const result = original(...args);
          if (fs.existsSync(lockFile)) seen.push(fs.readFileSync(lockFile, 'utf8'));
          return result;
        });
      }
      lockDataDirectory(dataDir).release();
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set([String(process.pid)]));
    }));

  it('puts back, rather than deletes, a lock another process took while it judged a stale one', () =>
    inTempDir(async (dataDir) => {
      const lockFile = `${dataDir}.lock`;
      fs.writeFileSync(lockFile, String(await deadPid()));
      // The competitor: a live process (our parent) that takes the lock over just after we read the stale one.
      const competitor = process.ppid;
      const readFileSync = fs.readFileSync;
      let tookOver = false;
      vi.spyOn(fs, 'readFileSync').mockImplementation(((file: fs.PathOrFileDescriptor, options?: any) => {
        const content = readFileSync(file, options);
        if (file === lockFile && !tookOver) {
          tookOver = true;
          fs.writeFileSync(lockFile, String(competitor));
        }
        return content;
      }) as typeof fs.readFileSync);
      expect(() => lockDataDirectory(dataDir)).toThrow(new DataDirectoryLockedError(dataDir, competitor));
      expect(tookOver).toBe(true);
      vi.restoreAllMocks();
      expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(competitor));
    }));
});

/** Runs `work` with a data directory path in a new temp directory, then removes it and any spies. */
async function inTempDir(work: (dataDir: string) => void | Promise<void>): Promise<void> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'billow-lock-'));
  try {
    await work(path.join(dir, 'data'));
  } finally {
    vi.restoreAllMocks();
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

interface Outcome {
  customerId: string;
  status: number | null;
  error: string | null;
}

/** What a refused or closed connection looks like to fetch: its cause's code (anything else is kept whole). */
function connectionErrorCode(error: Error): string {
  const cause = error.cause as NodeJS.ErrnoException | undefined;
  return cause?.code ?? String(cause ?? error);
}
const CONNECTION_CLOSED = ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'];

function createCustomer(server: StartedServer, key: string, customerId: string): Promise<Outcome> {
  return api(customers(server.url), 'POST', { key, body: { customerId, name: 'Shutdown test' } }).then(
    (response) => ({ customerId, status: response.status, error: null }),
    (error: Error) => ({ customerId, status: null, error: connectionErrorCode(error) }),
  );
}

interface HeldRequest {
  customerId: string;
  /** Resolves once the server has read the request head (it answered 100 Continue). */
  started: Promise<void>;
  /** Sends the body and resolves with the response status. */
  finish(): Promise<number>;
}

/** The status of the first complete response after any 100 Continue, or null while incomplete. */
function completeResponseStatus(received: string): number | null {
  const response = received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
  const headEnd = response.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(response.slice(0, headEnd))?.[1] ?? 0);
  if (Buffer.byteLength(response.slice(headEnd + 4)) < length) return null;
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
}

/**
 * A POST that the server is certainly in the middle of: its head is sent with
 * `Expect: 100-continue` and its body only when the test says so. The connection is
 * kept alive, as clients' pools do, so the server must close it itself to exit.
 */
function heldCreate(server: StartedServer, key: string, customerId: string): HeldRequest {
  const { hostname, port } = new URL(server.url);
  const body = JSON.stringify({ customerId, name: 'Held across shutdown' });
  const socket = net.connect(Number(port), hostname);
  socket.setEncoding('utf8');
  let received = '';
  const failed = new Promise<never>((_, reject) => socket.on('error', reject));
  const when = (ready: () => boolean) =>
    Promise.race([
      failed,
      new Promise<void>((resolve) => {
        const check = () => {
          if (!ready()) return;
          socket.off('data', check);
          resolve();
        };
        socket.on('data', check);
      }),
    ]);
  socket.on('data', (chunk: string) => (received += chunk));
  socket.write(
    [
      `POST /api/v1/customers/ HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      `Authorization: Bearer ${key}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Expect: 100-continue',
      '',
      '',
    ].join('\r\n'),
  );
  return {
    customerId,
    started: when(() => received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')),
    finish: async () => {
      const done = when(() => completeResponseStatus(received) !== null);
      socket.write(body);
      await done;
      return completeResponseStatus(received) ?? 0;
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`graceful shutdown on ${DATABASE_KIND}`, () => {
  it('SIGTERM lets the requests in flight finish, exits 0, keeps every created customer and releases the lock', async () => {
    const w = await workspace({ emptyDatabase: true });
    const server = await startServer(w);
    const key = printedCredentials(server.stdout()).production.serverKey;
    expect((await api(`${server.url}/readyz`, 'GET')).status).toBe(200);

    const held = Array.from({ length: 3 }, (_, i) => heldCreate(server, key, `held-${i}-${randomUUID()}`));
    await Promise.all(held.map((h) => h.started));
    const burst = Array.from({ length: 20 }, (_, i) => createCustomer(server, key, `burst-${i}-${randomUUID()}`));
    await Promise.race(burst);
    const exited = server.stop('SIGTERM');
    await pause(100);
    const late = Array.from({ length: 5 }, (_, i) => createCustomer(server, key, `late-${i}-${randomUUID()}`));
    // The server was reading these when the signal came: they must be finished, not dropped.
    const heldStatuses = await Promise.all(held.map((h) => h.finish()));
    const [early, afterSignal] = await Promise.all([Promise.all(burst), Promise.all(late)]);
    expect(await exited, server.stdout() + server.stderr()).toEqual({ code: 0, signal: null });

    expect(heldStatuses).toEqual([201, 201, 201]);
    // The others: answered 201 if the server read them before closing, else refused cleanly (503 or
    // a closed connection); never an error, which would mean it closed the database under a request.
    for (const o of [...early, ...afterSignal]) {
      if (o.status === null) expect(CONNECTION_CLOSED, JSON.stringify(o)).toContain(o.error);
      else expect([201, 503], JSON.stringify(o)).toContain(o.status);
    }
    const all = [...early, ...afterSignal];
    const counts = {
      created: all.filter((o) => o.status === 201).length + held.length,
      unavailable: all.filter((o) => o.status === 503).length,
      refused: all.filter((o) => o.error !== null).length,
    };
    console.info(`graceful shutdown on ${DATABASE_KIND}: ${JSON.stringify(counts)}`);
    if (onPglite) expect(fs.existsSync(w.lockFile)).toBe(false);

    const restarted = await startServer(w);
    const createdIds = [...held.map((h) => h.customerId), ...all.filter((o) => o.status === 201).map((o) => o.customerId)];
    const stored = await Promise.all(createdIds.map((id) => api(`${customers(restarted.url)}${id}/`, 'GET', { key })));
    expect(stored.map((r) => r.status)).toEqual(createdIds.map(() => 200));
    expect(stored.map((r) => r.body.customerId)).toEqual(createdIds);
    expect(await restarted.stop()).toEqual({ code: 0, signal: null });
  });
});
