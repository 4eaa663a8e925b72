/**
 * db/schema.ts (the types every query is checked against) and the migrations (what the
 * database holds) are written by hand, side by side. This test migrates a database and
 * reads the hand-written interfaces with the TypeScript compiler: every table and column
 * of one is in the other, a column is nullable on both sides or neither, and its type is
 * of the same kind (issue 26, item 5).
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/connect.js';
import { openTestDatabase } from './harness.js';

const SCHEMA_FILE = fileURLToPath(new URL('../src/db/schema.ts', import.meta.url));

interface DeclaredColumn {
  /** The type a select gives, as written (ColumnType's first argument, Generated's argument). */
  selectType: string;
  nullable: boolean;
}

type Declared = Map<string, Map<string, DeclaredColumn>>;

/** The select type of a column type as written: wrappers (ColumnType, Generated, the file's aliases) unwrapped. */
function selectTypeOf(node: ts.TypeNode, aliases: Map<string, ts.TypeAliasDeclaration>): ts.TypeNode {
  if (!ts.isTypeReferenceNode(node)) return node;
  const name = node.typeName.getText();
  const first = node.typeArguments?.[0];
  if ((name === 'ColumnType' || name === 'Generated') && first) return selectTypeOf(first, aliases);
  const alias = aliases.get(name);
  if (!alias) return node;
  // A generic alias (Json<T>) is read as its body with T left as written: only its wrapper matters here.
  return selectTypeOf(alias.type, aliases);
}

function isNullable(node: ts.TypeNode): boolean {
  if (ts.isUnionTypeNode(node)) return node.types.some(isNullable);
  return node.kind === ts.SyntaxKind.NullKeyword || (ts.isLiteralTypeNode(node) && node.literal.kind === ts.SyntaxKind.NullKeyword);
}

function declaredSchema(): Declared {
  const source = ts.createSourceFile(SCHEMA_FILE, fs.readFileSync(SCHEMA_FILE, 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  const aliases = new Map<string, ts.TypeAliasDeclaration>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
    if (ts.isTypeAliasDeclaration(node)) aliases.set(node.name.text, node);
  });
  const tables: Declared = new Map();
  for (const member of interfaces.get('Database')!.members) {
    if (!ts.isPropertySignature(member) || !member.type) continue;
    const table = interfaces.get(member.type.getText());
    if (!table) throw new Error(`Database.${member.name.getText()} names ${member.type.getText()}, which is not an interface of schema.ts`);
    const columns = new Map<string, DeclaredColumn>();
    for (const column of table.members) {
      if (!ts.isPropertySignature(column) || !column.type) continue;
      const selected = selectTypeOf(column.type, aliases);
      columns.set(column.name.getText(), { selectType: selected.getText(), nullable: isNullable(selected) });
    }
    tables.set(member.name.getText(), columns);
  }
  return tables;
}

interface ActualColumn {
  table_name: string;
  column_name: string;
  is_nullable: 'YES' | 'NO';
  data_type: string;
}

/** What a select of a column of this database type gives in TypeScript, as schema.ts must write it. */
function kindOfDatabaseType(dataType: string): RegExp | null {
  if (dataType.startsWith('timestamp')) return /^(Date|Timestamp)\b/;
  if (dataType === 'boolean') return /^boolean\b/;
  if (dataType === 'integer' || dataType === 'smallint' || dataType === 'double precision') return /^number\b/;
  if (dataType === 'uuid' || dataType === 'text' || dataType.startsWith('character')) return /^(string\b|'|[A-Z]\w*$)/;
  // bigint (counters, sequences and minor units, read as numbers or strings), numeric, jsonb, arrays: their TypeScript
  // type is a choice of the parser or of the column's use, checked by the queries' own tests.
  return null;
}

let database: DatabaseHandle;
let declared: Declared;
let actual: Map<string, Map<string, ActualColumn>>;

beforeAll(async () => {
  database = await openTestDatabase();
  declared = declaredSchema();
  const { rows } = await sql<ActualColumn>`
    SELECT table_name, column_name, is_nullable, data_type FROM information_schema.columns
     WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`.execute(database.db);
  actual = new Map();
  for (const row of rows) {
    if (!actual.has(row.table_name)) actual.set(row.table_name, new Map());
    actual.get(row.table_name)!.set(row.column_name, row);
  }
});
afterAll(() => database?.close());

describe('db/schema.ts and the migrated database', () => {
  it('name the same tables', () => {
    expect([...declared.keys()].sort()).toEqual([...actual.keys()].sort());
  });

  it('give each table the same columns', () => {
    const differences: string[] = [];
    for (const [table, columns] of declared) {
      const real = actual.get(table) ?? new Map();
      for (const column of columns.keys()) if (!real.has(column)) differences.push(`${table}.${column} is declared but not in the database`);
      for (const column of real.keys()) if (!columns.has(column)) differences.push(`${table}.${column} is in the database but not declared`);
    }
    expect(differences).toEqual([]);
  });

  it('agree on which columns may be null, and on the kind of each column', () => {
    const differences: string[] = [];
    for (const [table, columns] of declared) {
      for (const [name, column] of columns) {
        const real = actual.get(table)?.get(name);
        if (!real) continue;
        if (column.nullable !== (real.is_nullable === 'YES')) {
          differences.push(`${table}.${name}: declared ${column.selectType}, the database says ${real.is_nullable === 'YES' ? 'NULL' : 'NOT NULL'}`);
        }
        const kind = kindOfDatabaseType(real.data_type);
        const written = column.selectType.replace(/\s*\|\s*null\b/g, '').trim();
        if (kind && !kind.test(written)) differences.push(`${table}.${name}: declared ${column.selectType}, the database holds ${real.data_type}`);
      }
    }
    expect(differences).toEqual([]);
  });
});
