/**
 * The server's source as the architecture tests read it: its files, each file's imports
 * (resolved, and told apart as value or type-only by the TypeScript parser), and the
 * tables each file writes with SQL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** The non-test TypeScript files under src/, as paths relative to it. */
export function sourceFiles(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path.relative(SRC, full)] : [];
  });
}

export interface SourceImport {
  /** The imported file, relative to src/. */
  target: string;
  /** `import type`, or every name imported `type`: nothing of it runs. */
  typeOnly: boolean;
}

const resolve = (file: string, specifier: string) => path.relative(SRC, path.resolve(SRC, path.dirname(file), specifier)).replace(/\.js$/, '.ts');

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly || (!!node.exportClause && ts.isNamedExports(node.exportClause) && node.exportClause.elements.every((e) => e.isTypeOnly));
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

const cache = new Map<string, SourceImport[]>();

/** The file's relative imports and re-exports, and its `import()` calls. */
export function importsOf(file: string): SourceImport[] {
  const known = cache.get(file);
  if (known) return known;
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(SRC, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const found: SourceImport[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (node.moduleSpecifier.text.startsWith('.')) found.push({ target: resolve(file, node.moduleSpecifier.text), typeOnly: isTypeOnly(node) });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) found.push({ target: resolve(file, specifier.text), typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  cache.set(file, found);
  return found;
}

/** The folder a file belongs to, as a node of the graph: `modules/<name>`, another folder of src/, or a root file. */
export function nodeOf(file: string): string {
  const parts = file.split(path.sep);
  if (parts[0] === 'modules' && parts.length > 2) return `modules/${parts[1]}`;
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.ts$/, '');
}

const WRITE = /\b(?:insertInto|updateTable|deleteFrom)\(\s*'([a-z_]+)'|\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)\b/g;

/** The tables a file writes, from its query builder calls and its SQL text. */
export function tablesWrittenBy(file: string): string[] {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8');
  return [...new Set([...text.matchAll(WRITE)].map((m) => (m[1] ?? m[2])!))];
}

/** Every table the migrations create. */
export function migratedTables(): string[] {
  const dir = path.join(SRC, 'db', 'migrations');
  const sqlText = fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
  const created = [...sqlText.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/g)].map((m) => m[1]!);
  const dropped = new Set([...sqlText.matchAll(/DROP TABLE (?:IF EXISTS )?([a-z_]+)/g)].map((m) => m[1]!));
  return [...new Set(created)].filter((t) => !dropped.has(t)).sort();
}
