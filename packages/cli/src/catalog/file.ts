/**
 * Reading and writing the catalog file (decision 0109): YAML checked against the published
 * JSON Schema, then for what a schema cannot say (duplicate keys, references to products,
 * features and plans the file does not have). Every problem names the file's line.
 */
import fs from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { CatalogFile, catalogFileJsonSchema } from '@billow/contract';
import { LineCounter, isCollection, parseDocument, stringify, type Document } from 'yaml';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

/** A file that cannot be applied, with every problem found (each with its line). */
export class CatalogFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file} is not a valid catalog, nothing was changed:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

type Path = (string | number)[];

interface Located {
  document: Document;
  lines: LineCounter;
  file: string;
}

function lineOf(at: Located, path: Path): number {
  for (let length = path.length; length >= 0; length -= 1) {
    const node = length === 0 ? at.document.contents : at.document.getIn(path.slice(0, length), true);
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    if (range) return at.lines.linePos(range[0]).line;
  }
  return 1;
}

const pathText = (path: Path) => path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');

function problem(at: Located, path: Path, message: string): string {
  return `${at.file}:${lineOf(at, path)}: ${path.length ? `${pathText(path)}: ` : ''}${message}`;
}

let validate: ReturnType<Ajv['compile']> | undefined;

function schemaProblems(at: Located, value: unknown): string[] {
  validate ??= addFormats(new Ajv({ allErrors: true, strict: false })).compile(CatalogFile);
  if (validate(value)) return [];
  const seen = new Set<string>();
  return (validate.errors ?? []).flatMap((error) => {
    const path: Path = error.instancePath.split('/').slice(1).map((part) => (/^\d+$/.test(part) ? Number(part) : part.replace(/~1/g, '/').replace(/~0/g, '~')));
    const extra = (error.params as { additionalProperty?: string }).additionalProperty;
    const text = problem(at, extra === undefined ? path : [...path, extra], wordsOf(error));
    if (seen.has(text) || error.keyword === 'anyOf') return [];
    seen.add(text);
    return [text];
  });
}

function wordsOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${String(params.missingProperty)} is missing`;
  if (error.keyword === 'additionalProperties') return 'unknown field';
  if (error.keyword === 'enum') return `${error.message ?? 'must be one of'}: ${(params.allowedValues as unknown[]).join(', ')}`;
  return error.message ?? error.keyword;
}

/** Reads and checks a catalog file; throws CatalogFileError listing every problem. */
export function readCatalogFile(file: string): CatalogFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CatalogFileError(file, [`cannot be read: ${error instanceof Error ? error.message : String(error)}`]);
  }
  return parseCatalog(file, text);
}

export function parseCatalog(file: string, text: string): CatalogFile {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const at: Located = { document, lines, file };
  if (document.errors.length > 0) {
    throw new CatalogFileError(file, document.errors.map((e) => `${file}:${lines.linePos(e.pos[0]).line}: ${e.message.split('\n')[0]}`));
  }
  if (!isCollection(document.contents)) throw new CatalogFileError(file, [`${file}:1: expected a mapping with catalogVersion: 1`]);
  const value: unknown = document.toJS();
  const problems = [...schemaProblems(at, value), ...referenceProblems(value as Entry).map(([path, message]) => problem(at, path, message))];
  if (problems.length > 0) throw new CatalogFileError(file, problems.sort(byLine));
  return value as CatalogFile;
}

const lineNumber = (text: string) => Number(/:(\d+):/.exec(text)?.[1] ?? 0);
const byLine = (a: string, b: string) => lineNumber(a) - lineNumber(b);

type Found = [Path, string];

/** Entries of a list that may be anything (the schema's problems are reported on their own). */
const entries = <T>(list: unknown): T[] => (Array.isArray(list) ? list.filter((item): item is T => typeof item === 'object' && item !== null) : []);
const text = (value: unknown) => (typeof value === 'string' ? value : '');

type Entry = Record<string, unknown>;

function duplicates(list: unknown, key: string, path: Path, what: string, fold: (name: string) => string = (name) => name): Found[] {
  const seen = new Set<string>();
  return entries<Entry>(list).flatMap((item, index): Found[] => {
    const name = text(item[key]);
    if (!name || !seen.has(fold(name))) {
      seen.add(fold(name));
      return [];
    }
    return [[[...path, index], `duplicate ${what} "${name}": each may appear once`]];
  });
}

/** Keys given twice, and references to entries the file does not have (the file's shape may be wrong: checked loosely). */
function referenceProblems(catalog: Entry): Found[] {
  const keys = (list: unknown) => new Set(entries<Entry>(list).map((item) => text(item.identifier)));
  const known = { product: keys(catalog.products), feature: keys(catalog.features), plan: keys(catalog.plans) };
  const check = (what: keyof typeof known, name: unknown, path: Path): Found[] =>
    typeof name !== 'string' || known[what].has(name) ? [] : [[path, `unknown ${what} "${name}": the file has no ${what} with this identifier`]];
  const found: Found[] = [
    ...duplicates(catalog.products, 'identifier', ['products'], 'product identifier'),
    ...duplicates(catalog.features, 'identifier', ['features'], 'feature identifier'),
    ...duplicates(catalog.plans, 'identifier', ['plans'], 'plan identifier'),
    ...duplicates(catalog.discounts, 'code', ['discounts'], 'discount code', (code) => code.toUpperCase()),
    ...duplicates(catalog.promotions, 'name', ['promotions'], 'promotion name'),
  ];
  entries<Entry>(catalog.plans).forEach((plan, p) => {
    const at: Path = ['plans', p];
    found.push(...check('product', plan.product, [...at, 'product']));
    found.push(...duplicates(plan.prices, 'currency', [...at, 'prices'], 'price currency'));
    found.push(...duplicates(plan.entitlements, 'feature', [...at, 'entitlements'], 'entitlement of feature'));
    entries<Entry>(plan.entitlements).forEach((e, i) => found.push(...check('feature', e.feature, [...at, 'entitlements', i, 'feature'])));
    entries<Entry>(plan.prices).forEach((price, i) =>
      entries<Entry>(price.chargeCatalogPrice).forEach((charge, c) => found.push(...check('feature', charge.feature, [...at, 'prices', i, 'chargeCatalogPrice', c, 'feature']))),
    );
  });
  entries<Entry>(catalog.discounts).forEach((discount, d) => {
    const at: Path = ['discounts', d, 'restrictions'];
    const restrictions = (discount.restrictions ?? {}) as Entry;
    (Array.isArray(restrictions.plans) ? restrictions.plans : []).forEach((name, i) => found.push(...check('plan', name, [...at, 'plans', i])));
    (Array.isArray(restrictions.products) ? restrictions.products : []).forEach((name, i) => found.push(...check('product', name, [...at, 'products', i])));
  });
  entries<Entry>(catalog.promotions).forEach((promotion, p) => {
    found.push(...check('product', promotion.product, ['promotions', p, 'product']));
    (Array.isArray(promotion.plans) ? promotion.plans : []).forEach((name, i) => found.push(...check('plan', name, ['promotions', p, 'plans', i])));
  });
  return found;
}

/** The schema's name beside a catalog file, which the file's first line points editors to. */
export const SCHEMA_FILE = 'billow-catalog.schema.json';

/** The file's text: the schema line, then the catalog as YAML. */
export function catalogText(catalog: unknown): string {
  return `# yaml-language-server: $schema=./${SCHEMA_FILE}\n${stringify(catalog, { lineWidth: 0 })}`;
}

export function schemaText(): string {
  return `${JSON.stringify(catalogFileJsonSchema(), null, 2)}\n`;
}
