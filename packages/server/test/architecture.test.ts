/**
 * docs/architecture.md holds against the code: its picture of the layers is the import graph
 * as it is, every table has the one module that writes it (and the few declared
 * co-writers), and each module file keeps to its role. BILLOW_WRITE_DOCS=1 redraws the
 * picture in the document instead of failing on it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../cli/test/support.js';
import { importsOf, migratedTables, nodeOf, sourceFiles, tablesWrittenBy } from './source-tree.js';

const DOC = path.join(REPO_ROOT, 'docs', 'architecture.md');
const doc = () => fs.readFileSync(DOC, 'utf8');
const files = sourceFiles();

/** Folder-level value and type imports: a folder stands above what it imports. */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = nodeOf(file);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const { target } of importsOf(file)) {
      const to = nodeOf(target);
      if (to !== from) graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** The graph without the arrows a longer path already implies: what a reader needs to see the layers. */
function reduced(graph: Map<string, Set<string>>): Array<[string, string]> {
  const reach = new Map<string, Set<string>>();
  const reachable = (node: string): Set<string> => {
    const known = reach.get(node);
    if (known) return known;
    const found = new Set<string>();
    reach.set(node, found);
    for (const next of graph.get(node) ?? []) {
      found.add(next);
      for (const beyond of reachable(next)) found.add(beyond);
    }
    return found;
  };
  const edges: Array<[string, string]> = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const implied = [...targets].some((other) => other !== to && reachable(other).has(to));
      if (!implied) edges.push([from, to]);
    }
  }
  return edges.sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
}

const id = (node: string) => node.replace(/^modules\//, 'm_').replace(/[^A-Za-z0-9_]/g, '_');
const label = (node: string) => (node === 'modules' ? 'modules/context' : node.replace(/^modules\//, ''));

function mermaid(): string {
  const graph = folderGraph();
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flatMap((s) => [...s])])].sort();
  const lines = ['```mermaid', 'flowchart TB'];
  for (const node of nodes) lines.push(`  ${id(node)}["${label(node)}"]`);
  for (const [from, to] of reduced(graph)) lines.push(`  ${id(from)} --> ${id(to)}`);
  lines.push('```');
  return lines.join('\n');
}

const START = '<!-- import-graph: drawn by packages/server/test/architecture.test.ts -->';
const END = '<!-- import-graph end -->';

describe('docs/architecture.md', () => {
  it('draws the import graph as it is', () => {
    const text = doc();
    const [before, rest] = text.split(START) as [string, string?];
    expect(rest, `docs/architecture.md lacks the marker ${START}`).toBeDefined();
    const after = rest!.slice(rest!.indexOf(END));
    const drawn = `${START}\n${mermaid()}\n`;
    if (process.env.BILLOW_WRITE_DOCS === '1') fs.writeFileSync(DOC, `${before}${drawn}${after}`);
    expect(`${START}${rest!.slice(0, rest!.indexOf(END))}`, 'the picture is out of date: run the test with BILLOW_WRITE_DOCS=1').toBe(drawn);
  });

  it('names the one module that writes each table, and the code writes no table of another module', () => {
    const owners = new Map<string, { owner: string; also: string[] }>();
    for (const match of doc().matchAll(/^\| `([a-z_]+)` \| ([a-z-]+) \| ([^|]*)\|/gm)) {
      owners.set(match[1]!, { owner: match[2]!, also: [...match[3]!.matchAll(/\b([a-z-]+) \(/g)].map((m) => m[1]!) });
    }
    const unlisted = migratedTables().filter((table) => !owners.has(table) && table !== 'schema_migrations');
    expect(unlisted, 'tables without an owner in docs/architecture.md').toEqual([]);
    const trespasses = files.flatMap((file) =>
      tablesWrittenBy(file).flatMap((table) => {
        const entry = owners.get(table);
        const writer = nodeOf(file).replace(/^modules\//, '');
        if (!entry || entry.owner === writer || entry.also.includes(writer)) return [];
        return [`${file} writes ${table}, which ${entry.owner} owns`];
      }),
    );
    expect(trespasses).toEqual([]);
  });
});

/** A module file's role, from its name (docs/architecture.md, "The files of a module"). */
function roleOf(file: string): string | null {
  if (!file.startsWith('modules/')) return null;
  const name = path.basename(file);
  if (name === 'repo.ts' || file.split(path.sep).includes('repo')) return 'repo';
  if (name.endsWith('.compute.ts')) return 'compute';
  if (name === 'routes.ts' || name.endsWith('-routes.ts')) return 'routes';
  if (name === 'errors.ts') return 'errors';
  if (name === 'view.ts') return 'view';
  return 'other';
}

const valueImports = (file: string) => importsOf(file).filter((i) => !i.typeOnly).map((i) => i.target);

/** Whether running `file` can reach the database: db/ (but its types), a repo, a service, or whatever imports them. */
function reachesDatabase(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  if (file.startsWith(`db${path.sep}`) && file !== path.join('db', 'schema.ts')) return true;
  if (roleOf(file) === 'repo' || /service\.ts$/.test(file)) return true;
  return valueImports(file).some((target) => reachesDatabase(target, seen));
}

describe('the files of a module keep to their roles', () => {
  const offences = (role: string, rule: (file: string) => string[]) => files.filter((f) => roleOf(f) === role).flatMap(rule);

  it('routes call services, never a repo', () => {
    expect(offences('routes', (f) => valueImports(f).filter((t) => roleOf(t) === 'repo').map((t) => `${f} imports ${t}`))).toEqual([]);
  });

  it('compute files are pure: nothing they run reaches the database', () => {
    expect(offences('compute', (f) => (reachesDatabase(f) ? [`${f} reaches the database`] : []))).toEqual([]);
  });

  it('repos import only the database, lib/, other repos and queries, and pure files', () => {
    const allowed = (t: string) => t.startsWith(`db${path.sep}`) || t.startsWith(`lib${path.sep}`) || ['repo', 'compute', 'errors'].includes(roleOf(t) ?? '') || t.endsWith('queries.ts');
    expect(offences('repo', (f) => valueImports(f).filter((t) => !allowed(t)).map((t) => `${f} imports ${t}`))).toEqual([]);
  });

  it('errors files import only the domain error and other errors files', () => {
    const allowed = (t: string) => t === path.join('lib', 'domain-error.ts') || roleOf(t) === 'errors';
    expect(offences('errors', (f) => valueImports(f).filter((t) => !allowed(t)).map((t) => `${f} imports ${t}`))).toEqual([]);
  });

  it('views never call services or routes', () => {
    expect(offences('view', (f) => valueImports(f).filter((t) => /service\.ts$|routes\.ts$/.test(t)).map((t) => `${f} imports ${t}`))).toEqual([]);
  });
});
