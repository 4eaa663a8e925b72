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
    const text = problem(at, path, wordsOf(error));
    if (seen.has(text) || error.keyword === 'anyOf') return [];
    seen.add(text);
    return [text];
  });
}

function wordsOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${String(params.missingProperty)} is missing`;
  if (error.keyword === 'additionalProperties') return `unknown field ${String(params.additionalProperty)}`;
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
    throw new CatalogFileError(file, document.errors.map((e) => `${file}:${e.linePos?.[0]?.line ?? 1}: ${e.message.split('\n')[0]}`));
  }
  if (!isCollection(document.contents)) throw new CatalogFileError(file, [`${file}:1: expected a mapping with catalogVersion: 1`]);
  const value: unknown = document.toJS();
  const problems = schemaProblems(at, value);
  if (problems.length > 0) throw new CatalogFileError(file, problems);
  const catalog = value as CatalogFile;
  const more = referenceProblems(catalog).map(([path, message]) => problem(at, path, message));
  if (more.length > 0) throw new CatalogFileError(file, more);
  return catalog;
}

type Found = [Path, string];

function duplicates<T>(items: readonly T[] | undefined, key: (item: T) => string, path: Path, what: string): Found[] {
  const seen = new Set<string>();
  return (items ?? []).flatMap((item, index): Found[] => {
    const name = key(item);
    if (!seen.has(name)) {
      seen.add(name);
      return [];
    }
    return [[[...path, index], `duplicate ${what} "${name}": each may appear once`]];
  });
}

/** Keys given twice, and references to entries the file does not have. */
function referenceProblems(catalog: CatalogFile): Found[] {
  const products = new Set((catalog.products ?? []).map((p) => p.identifier));
  const features = new Set((catalog.features ?? []).map((f) => f.identifier));
  const plans = new Set((catalog.plans ?? []).map((p) => p.identifier));
  const unknown = (set: Set<string>, name: string, what: string, path: Path): Found[] =>
    set.has(name) ? [] : [[path, `unknown ${what} "${name}": the file has no ${what} with this identifier`]];
  const found: Found[] = [
    ...duplicates(catalog.products, (p) => p.identifier, ['products'], 'product identifier'),
    ...duplicates(catalog.features, (f) => f.identifier, ['features'], 'feature identifier'),
    ...duplicates(catalog.plans, (p) => p.identifier, ['plans'], 'plan identifier'),
    ...duplicates(catalog.discounts, (d) => d.code.toUpperCase(), ['discounts'], 'discount code'),
    ...duplicates(catalog.promotions, (p) => p.name, ['promotions'], 'promotion name'),
  ];
  (catalog.plans ?? []).forEach((plan, p) => {
    const at: Path = ['plans', p];
    found.push(...unknown(products, plan.product, 'product', [...at, 'product']));
    found.push(...duplicates(plan.prices, (price) => price.currency, [...at, 'prices'], 'price currency'));
    found.push(...duplicates(plan.entitlements, (e) => e.feature, [...at, 'entitlements'], 'entitlement of feature'));
    (plan.entitlements ?? []).forEach((e, i) => found.push(...unknown(features, e.feature, 'feature', [...at, 'entitlements', i, 'feature'])));
    (plan.prices ?? []).forEach((price, i) =>
      (price.chargeCatalogPrice ?? []).forEach((charge, c) => {
        if (charge.feature) found.push(...unknown(features, charge.feature, 'feature', [...at, 'prices', i, 'chargeCatalogPrice', c, 'feature']));
      }),
    );
  });
  (catalog.discounts ?? []).forEach((discount, d) => {
    const at: Path = ['discounts', d, 'restrictions'];
    (discount.restrictions?.plans ?? []).forEach((name, i) => found.push(...unknown(plans, name, 'plan', [...at, 'plans', i])));
    (discount.restrictions?.products ?? []).forEach((name, i) => found.push(...unknown(products, name, 'product', [...at, 'products', i])));
  });
  (catalog.promotions ?? []).forEach((promotion, p) => {
    found.push(...unknown(products, promotion.product, 'product', ['promotions', p, 'product']));
    (promotion.plans ?? []).forEach((name, i) => found.push(...unknown(plans, name, 'plan', ['promotions', p, 'plans', i])));
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
