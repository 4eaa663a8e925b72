/**
 * The deployment files a self-hoster starts from (docs/deploy.md), run as far as this
 * machine can without Docker:
 * - the Dockerfile's run stage, rehearsed: its files copied from this built checkout (the
 *   build stage runs the same `npm ci` and `npm run build` as CI), its `npm` steps run
 *   offline from npm's cache, then its ENTRYPOINT and CMD started with its ENV, its
 *   HEALTHCHECK asked, and the image's dependencies checked to be production ones only;
 * - compose.yaml's two API processes and worker, started with their own commands and
 *   environment on a fresh PostgreSQL database and this machine's Redis.
 * The rehearsal runs in the embedded database's pass, compose in PostgreSQL's: each is the
 * database its file starts on.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../../server/test/webhook-support.js';
import { composeServices, interpolated, runStage, type RunStage } from './deploy-files.js';
import { DATABASE_KIND, REPO_ROOT, api, assertBuilt, makeWorkspace, parseJsonLine, type Workspace } from './support.js';

beforeAll(assertBuilt);

const children: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(children.map((child) => stopped(child, 'SIGKILL')));
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Our environment without Billow's settings: what a container starts from. */
function bareEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('BILLOW_') || ['DATABASE_URL', 'PORT', 'HOST', 'REDIS_URL', 'NODE_ENV'].includes(name)) delete env[name];
  return env;
}

/** `node ...` of an ENTRYPOINT or HEALTHCHECK, as this machine runs node. */
function argv(words: string[]): [string, string[]] {
  const [program, ...args] = words;
  expect(program, 'the image runs node directly (no shell, so signals reach it)').toBe('node');
  return [process.execPath, args];
}

/** A child process whose standard output and error are kept together, killed at the end of the file if still running. */
function spawned(program: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): ChildProcess & { output: () => string } {
  const child = spawn(program, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  children.push(child);
  return Object.assign(child, { output: () => output });
}

function started(words: string[], env: NodeJS.ProcessEnv, cwd: string): ReturnType<typeof spawned> {
  return spawned(...argv(words), env, cwd);
}

function finished(child: ReturnType<typeof spawned>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output: child.output() })));
}

function stopped(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

/** Waits for `GET /healthz` to answer 200 on `port`, or fails with what the process printed. */
async function listening(child: ReturnType<typeof started>, port: number, what: string): Promise<string> {
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}):\n${child.output()}`);
    const ok = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (ok) return url;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not answer /healthz within 60 s:\n${child.output()}`);
}

function run(words: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; output: string }> {
  return finished(started(words, env, cwd));
}

/** The image's paths on this machine: WORKDIR is `app`, anything under /data is under `data`. */
function placed(stage: RunStage, root: string): (imagePath: string) => string {
  return (imagePath) => {
    const absolute = path.posix.isAbsolute(imagePath) ? imagePath : path.posix.join(stage.workdir, imagePath);
    if (absolute === stage.workdir || absolute.startsWith(`${stage.workdir}/`)) return path.join(root, 'app', path.posix.relative(stage.workdir, absolute));
    if (absolute === '/data' || absolute.startsWith('/data/')) return path.join(root, 'data', path.posix.relative('/data', absolute));
    throw new Error(`The rehearsal has no place for ${imagePath}`);
  };
}

/** The run stage's RUN steps: npm's run offline in the image's WORKDIR, the data directory's made where /data is placed. */
async function rehearseRuns(stage: RunStage, place: (p: string) => string): Promise<void> {
  for (const step of stage.runs) {
    const command = step.replace(/--mount=\S+\s+/g, '');
    if (command.startsWith('npm ')) {
      const result = await finished(spawned('sh', ['-c', command], { ...bareEnv(), npm_config_offline: 'true' }, place(stage.workdir)));
      expect(result.code, `RUN ${command}\n${result.output}`).toBe(0);
      continue;
    }
    // The only other step the image takes: the data directory, owned by the user it runs as.
    const data = /^mkdir -p (\/data\S*) && chown -R (\w+):(\w+) \/data$/.exec(command);
    expect(data, `a RUN step the rehearsal does not know: ${command}`).not.toBeNull();
    expect(data![2]).toBe(stage.user);
    fs.mkdirSync(place(data![1]!), { recursive: true });
  }
}

/** Kilobytes under `dir`. */
function kilobytes(dir: string): number {
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return Math.round(bytes / 1024);
}

describe.runIf(DATABASE_KIND === 'pglite')("the Dockerfile's run stage, rehearsed without Docker (in the embedded database's pass)", () => {
  let root = '';
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('installs production dependencies only, starts as its user on /data, answers its health check, and stops on SIGTERM', async () => {
    const stage = runStage();
    expect(stage.user, 'the image runs as a user of its own, not root').toMatch(/^(?!root$|0$)\w+$/);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'billow-image-'));
    const place = placed(stage, root);
    for (const { from, to } of stage.copies) {
      const source = path.join(REPO_ROOT, path.posix.relative('/app', from));
      const target = to.endsWith('/') || to === './' ? path.join(place(to), path.basename(source)) : place(to);
      fs.cpSync(source, target, { recursive: true });
    }
    await rehearseRuns(stage, place);

    const modules = path.join(place(stage.workdir), 'node_modules');
    for (const tool of ['typescript', 'vitest', 'vite', 'eslint', 'esbuild', 'playwright-core', 'autocannon', '@kelviq/node-sdk', 'react']) {
      expect(fs.existsSync(path.join(modules, tool)), `${tool} is no run-time dependency of billow`).toBe(false);
    }
    console.log(`the image's node_modules: ${Math.round(kilobytes(modules) / 1024)} MB`);

    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...bareEnv(), LOG_LEVEL: 'warn' };
    for (const [name, value] of Object.entries(stage.env)) env[name] = value.startsWith('/') ? place(value) : value;
    Object.assign(env, { PORT: String(port), HOST: '127.0.0.1' });
    const billow = started([...stage.entrypoint, ...stage.cmd], env, place(stage.workdir));
    const url = await listening(billow, port, 'the image');

    const ready = await api(`${url}/readyz`, 'GET');
    expect(ready).toMatchObject({ status: 200, body: { database: 'reachable' } });
    expect(fs.existsSync(place(stage.env.BILLOW_DATA_DIR!)), 'the embedded database lives on the /data volume').toBe(true);
    const dashboard = await fetch(`${url}/dashboard/`);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toMatch(/<div id="root">/);
    const guides = await fetch(`${url}/docs/guides/`);
    expect(guides.status, 'the guides of docs/ are in the image').toBe(200);
    expect(await guides.text()).toMatch(/Webhooks/);

    const health = await run(stage.healthcheck, env, place(stage.workdir));
    expect(health.code, health.output).toBe(0);
    expect(await stopped(billow), billow.output()).toBe(0);
    const down = await run(stage.healthcheck, env, place(stage.workdir));
    expect(down.code, 'the health check fails once the server is gone').not.toBe(0);
  }, 300_000);
});

describe.runIf(DATABASE_KIND === 'postgres')("compose.yaml's processes on PostgreSQL and Redis (in PostgreSQL's pass)", () => {
  let workspace: Workspace;
  let receiver: Receiver;
  beforeAll(async () => {
    workspace = await makeWorkspace({ emptyDatabase: true });
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await Promise.all(children.map((child) => stopped(child, 'SIGKILL')));
    await receiver?.close();
    await workspace?.cleanup();
  });

  it('serve the API from two processes and run background work in the worker', async () => {
    const stage = runStage();
    const services = composeServices();
    const vars = { BILLOW_SECRET: randomBytes(32).toString('hex') };
    const files = path.join(workspace.root, 'files');
    /** A service's environment as compose gives it, with the hosts of compose's network as this machine's. */
    const envOf = (name: string, port: number): NodeJS.ProcessEnv => {
      const env: NodeJS.ProcessEnv = { ...bareEnv(), ...stage.env, LOG_LEVEL: 'warn' };
      for (const [key, value] of Object.entries(services[name]!.environment)) env[key] = interpolated(String(value), vars);
      expect(env.DATABASE_URL).toMatch(/@postgres:5432\//);
      expect(env.REDIS_URL).toMatch(/^redis:\/\/redis:6379/);
      return {
        ...env,
        DATABASE_URL: workspace.env.DATABASE_URL,
        REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
        BILLOW_STORAGE_DIR: files,
        BILLOW_DATA_DIR: workspace.dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        // The test's receiver listens on 127.0.0.1, which production endpoints may not (decision 0057).
        BILLOW_WEBHOOK_SANDBOX_PRIVATE_TARGETS: 'true',
      };
    };
    const launch = async (name: string) => {
      const port = await freePort();
      const child = started([...stage.entrypoint, ...services[name]!.command], envOf(name, port), REPO_ROOT);
      return { child, url: await listening(child, port, name) };
    };
    // One at a time, as compose's depends_on would not order them: the first start migrates.
    const api1 = await launch('api-1');
    const [api2, worker] = await Promise.all([launch('api-2'), launch('worker')]);
    for (const server of [api1, api2]) expect(await api(`${server.url}/readyz`, 'GET')).toMatchObject({ status: 200 });

    // docs/deploy.md: `docker compose run --rm worker org create --name "Acme" --json`.
    const created = await run([...stage.entrypoint, 'org', 'create', '--name', 'Compose', '--json'], envOf('worker', 0), REPO_ROOT);
    expect(created.code, created.output).toBe(0);
    const keys = parseJsonLine(created.output) as { sandbox: { serverKey: string }; production: { serverKey: string } };
    const key = keys.sandbox.serverKey;

    const endpoint = await api(`${api1.url}/sandbox/api/v1/webhook/endpoints/`, 'POST', { key, body: { url: receiver.url, eventTypes: ['customer.created'] } });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const customer = await api(`${api1.url}/sandbox/api/v1/customers/`, 'POST', { key, body: { customerId: 'compose-1', email: 'compose@example.com' } });
    expect(customer.status, JSON.stringify(customer.body)).toBe(201);
    // The other API process reads what the first wrote, and serves the Edge too (role api).
    expect((await api(`${api2.url}/sandbox/api/v1/customers/compose-1/`, 'GET', { key })).status).toBe(200);
    const check = await api(`${api2.url}/sandbox/api/v1/entitlements/?customer_id=compose-1&feature_id=none`, 'GET', { key });
    expect(check.status, 'role api serves the Edge API').not.toBe(404);
    // The worker serves no API, but delivers the webhook the customer's creation queued.
    expect((await api(`${worker.url}/sandbox/api/v1/customers/compose-1/`, 'GET', { key })).status).toBe(404);
    await receiver.waitFor(1, 30_000);
    expect(receiver.ofType('customer.created')).toHaveLength(1);

    for (const { child } of [api1, api2, worker]) expect(await stopped(child), child.output()).toBe(0);
  }, 300_000);
});
