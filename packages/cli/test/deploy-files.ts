/**
 * Reading the deployment files the way Docker and Compose would: the Dockerfile's last
 * stage as instructions, compose.yaml's services with their merged keys. Only the
 * instructions and keys that Billow's own files use are understood.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from './support.js';

export interface RunStage {
  env: Record<string, string>;
  workdir: string;
  /** `COPY --from=build <from> <to>`: paths of the build stage (its WORKDIR is the repository) and of this one. */
  copies: { from: string; to: string }[];
  runs: string[];
  user: string | null;
  entrypoint: string[];
  cmd: string[];
  healthcheck: string[];
}

/** The Dockerfile's instructions with continuation lines joined and comments dropped. */
function instructions(text: string): { keyword: string; rest: string }[] {
  const joined = text.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), rest: rest.join(' ') };
    });
}

/** `KEY=value KEY2=value2` of an ENV instruction (values without spaces, as ours are). */
function envPairs(rest: string): [string, string][] {
  return rest.split(/\s+/).map((pair) => {
    const at = pair.indexOf('=');
    return [pair.slice(0, at), pair.slice(at + 1)];
  });
}

/** The stage the image runs: the instructions after the Dockerfile's last FROM. */
export function runStage(file = path.join(REPO_ROOT, 'Dockerfile')): RunStage {
  const all = instructions(fs.readFileSync(file, 'utf8'));
  const lastFrom = all.map((i) => i.keyword).lastIndexOf('FROM');
  const stage: RunStage = { env: {}, workdir: '/', copies: [], runs: [], user: null, entrypoint: [], cmd: [], healthcheck: [] };
  for (const { keyword, rest } of all.slice(lastFrom + 1)) {
    if (keyword === 'ENV') Object.assign(stage.env, Object.fromEntries(envPairs(rest)));
    else if (keyword === 'WORKDIR') stage.workdir = rest;
    else if (keyword === 'USER') stage.user = rest;
    else if (keyword === 'RUN') stage.runs.push(rest);
    else if (keyword === 'ENTRYPOINT') stage.entrypoint = JSON.parse(rest) as string[];
    else if (keyword === 'CMD') stage.cmd = JSON.parse(rest) as string[];
    else if (keyword === 'HEALTHCHECK') stage.healthcheck = JSON.parse(rest.slice(rest.indexOf('CMD') + 3).trim()) as string[];
    else if (keyword === 'COPY') {
      const [from, ...paths] = rest.split(/\s+/);
      if (from !== '--from=build') throw new Error(`The run stage copies only from the build stage: COPY ${rest}`);
      const to = paths.pop()!;
      for (const source of paths) stage.copies.push({ from: source, to });
    } else if (!['VOLUME', 'EXPOSE'].includes(keyword)) throw new Error(`Instruction ${keyword} is not understood here`);
  }
  return stage;
}

export interface ComposeService {
  command: string[];
  environment: Record<string, string>;
  ports: string[];
}

/** compose.yaml's services, with `<<:` merges applied and `${NAME:-default}` left as written. */
export function composeServices(file = path.join(REPO_ROOT, 'compose.yaml')): Record<string, ComposeService> {
  const document = parse(fs.readFileSync(file, 'utf8'), { merge: true }) as { services: Record<string, Partial<ComposeService>> };
  return Object.fromEntries(
    Object.entries(document.services).map(([name, service]) => [
      name,
      { command: service.command ?? [], environment: service.environment ?? {}, ports: service.ports ?? [] },
    ]),
  );
}

/** A compose value with its `${NAME:-default}` and `${NAME:?message}` filled from `vars`. */
export function interpolated(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_all, name: string, kind?: string, fallback?: string) => {
    const given = vars[name];
    if (given !== undefined && given !== '') return given;
    if (kind === '-') return fallback ?? '';
    throw new Error(`compose.yaml needs ${name}: ${fallback}`);
  });
}
