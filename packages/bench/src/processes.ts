import { YOUNG_GENERATION_FLAG } from '@billow/server/bench-support';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const OUTPUT_TAIL_CHARS = 4000;
const STOP_GRACE_MS = 5000;

/** Every child still running, so an interrupted run can end them all. */
const running = new Set<ChildProcess>();
/** The children started in a process group of their own, stopped with their group. */
const groupLeaders = new WeakSet<ChildProcess>();
/** Set once the run is being torn down: no child may start after that. */
let closing = false;

export interface ServerProcess {
  label: string;
  /** The last few thousand characters the child wrote, for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited after a grace period. */
  stop(): Promise<void>;
}

function captureOutput(child: ChildProcess): () => string {
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => tail;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** The child, or its whole process group when it was started in one of its own. */
function signal(child: ChildProcess, name: NodeJS.Signals): void {
  if (child.pid !== undefined && groupLeaders.has(child)) {
    try {
      process.kill(-child.pid, name);
    } catch {
      // the group has already ended
    }
  } else {
    child.kill(name);
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  const done = exited(child);
  signal(child, 'SIGTERM');
  const timer = sleep(STOP_GRACE_MS).then(() => 'timeout' as const);
  if ((await Promise.race([done.then(() => 'exited' as const), timer])) === 'timeout') {
    signal(child, 'SIGKILL');
    await done;
  }
}

/**
 * Children run with the young generation `npm start` gives Billow (decision 0041), Billow and
 * the bare ceilings alike, unless `nodeArgs` says otherwise (the start scenario starts them as
 * a shell would).
 */
function spawnNode(script: string, args: string[], env: NodeJS.ProcessEnv, nodeArgs: string[] = [YOUNG_GENERATION_FLAG], detached = false): ChildProcess {
  if (closing) throw new Error('The benchmark is stopping; no new process is started');
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached });
  if (detached) groupLeaders.add(child);
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

export interface StartOptions {
  /** False starts the child as a shell would (`npx billow start`), without the young generation flag. */
  youngGeneration?: boolean;
  /**
   * In a process group of its own, stopped as a whole: for `npm start`, whose npm does not pass
   * SIGTERM on to the server it started.
   */
  processGroup?: boolean;
}

/** Starts a long-running Node.js child; its output is kept, not shown. */
export function startNode(
  label: string,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
  { youngGeneration = true, processGroup = false }: StartOptions = {},
): ServerProcess & { child: ChildProcess } {
  const child = spawnNode(script, args, env, youngGeneration ? [YOUNG_GENERATION_FLAG, ...nodeArgs] : nodeArgs, processGroup);
  const output = captureOutput(child);
  return { label, child, output, stop: () => stopChild(child) };
}

/** Runs a Node.js script to completion and returns its standard output; fails on a non-zero exit. */
export async function runNode(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawnNode(script, args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`${script} ${args.join(' ')} exited with ${code}:\n${stderr || stdout}`);
  return stdout;
}

/** A port nobody listens on right now (the kernel picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** Polls `url` until it answers 200; fails early if the child exits. */
export async function waitUntilServing(
  server: ServerProcess & { child: ChildProcess },
  url: string,
  timeoutMs = 30_000,
  intervalMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) {
      throw new Error(`${server.label} exited with ${server.child.exitCode} before serving:\n${server.output()}`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(intervalMs);
  }
  throw new Error(`${server.label} did not answer ${url} within ${timeoutMs} ms:\n${server.output()}`);
}

/** Linux reports process times in USER_HZ ticks, which the kernel ABI fixes at 100 a second. */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) a process has used so far, from /proc; null
 * where there is no /proc. Unlike throughput, this barely moves when other
 * work shares the machine.
 */
export function cpuSecondsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** A process's resident memory in MB, from /proc; null where there is no /proc. */
export function residentMbOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kilobytes === undefined ? null : Number(kilobytes) / 1024;
  } catch {
    return null;
  }
}

/** Ends every child still running, each with the usual grace period, and refuses new ones. */
export async function stopAllChildren(): Promise<void> {
  closing = true;
  await Promise.all([...running].map(stopChild));
}

/** For process 'exit', where nothing asynchronous can run any more. */
export function killAllChildrenNow(): void {
  for (const child of running) signal(child, 'SIGKILL');
}
