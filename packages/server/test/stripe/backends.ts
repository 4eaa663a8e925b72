/**
 * The two Stripe stand-ins a Stripe test can run against: Billow's own (stand-in.ts) and
 * localstripe, an independent fake of Stripe's API written elsewhere (kept in the shared
 * folder, run with Debian's python3 and `--compat`, which enforces Stripe's Idempotency-Key
 * rules). The second catches what Billow's provider and its own stand-in could both get
 * wrong the same way.
 *
 * localstripe is looked for in BILLOW_LOCALSTRIPE_DIR, then in ../shared/tools/localstripe
 * beside the repository (where CI has it). A file that cannot start it says why and skips
 * its localstripe tests, unless BILLOW_TEST_REQUIRE_LOCALSTRIPE=1 (set by .ci/run): then
 * a missing localstripe fails the file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Stripe from 'stripe';
import { StripeStandIn } from './stand-in.js';
import { LIVE_KEY } from './support.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const PYTHON = '/usr/bin/python3';

export interface StripeBackend {
  readonly name: 'stand-in' | 'localstripe';
  readonly url: string;
  /** A PaymentMethod made from one of Stripe's test card numbers, as Stripe.js would make it. */
  card(number?: string): Promise<string>;
  /** Every PaymentIntent the backend holds. */
  paymentIntents(): Promise<Stripe.PaymentIntent[]>;
  close(): Promise<void>;
}

function clientOf(url: string): Stripe {
  const target = new URL(url);
  return new Stripe(LIVE_KEY, { host: target.hostname, port: target.port, protocol: 'http', telemetry: false, maxNetworkRetries: 0 });
}

function backendOver(name: StripeBackend['name'], url: string, close: () => Promise<void>): StripeBackend {
  const stripe = clientOf(url);
  return {
    name,
    url,
    async card(number = '4242424242424242') {
      const method = await stripe.paymentMethods.create({ type: 'card', card: { number, exp_month: 12, exp_year: 2034, cvc: '123' } });
      return method.id;
    },
    async paymentIntents() {
      return (await stripe.paymentIntents.list({ limit: 100 })).data;
    },
    close,
  };
}

export async function standInBackend(): Promise<StripeBackend & { stand: StripeStandIn }> {
  const stand = await new StripeStandIn().start();
  return { ...backendOver('stand-in', stand.url, () => stand.close()), stand };
}

function localstripeDir(): string | null {
  const candidates = [process.env.BILLOW_LOCALSTRIPE_DIR, path.join(REPO_ROOT, '..', 'shared', 'tools', 'localstripe')];
  return candidates.find((dir): dir is string => Boolean(dir) && existsSync(path.join(dir!, 'launch.py'))) ?? null;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves when the process prints its listening line; rejects with its output when it exits first. */
function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`localstripe did not start in 60 s: ${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('localstripe (')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`localstripe exited (${code}): ${output.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

async function startLocalstripe(dir: string): Promise<StripeBackend> {
  const port = await freePort();
  const work = mkdtempSync(path.join(tmpdir(), 'billow-localstripe-'));
  const args = [path.join(dir, 'launch.py'), '--port', String(port), '--state', path.join(work, 'state.pickle'), '--log', path.join(work, 'requests.jsonl'), '--compat'];
  const child = spawn(PYTHON, args, { env: { ...process.env, PYTHONPATH: dir, PYTHONDONTWRITEBYTECODE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    await listening(child);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
  // It logs every request: read so that its pipe never fills.
  child.stdout!.resume();
  child.stderr!.resume();
  return backendOver('localstripe', `http://127.0.0.1:${port}`, async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(work, { recursive: true, force: true });
  });
}

/** localstripe on a free port of 127.0.0.1, or null (after saying why) when it cannot run here and is not required. */
export async function localstripeBackend(): Promise<StripeBackend | null> {
  const required = process.env.BILLOW_TEST_REQUIRE_LOCALSTRIPE === '1';
  const dir = localstripeDir();
  let reason: string;
  if (!dir) reason = 'no localstripe in BILLOW_LOCALSTRIPE_DIR or ../shared/tools/localstripe';
  else if (!existsSync(PYTHON)) reason = `${PYTHON} is missing (Debian's python3 with python3-aiohttp and python3-dateutil)`;
  else {
    try {
      return await startLocalstripe(dir);
    } catch (error) {
      reason = (error as Error).message;
    }
  }
  if (required) throw new Error(`localstripe is required (BILLOW_TEST_REQUIRE_LOCALSTRIPE=1) and could not start: ${reason}`);
  console.warn(`Skipping the tests against localstripe: ${reason}`);
  return null;
}
