import { operations, type Operation } from '@billow/contract';

/**
 * The code samples of the API reference at /docs: for every operation, the same call with
 * curl, with `@billow/sdk` and, where the official Kelviq client has the call, with it —
 * appended to the operation's description, which the reference page renders as Markdown.
 * The SDK's method names come from the contract's operation table, so they are the SDK's own.
 */

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; enum?: unknown[]; anyOf?: Schema[]; examples?: unknown[]; example?: unknown; items?: Schema; format?: string; const?: unknown; minimum?: number };
type OpenApiOperation = { description?: string; requestBody?: { content?: Record<string, { schema?: Schema }> } };
type Document = { paths?: Record<string, Record<string, OpenApiOperation>> };

/** Plausible values for path parameters and fields, by name. */
const SAMPLE_VALUES: Record<string, unknown> = {
  customerId: 'cus_ada',
  customer_id: 'cus_ada',
  identifier: 'pro',
  planIdentifier: 'pro',
  product_id: 'acme-app',
  product_pk: 'acme-app',
  pk: 'acme-app',
  feature_id: 'seats',
  featureId: 'seats',
  currency: 'EUR',
  subscriptionId: 'sub_01HZY8M4',
  licenseId: '6f1f5a3e-6a7b-4b8e-9f3a-2c1d0e9b7a55',
  instanceId: 'inst_laptop',
  externalId: 'acct_42',
  prefix: 'sk_test_AbCd1234',
  position: 0,
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  url: 'https://example.com/hooks/billow',
  chargePeriod: 'MONTHLY',
  value: 1,
};

/** A required `name`, by the resource it names. */
const NAMES: [prefix: string, name: string][] = [
  ['catalog.features', 'Seats'],
  ['catalog.products', 'Acme App'],
  ['catalog.plans', 'Pro'],
  ['discounts', 'Launch 20%'],
  ['promotions', 'Purchasing power parity'],
];

/** Code, not a value: printed as it is. */
class Code {
  constructor(readonly text: string) {}
}

/** The Kelviq client's call for each of its operations (its methods take one object, path parameters included). */
const OFFICIAL_CLIENT: Record<string, string> = {
  'customers.list': 'await client.customers.list({ page: 1, pageSize: 10 });',
  'customers.create': "await client.customers.create({ customerId: 'cus_ada', email: 'ada@example.com', name: 'Ada Lovelace' });",
  'customers.retrieve': "await client.customers.retrieve({ customerId: 'cus_ada' });",
  'customers.update': "await client.customers.update({ customerId: 'cus_ada', name: 'Ada King' });",
  'customers.archive': "await client.customers.archive({ customerId: 'cus_ada' });",
  'checkout.create': "await client.checkout.createSession({ planIdentifier: 'pro', chargePeriod: 'MONTHLY', successUrl: 'https://example.com/thanks', customerId: 'cus_ada' });",
  'entitlements.check': "await client.entitlements.hasAccess({ customerId: 'cus_ada', featureId: 'seats' });",
  'usage.report': "await client.reporting.reportUsage({ value: 1, customerId: 'cus_ada', featureId: 'api-calls', behaviour: 'DELTA' });",
  'usage.reportEvent': "await client.reporting.reportEvent({ customerId: 'cus_ada', eventName: 'export.created', idempotencyKey: 'evt_1' });",
  'subscriptions.list': "await client.subscriptions.list({ customerId: 'cus_ada' });",
  'subscriptions.retrieve': "await client.subscriptions.retrieve({ subscriptionId: 'sub_01HZY8M4' });",
  'subscriptions.create': "await client.subscriptions.create({ planIdentifier: 'pro', chargePeriod: 'MONTHLY', customerId: 'cus_ada' });",
  'subscriptions.update': "await client.subscriptions.update({ subscriptionId: 'sub_01HZY8M4', planIdentifier: 'team', chargePeriod: 'MONTHLY' });",
  'subscriptions.cancel': "await client.subscriptions.cancel({ subscriptionId: 'sub_01HZY8M4', cancellationType: 'CURRENT_PERIOD_ENDS' });",
  'charges.create': "await client.charges.create({ planIdentifier: 'credits-100', chargePeriod: 'ONE_TIME', customerId: 'cus_ada' });",
  'licenses.activate': "await client.license.activate({ licenseKey: 'K3Y-…', customerId: 'cus_ada', instanceName: 'laptop' });",
  'licenses.deactivate': "await client.license.deactivate({ licenseKey: 'K3Y-…', instanceId: 'inst_laptop' });",
  'licenses.validate': "await client.license.validate({ licenseKey: 'K3Y-…', instanceId: 'inst_laptop' });",
  'portal.createSession': "await client.portal.createSession({ customerId: 'cus_ada' });",
};

/** A sample value of a field of operation `of` (the SDK's name for it). */
function sampleOf(of: string, name: string, schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return null;
  if (name === 'name') {
    const named = NAMES.find(([prefix]) => of.startsWith(prefix));
    if (named) return named[1];
  }
  if (name in SAMPLE_VALUES) return SAMPLE_VALUES[name];
  if (schema.format === 'binary') return new Code("await openAsBlob('box-shot.png')");
  if (schema.examples?.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.anyOf?.length) return sampleOf(of, name, schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0], depth);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object') return requiredFields(of, schema, depth + 1);
  if (type === 'array') return [sampleOf(of, name, schema.items, depth + 1)];
  if (type === 'integer' || type === 'number') return Math.max(1, schema.minimum ?? 1);
  if (type === 'boolean') return true;
  if (schema.format === 'date-time') return '2026-12-01T00:00:00Z';
  return name === '' ? '…' : `${name}…`;
}

function requiredFields(of: string, schema: Schema, depth: number): Record<string, unknown> {
  const sample: Record<string, unknown> = {};
  for (const field of schema.required ?? []) sample[field] = sampleOf(of, field, schema.properties?.[field], depth);
  return sample;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A value as one would write it in TypeScript: `{ planIdentifier: 'pro', quantity: 1 }`. */
function literalOf(value: unknown): string {
  if (value instanceof Code) return value.text;
  if (Array.isArray(value)) return `[${value.map(literalOf).join(', ')}]`;
  if (value && typeof value === 'object') {
    const fields = Object.entries(value).map(([key, item]) => `${IDENTIFIER.test(key) ? key : `'${key}'`}: ${literalOf(item)}`);
    return fields.length ? `{ ${fields.join(', ')} }` : '{}';
  }
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return String(value);
}

const isEmpty = (value: unknown) => typeof value === 'object' && value !== null && Object.keys(value).length === 0;

function sdkCall(name: string, operation: Operation, body: unknown): string {
  const args = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => literalOf(SAMPLE_VALUES[match[1]!] ?? `${match[1]}…`));
  if (operation.body) args.push(literalOf(body));
  else if (operation.query) {
    const query = requiredFields(name, operation.query as Schema, 0);
    if (!isEmpty(query)) args.push(literalOf(query));
  }
  return `await billow.${name}(${args.join(', ')});`;
}

function curlOf(method: string, path: string, operation: Operation, body: unknown): string {
  const url = path.replace(/\{([^}]+)\}/g, (_, parameter: string) => encodeURIComponent(String(SAMPLE_VALUES[parameter] ?? `${parameter}…`)));
  const credential = operation.auth === 'partner' ? `-H "X-Billow-Partner-Key: $BILLOW_PARTNER_KEY"` : operation.auth === 'public' ? '' : `-H "Authorization: Bearer $BILLOW_KEY"`;
  const parts = [`curl -X ${method.toUpperCase()} "$BILLOW_URL${url}"`, credential].filter(Boolean);
  if (JSON.stringify(operation.body ?? {}).includes('"binary"')) parts.push(`-F 'file=@box-shot.png'`);
  else if (operation.body) parts.push(`-H 'Content-Type: application/json' -d '${JSON.stringify(body)}'`);
  return parts.join(' \\\n     ');
}

function samplesFor(name: string, method: string, path: string, operation: Operation, served: OpenApiOperation): string {
  const bodySchema = served.requestBody?.content?.['application/json']?.schema;
  const body = operation.body ? requiredFields(name, bodySchema ?? (operation.body as Schema), 0) : undefined;
  const blocks = [
    '**curl**',
    '```sh\n' + curlOf(method, path, operation, body) + '\n```',
    '**@billow/sdk**',
    '```ts\n' + sdkCall(name, operation, body) + '\n```',
  ];
  const official = OFFICIAL_CLIENT[name];
  if (official) blocks.push('**Official client (@kelviq/node-sdk)**', '```ts\n' + official + '\n```');
  return blocks.join('\n\n');
}

function eachOperation(table: object, prefix: string, visit: (name: string, operation: Operation) => void): void {
  for (const [key, value] of Object.entries(table)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if ('method' in value) visit(name, value as Operation);
    else eachOperation(value as object, name, visit);
  }
}

/** The document with every operation's code samples appended to its description. */
export function withCodeSamples<T extends Document>(document: T): T {
  eachOperation(operations, '', (name, operation) => {
    const path = `/api/v1${operation.path}`;
    const method = operation.method.toLowerCase();
    const served = document.paths?.[path]?.[method];
    if (!served) return;
    const samples = samplesFor(name, method, path, operation, served);
    served.description = served.description ? `${served.description}\n\n${samples}` : samples;
  });
  return document;
}

type Introduced = { info?: { description?: string } };

/** The reference's introduction: how to call the API, and the guides of docs/ (served at /docs/guides/). */
export function withIntroduction<T extends Introduced>(document: T, guides: { name: string; title: string }[]): T {
  const clients =
    '**Clients.** Every operation below shows the same call three ways: with curl (`BILLOW_URL` is this server, ' +
    '`BILLOW_KEY` a server key of the environment), with `@billow/sdk` (`const billow = new Billow({ apiKey, baseUrl })`, ' +
    'typed from the same schemas as this page) and, for the calls it has, with the official Kelviq client `@kelviq/node-sdk`, ' +
    'which works against Billow unchanged.';
  const links = guides.map((guide) => `[${guide.title.replace(/[[\]]/g, '')}](/docs/guides/${guide.name})`).join(' · ');
  const parts = [document.info?.description ?? '', clients, guides.length ? `**Guides.** ${links}` : ''].filter(Boolean);
  document.info = { ...document.info, description: parts.join('\n\n') };
  return document;
}
