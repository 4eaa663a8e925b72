/**
 * The start scenario (issue 32, item 6): how long a process takes from being spawned to
 * its first answer on /healthz, and how much memory it holds once idle. Billow on an
 * existing embedded data directory, on a new one, on PostgreSQL, and through `npm start`
 * with nothing to rebuild; beside the same figures of a bare Fastify process, started
 * the same way in the same run (the ceiling).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, residentMbOf, startNode, waitUntilServing } from './processes.js';
import { table, verdict } from './report.js';

export const START_TARGETS = {
  existingDataDirMs: 2000,
  npmStartMs: 5000,
  idleEmbeddedMb: 200,
  idleFirstStartMb: 300,
  idlePostgresMb: 100,
} as const;

/** How often a starting process is asked whether it answers: the resolution of the start figures. */
const POLL_MS = 10;
const START_TIMEOUT_MS = 120_000;

export interface StartRun {
  ms: number;
  /** Resident memory once idle; null for `npm start`, which is only timed. */
  idleMb: number | null;
}

export interface StartResults {
  idleSeconds: number;
  bare: StartRun[];
  /** `billow start` on the data directory the first start left. */
  existing: StartRun[];
  /** `billow start` on an empty data directory: creates, migrates, and makes the demo organization. */
  first: StartRun;
  postgres: StartRun[];
  /** `npm start` (it builds first) when nothing changed since the last build. */
  npmStart: StartRun[];
}

export interface StartCommand {
  label: string;
  script: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Stopped with its process group: `npm start` leaves its server running when only npm is stopped. */
  processGroup?: boolean;
}

/** Spawns `command` as a shell would, times it until it answers, optionally waits for it to idle, and stops it. */
async function timedStart(command: StartCommand, idleSeconds: number | null): Promise<StartRun> {
  const port = await freePort();
  const started = performance.now();
  const env = { ...command.env, PORT: String(port), HOST: '127.0.0.1' };
  const server = startNode(command.label, command.script, command.args, env, [], { youngGeneration: false, processGroup: command.processGroup ?? false });
  try {
    await waitUntilServing(server, `http://127.0.0.1:${port}/healthz`, START_TIMEOUT_MS, POLL_MS);
    const ms = performance.now() - started;
    if (idleSeconds === null) return { ms, idleMb: null };
    await sleep(idleSeconds * 1000);
    return { ms, idleMb: residentMbOf(server.child.pid) };
  } finally {
    await server.stop();
  }
}

/**
 * `runs` starts of `command`, each waiting `idleSeconds` before its memory is read: one reading
 * moves by tens of MB with the moment of the last garbage collection, their median much less.
 */
async function repeatedStarts(command: StartCommand, runs: number, idleSeconds: number | null): Promise<StartRun[]> {
  const results: StartRun[] = [];
  for (let run = 1; run <= runs; run++) results.push(await timedStart(command, idleSeconds));
  return results;
}

export interface StartCommands {
  bare: StartCommand;
  embedded: StartCommand;
  postgres: StartCommand;
  npmStart: StartCommand;
}

/** The embedded ones run in order: the first start makes the data directory the next ones open. */
export async function measureStarts(commands: StartCommands, runs: number, idleSeconds: number, say: (line: string) => void): Promise<StartResults> {
  say(`Start scenario: ${runs} starts of each, each left idle ${idleSeconds} s before its memory is read`);
  const bare = await repeatedStarts(commands.bare, runs, idleSeconds);
  const first = await timedStart(commands.embedded, idleSeconds);
  const existing = await repeatedStarts(commands.embedded, runs, idleSeconds);
  const postgres = await repeatedStarts(commands.postgres, runs, idleSeconds);
  const npmStart = await repeatedStarts(commands.npmStart, runs, null);
  return { idleSeconds, bare, existing, first, postgres, npmStart };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The median memory of the runs that idled; null where none could be read. */
function idleMbOf(runs: readonly StartRun[]): number | null {
  const read = runs.flatMap((run) => (run.idleMb === null ? [] : [run.idleMb]));
  return read.length === 0 ? null : median(read);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const megabytes = (mb: number | null) => (mb === null ? 'not measured (no /proc)' : `${Math.round(mb)} MB`);
const spread = (runs: readonly StartRun[]) => {
  const times = runs.map((run) => run.ms);
  return `${seconds(median(times))} (${seconds(Math.min(...times))} to ${seconds(Math.max(...times))})`;
};
const within = (mb: number | null, limit: number) => mb !== null && mb <= limit;

export function formatStartReport(r: StartResults): string {
  const bareMs = median(r.bare.map((run) => run.ms));
  const existingMs = median(r.existing.map((run) => run.ms));
  const npmMs = median(r.npmStart.map((run) => run.ms));
  const idle = { bare: idleMbOf(r.bare), existing: idleMbOf(r.existing), postgres: idleMbOf(r.postgres) };
  const figures = table(
    ['start, spawned to first answer (median, range)', 'time', `memory after ${r.idleSeconds} s idle (median)`],
    [
      ['bare Fastify process (the ceiling)', spread(r.bare), megabytes(idle.bare)],
      ['billow start, existing embedded data directory', spread(r.existing), megabytes(idle.existing)],
      ['billow start, new embedded data directory (first start)', seconds(r.first.ms), megabytes(r.first.idleMb)],
      ['billow start, PostgreSQL', spread(r.postgres), megabytes(idle.postgres)],
      ['npm start, nothing changed since the last build', spread(r.npmStart), '-'],
    ],
  );
  const ratios = table(
    ['ratio', 'value'],
    [
      ['start, existing embedded / bare Fastify', (existingMs / bareMs).toFixed(2)],
      [`start, existing embedded / ${START_TARGETS.existingDataDirMs / 1000} s target`, (existingMs / START_TARGETS.existingDataDirMs).toFixed(2)],
      [`npm start / ${START_TARGETS.npmStartMs / 1000} s target`, (npmMs / START_TARGETS.npmStartMs).toFixed(2)],
      ...(idle.existing !== null && idle.bare !== null ? [['idle memory, embedded / bare Fastify', (idle.existing / idle.bare).toFixed(2)]] : []),
    ],
  );
  const targets = [
    `billow start on an existing data directory answers within ${seconds(START_TARGETS.existingDataDirMs)}: ${seconds(existingMs)} -> ${verdict(existingMs <= START_TARGETS.existingDataDirMs)}`,
    `npm start with nothing to rebuild answers within ${seconds(START_TARGETS.npmStartMs)}: ${seconds(npmMs)} -> ${verdict(npmMs <= START_TARGETS.npmStartMs)}`,
    `Idle on the embedded database at most ${START_TARGETS.idleEmbeddedMb} MB: ${megabytes(idle.existing)} -> ${verdict(within(idle.existing, START_TARGETS.idleEmbeddedMb))}`,
    `Idle after a first start at most ${START_TARGETS.idleFirstStartMb} MB: ${megabytes(r.first.idleMb)} -> ${verdict(within(r.first.idleMb, START_TARGETS.idleFirstStartMb))}`,
    `Idle on PostgreSQL at most ${START_TARGETS.idlePostgresMb} MB: ${megabytes(idle.postgres)} -> ${verdict(within(idle.postgres, START_TARGETS.idlePostgresMb))}`,
  ];
  return ['', figures, '', ratios, '', 'Targets (start)', ...targets.map((t) => `  ${t}`), ''].join('\n');
}
