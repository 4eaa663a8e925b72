/**
 * The shape of the source tree: folders depend on each other in one direction only.
 * A folder is a module (`src/modules/<name>`) or another folder of `src/` (http, db,
 * lib, use-cases, edge-cache, job-handlers); files at the root of `src/` (app.ts, config.ts, ...)
 * are each their own node: app.ts composes everything, config.ts depends on nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The folder a file belongs to, as a node of the graph. */
export function nodeOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  if (parts[0] === 'modules') return `modules/${parts[1]}`;
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.ts$/, '');
}

/** Folder-level imports, each with one file-level example. */
function folderEdges(): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const from = nodeOf(file);
    for (const match of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = path.resolve(path.dirname(file), match[1]!).replace(/\.js$/, '.ts');
      const to = nodeOf(target);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, `${path.relative(SRC, file)} imports ${match[1]}`);
    }
  }
  return edges;
}

/** Every cycle of the graph, found by depth-first search (each reported once, from its smallest node). */
function cycles(edges: Map<string, Map<string, string>>): string[][] {
  const found = new Map<string, string[]>();
  const walk = (start: string, node: string, trail: string[]) => {
    for (const next of edges.get(node)?.keys() ?? []) {
      if (next === start) {
        const cycle = [...trail, start];
        if (cycle.every((n) => n >= start)) found.set(cycle.join(' -> '), cycle);
      } else if (!trail.includes(next) && next > start) {
        walk(start, next, [...trail, next]);
      }
    }
  };
  for (const node of edges.keys()) walk(node, node, [node]);
  return [...found.values()];
}

/** File-level imports: each source file and the source files it imports. */
function fileEdges(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets = [...fs.readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => path.resolve(path.dirname(file), m[1]!).replace(/\.js$/, '.ts'));
    edges.set(file, targets.filter((target) => target !== file && fs.existsSync(target)));
  }
  return edges;
}

/** The groups of files that import each other, directly or around a loop (strongly connected components of more than one file; Tarjan). */
function fileCircles(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      group.push(path.relative(SRC, member));
      if (member === file) break;
    }
    if (group.length > 1) circles.push(group.sort());
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return circles;
}

describe('the import graph', () => {
  const edges = folderEdges();

  it('sees the tree: the modules and the folders beside them', () => {
    const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((to) => [...to.keys()])]);
    for (const expected of ['modules/ledger', 'modules/orders', 'modules/usage', 'modules/entitlements', 'http', 'db', 'use-cases']) {
      expect(nodes).toContain(expected);
    }
  });

  it('lets only the edges import src/http/: routes, the module.ts that wires them, app.ts and main.ts, and admin.ts, the command line edge (decision 0060)', () => {
    const isEdge = (relative: string) =>
      relative.split(path.sep)[0] === 'http' ||
      /routes\.ts$/.test(relative) ||
      path.basename(relative) === 'module.ts' ||
      relative === 'app.ts' ||
      relative === 'main.ts' ||
      // The command line is an edge too: `billow profile set` checks its body with the API's validator.
      relative === 'admin.ts';
    const offending = sourceFiles(SRC).flatMap((file) => {
      const relative = path.relative(SRC, file);
      if (isEdge(relative)) return [];
      const http = [...fs.readFileSync(file, 'utf8').matchAll(IMPORT)]
        .map((match) => path.relative(SRC, path.resolve(path.dirname(file), match[1]!)))
        .filter((target) => target.split(path.sep)[0] === 'http');
      return http.length > 0 ? [`${relative} imports ${http.join(', ')}`] : [];
    });
    expect(offending, `Services, repos, use cases and jobs speak in domain errors (src/lib/domain-error.ts):\n${offending.join('\n')}`).toEqual([]);
  });

  it('keeps the use cases above every module: no module imports use-cases/ (decision 0069)', () => {
    const offending = [...edges.entries()]
      .filter(([node, to]) => node.startsWith('modules/') && to.has('use-cases'))
      .map(([, to]) => to.get('use-cases')!);
    expect(offending, `A module reaches a use case through a port of its own, filled by app.ts:\n${offending.join('\n')}`).toEqual([]);
  });

  it('has no two folders that import each other, nor any longer cycle between folders', () => {
    const described = cycles(edges).map((cycle) =>
      cycle
        .slice(0, -1)
        .map((node, i) => `${node} -> ${cycle[i + 1]} (${edges.get(node)!.get(cycle[i + 1]!)})`)
        .join('\n  '),
    );
    expect(described, described.join('\n\n')).toEqual([]);
  });

  it('has no files that import each other, directly or around a loop', () => {
    const circles = fileCircles(fileEdges());
    expect(circles, circles.map((group) => group.join(', ')).join('\n')).toEqual([]);
  });
});
