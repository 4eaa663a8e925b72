/**
 * Helpers for tests that drive the built `billow` command as a child process,
 * on the embedded database (a temp BILLOW_DATA_DIR) or on PostgreSQL when the
 * test environment sets DATABASE_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const CLI = path.join(REPO_ROOT, 'packages/cli/dist/main.js');

/** PostgreSQL when the test run has DATABASE_URL, else the embedded database. */
export const POSTGRES_URL = process.env.DATABASE_URL || null;
export const DATABASE_KIND: 'postgres' | 'pglite' = POSTGRES_URL ? 'postgres' : 'pglite';

export function assertBuilt(): void {
  if (!fs.existsSync(CLI)) {
    throw new Error(`${CLI} does not exist: run \`npm run build\` at the repository root before these tests`);
  }
}

export interface Workspace {
  /** Parent of the data directory; credentials.json is written here. */
  root: string;
  dataDir: string;
  lockFile: string;
  credentialsFile: string;
  /** Environment for child processes: the database to use and quiet logs. */
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

export interface WorkspaceOptions {
  /**
   * On PostgreSQL, create an empty database for this workspace (and drop it in
   * cleanup) instead of using DATABASE_URL as shared by the whole test run.
   */
  emptyDatabase?: boolean;
  /**
   * On the embedded database, start from a copy of this (closed) workspace's data
   * directory: a copy of a migrated directory saves each test the migrations.
   */
  copyOf?: Workspace | null;
}

function childEnv(dataDir: string, databaseUrl: string | null): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('BILLOW_') || ['DATABASE_URL', 'PORT', 'HOST', 'REDIS_URL'].includes(name)) delete env[name];
  }
  return {
    ...env,
    BILLOW_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Tests share one PostgreSQL database: a server of one test must not renew another test's subscriptions,
    // nor deliver another test's webhooks (a test that needs the dispatcher sets its own interval).
    BILLOW_BILLING_SWEEP_MS: '0',
    BILLOW_WEBHOOK_POLL_INTERVAL_MS: '0',
    // Test receivers listen on 127.0.0.1, which PostgreSQL installations refuse by default (decision 0057).
    BILLOW_WEBHOOK_SANDBOX_PRIVATE_TARGETS: 'true',
    HOST: '127.0.0.1',
    PORT: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL ?? undefined });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function createEmptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `billow_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_URL ?? '');
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export async function makeWorkspace(options: WorkspaceOptions = {}): Promise<Workspace> {
  const root = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'billow-cli-'));
  const dataDir = path.join(root, 'data');
  const database = POSTGRES_URL && options.emptyDatabase ? await createEmptyDatabase() : null;
  if (!POSTGRES_URL && options.copyOf) await fs.promises.cp(options.copyOf.dataDir, dataDir, { recursive: true });
  return {
    root,
    dataDir,
    lockFile: `${dataDir}.lock`,
    credentialsFile: path.join(root, 'credentials.json'),
    env: childEnv(dataDir, database?.url ?? POSTGRES_URL),
    cleanup: async () => {
      await fs.promises.rm(root, { recursive: true, force: true });
      await database?.drop();
    },
  };
}

/**
 * A workspace whose embedded database has been migrated, for `copyOf`; null on
 * PostgreSQL, where the commands migrate the shared database themselves.
 */
export async function migratedTemplate(): Promise<Workspace | null> {
  if (POSTGRES_URL) return null;
  // The one the run's global setup migrated (server/test/global-setup.ts), when there is one: only copied, never opened.
  const shared = inject('pgliteDataDir' as never) as string | null | undefined;
  if (shared) return { root: path.dirname(shared), dataDir: shared, lockFile: `${shared}.lock`, credentialsFile: '', env: childEnv(shared, null), cleanup: async () => {} };
  const template = await makeWorkspace();
  await runOk(['migrate'], template.env);
  return template;
}

/**
 * A workspace of its own for each test of the file: a copy of the migrated template (on
 * PostgreSQL, a database of its own), made before each test and removed after it. Read
 * the current one as `.current`.
 */
export function workspacePerTest(): { current: Workspace } {
  const holder = {} as { current: Workspace };
  let template: Workspace | null = null;
  beforeAll(async () => {
    assertBuilt();
    template = await migratedTemplate();
  });
  afterAll(() => template?.cleanup());
  beforeEach(async () => {
    holder.current = await makeWorkspace({ copyOf: template });
  });
  afterEach(() => holder.current.cleanup());
  return holder;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function collect(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return { stdout: () => stdout, stderr: () => stderr };
}

/** Runs `billow ...args` to completion. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = collect(child);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`billow ${args.join(' ')} did not finish within ${timeoutMs} ms\n${output.stderr()}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: output.stdout(), stderr: output.stderr() });
    });
  });
}

/** Runs a command that must succeed, and returns its stdout. */
export async function runOk(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const result = await runCli(args, env);
  if (result.code !== 0) {
    throw new Error(`billow ${args.join(' ')} exited ${result.code}:\n${result.stderr}${result.stdout}`);
  }
  return result.stdout;
}

/** The single JSON line a `--json` command prints. */
export function parseJsonLine(stdout: string): unknown {
  const lines = stdout.split('\n');
  if (lines.length !== 2 || lines[1] !== '') throw new Error(`expected exactly one line of JSON, got:\n${stdout}`);
  return JSON.parse(lines[0] ?? '');
}

export interface OrganizationKeys {
  organizationId: string;
  sandbox: { serverKey: string; clientKey: string };
  production: { serverKey: string; clientKey: string };
}

const PRINTED_ORGANIZATION = /Demo organization ([0-9a-f-]{36}):|Created the demo organization ([0-9a-f-]{36}):/;
const PRINTED_KEYS =
  /sandbox +server key +(\S+)\n +client key +(\S+)\n +production +server key +(\S+)\n +client key +(\S+)\n/;

/** The demo organization and keys as the server's start-up summary prints them. */
export function printedCredentials(stdout: string): OrganizationKeys {
  const id = PRINTED_ORGANIZATION.exec(stdout);
  const keys = PRINTED_KEYS.exec(stdout);
  if (!id || !keys) throw new Error(`no demo organization in:\n${stdout}`);
  return {
    organizationId: id[1] ?? id[2] ?? '',
    sandbox: { serverKey: keys[1] ?? '', clientKey: keys[2] ?? '' },
    production: { serverKey: keys[3] ?? '', clientKey: keys[4] ?? '' },
  };
}

export async function createOrganization(env: NodeJS.ProcessEnv, name = 'Acme'): Promise<OrganizationKeys> {
  return parseJsonLine(await runOk(['org', 'create', '--name', name, '--json'], env)) as OrganizationKeys;
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StartedServer {
  /** Production base URL as printed; sandbox is `${url}/sandbox`. */
  url: string;
  sandboxUrl: string;
  pid: number;
  stdout(): string;
  stderr(): string;
  exited: Promise<ServerExit>;
  /** Sends the signal and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<ServerExit>;
}

const PRODUCTION_LINE = /^\s*production\s+(http:\/\/\S+)$/m;
const SANDBOX_LINE = /^\s*sandbox\s+(http:\/\/\S+)$/m;

const running = new Set<StartedServer>();

/** Kills every server a test started and left running (for afterEach). */
export async function killServers(): Promise<void> {
  await Promise.all([...running].map((server) => server.stop('SIGKILL')));
}

function summaryComplete(stdout: string): boolean {
  // main.ts writes the summary at once, but a pipe may deliver it in pieces: wait for its last line.
  return /\n\n(These keys are saved|Organizations already exist)[^\n]*\n/.test(stdout);
}

/** Starts `billow start ...args` and resolves once it has printed its base URLs. */
export function startServer(workspace: Workspace, args: string[] = [], timeoutMs = 90_000): Promise<StartedServer> {
  const child = spawn(process.execPath, [CLI, 'start', ...args], {
    env: workspace.env,
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const exited = new Promise<ServerExit>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const server: StartedServer = {
    url: '',
    sandboxUrl: '',
    pid: child.pid ?? 0,
    stdout: output.stdout,
    stderr: output.stderr,
    exited,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  running.add(server);
  void exited.then(() => running.delete(server));
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      if (error === null) return resolve(server);
      child.kill('SIGKILL');
      reject(new Error(`billow start ${error}\nstdout:\n${output.stdout()}\nstderr:\n${output.stderr()}`));
    };
    const timer = setTimeout(() => settle(`printed no URLs within ${timeoutMs} ms`), timeoutMs);
    const check = () => {
      const text = output.stdout();
      const production = PRODUCTION_LINE.exec(text)?.[1];
      const sandbox = SANDBOX_LINE.exec(text)?.[1];
      if (!production || !sandbox || !summaryComplete(text)) return;
      server.url = production;
      server.sandboxUrl = sandbox;
      settle(null);
    };
    child.stdout?.on('data', check);
    void exited.then((exit) => settle(`exited (${exit.code ?? exit.signal}) before it was ready`));
  });
}

export interface ApiResponse {
  status: number;
  body: any;
  /** Present (true) when the answer is a stored one, replayed for its Idempotency-Key. */
  replayed?: true;
}

export async function api(
  url: string,
  method: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: response.status, body, ...(response.headers.get('idempotent-replayed') === 'true' ? { replayed: true as const } : {}) };
}
