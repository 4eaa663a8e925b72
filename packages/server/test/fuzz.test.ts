/**
 * Property-based fuzzing of every operation in Billow's own OpenAPI document:
 * seeded, bounded sets of malformed requests (wrong types, missing and extra
 * fields, NUL bytes, huge and negative numbers, deep nesting, long strings,
 * invalid JSON, wrong content types, malformed ids and escapes), with server,
 * client, partner, bogus and missing keys, in both environments. Any 5xx, or a
 * 4xx without `detail`, fails the test.
 *
 * CI runs FUZZ_RUNS (default 20) requests per operation with a fixed seed;
 * `npm run fuzz` runs a longer campaign with a random seed, printed so that a
 * failure can be replayed with FUZZ_SEED=<seed>.
 */
import http from 'node:http';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shop } from './commerce-support.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';
import { hostileValue, nestedText, urlText, validFor, valueFor, type JsonSchema } from './fuzz/arbitraries.js';

const RUNS = Number(process.env.FUZZ_RUNS || 20);
const SEED = process.env.FUZZ_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED || 20_261_124);

interface Operation {
  method: string;
  path: string;
  parameters: { in: 'path' | 'query'; name: string; schema: JsonSchema }[];
  body: JsonSchema | null;
}

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

let server: TestServer;
let org: TestOrg;
let partnerKey: string;
let operations: Operation[] = [];
/** Ids that exist, so that some requests get past the lookups. */
const known: string[] = [];
/** The same ids by what they name, for the sweep: the segment before a path parameter says which. */
const knownBySegment = new Map<string, string>();
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** How often each status was answered, printed at the end: a run that reaches no handler proves little. */
const statuses = new Map<number, number>();

function send(request: Sent): Promise<Answer> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method: request.method, path: request.path, headers: request.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        const contentType = String(res.headers['content-type'] ?? '');
        if (contentType.startsWith('text/event-stream')) {
          // A stream that stays open (GET /entitlements/changes/): its first event is its answer, then it is closed.
          res.once('data', (chunk: Buffer) => {
            const status = res.statusCode ?? 0;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            res.destroy();
            resolve({ status, contentType, text: chunk.toString('utf8') });
          });
          return;
        }
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          resolve({ status, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

async function readOperations(): Promise<Operation[]> {
  const document = (await server.request('GET', '/api/v1/openapi.json')).body as { paths: Record<string, Record<string, any>> };
  const found: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      found.push({
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters ?? []).filter((p: { in: string }) => p.in === 'path' || p.in === 'query'),
        body: operation.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return found;
}

/** Who asks: mostly the environment's own server key (to reach the handlers), sometimes anybody else. */
function credentialsFor(operation: Operation): fc.Arbitrary<string> {
  const partnerRoute = operation.path.startsWith('/api/v1/partner/');
  return fc.oneof(
    { weight: partnerRoute ? 1 : 6, arbitrary: fc.constant('own-server') },
    { weight: 2, arbitrary: fc.constant('own-client') },
    { weight: partnerRoute ? 6 : 1, arbitrary: fc.constant('partner') },
    { weight: 1, arbitrary: fc.constantFrom('other-server', 'bogus', 'none') },
  );
}

function headersFor(who: string, environment: 'sandbox' | 'production'): Record<string, string> {
  const other = environment === 'sandbox' ? 'production' : 'sandbox';
  switch (who) {
    case 'own-server':
      return { authorization: `Bearer ${org[environment].serverKey}` };
    case 'own-client':
      return { authorization: `Bearer ${org[environment].clientKey}` };
    case 'other-server':
      return { authorization: `Bearer ${org[other].serverKey}` };
    case 'partner':
      return { 'x-billow-partner-key': partnerKey };
    case 'bogus':
      return { authorization: `Bearer ${environment === 'sandbox' ? 'sk_test_' : 'sk_live_'}${'A'.repeat(40)}` };
    default:
      return {};
  }
}

/** The body as sent: JSON of a schema-shaped or hostile value, or text that is not JSON at all. */
function bodyFor(operation: Operation): fc.Arbitrary<{ text: string; contentType: string } | null> {
  if (operation.body === null && operation.method === 'GET') return fc.constant(null);
  const json = valueFor(operation.body ?? undefined, known).map((value) => ({ text: JSON.stringify(value) ?? 'null', contentType: 'application/json' }));
  const broken = fc.constantFrom(
    { text: '{', contentType: 'application/json' },
    { text: '{"a":\u0000}', contentType: 'application/json' },
    { text: '{"customerId":"a\\u0000b"}', contentType: 'application/json' },
    { text: `${'['.repeat(5_000)}${']'.repeat(5_000)}`, contentType: 'application/json' },
    { text: `{"metadata":${nestedText(5_000)},"customerId":"deep"}`, contentType: 'application/json' },
    { text: `{"customerId":"deep","name":${nestedText(5_000)}}`, contentType: 'application/json' },
    { text: 'customerId=a', contentType: 'application/x-www-form-urlencoded' },
    { text: '{}', contentType: 'text/plain' },
    { text: '{}', contentType: 'application/json; charset=latin1' },
    { text: '\u0000', contentType: 'application/json' },
  );
  return fc.oneof({ weight: 4, arbitrary: json }, { weight: 1, arbitrary: broken }, { weight: 1, arbitrary: fc.constant(null) });
}

function pathFor(operation: Operation): fc.Arbitrary<string> {
  const names = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const segment = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 2, arbitrary: hostileValue });
  return fc.tuple(...names.map(() => segment)).map((values) =>
    names.reduce((path, name, i) => path.replace(`{${name}}`, urlText(values[i])), operation.path),
  );
}

function queryFor(operation: Operation): fc.Arbitrary<string> {
  const declared = operation.parameters.filter((p) => p.in === 'query');
  const pairs = declared.map((p) =>
    fc.option(valueFor(p.schema, known).map((value) => `${p.name}=${urlText(value)}`), { nil: undefined }),
  );
  const extra = fc.option(fc.constantFrom('page=0', 'page_size=-1', 'page=99999999999', 'unknown=%00', 'a=%ZZ', 'search=\u0000'.replace('\u0000', '%00')), {
    nil: undefined,
  });
  return fc.tuple(fc.tuple(...pairs), extra).map(([chosen, more]) => {
    const parts = [...chosen, more].filter((part): part is string => part !== undefined);
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  });
}

function requestFor(operation: Operation): fc.Arbitrary<Sent> {
  return fc
    .record({
      // The known ids live in sandbox.
      environment: fc.oneof({ weight: 3, arbitrary: fc.constant('sandbox' as const) }, { weight: 1, arbitrary: fc.constant('production' as const) }),
      who: credentialsFor(operation),
      path: pathFor(operation),
      query: queryFor(operation),
      body: bodyFor(operation),
      idempotencyKey: fc.option(fc.constantFrom('k-1', 'x'.repeat(300), ''), { nil: undefined }),
    })
    .map(({ environment, who, path, query, body, idempotencyKey }) => {
      const headers = headersFor(who, environment);
      if (body) headers['content-type'] = body.contentType;
      if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
      const prefix = environment === 'sandbox' ? '/sandbox' : '';
      return { method: operation.method, path: `${prefix}${path}${query}`, headers, ...(body ? { body: body.text } : {}) };
    });
}

/** Why an answer is wrong, or null: never a 5xx; every error a JSON body with a `detail`. */
function problemWith(answer: Answer): string | null {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (answer.status < 400) return null;
  let body: { detail?: unknown } | null = null;
  try {
    body = JSON.parse(answer.text) as { detail?: unknown };
  } catch {
    return `answered ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200)}`;
  }
  if (typeof body?.detail !== 'string' || body.detail === '') return `answered ${answer.status} without a detail: ${answer.text.slice(0, 200)}`;
  return null;
}

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg('Fuzzed seller');
  partnerKey = await server.createPartnerKey();
  const s = await shop(server, org.sandbox.serverKey);
  const customerId = await s.customer();
  await s.card(customerId);
  const charge = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
  const subscription = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
  const orders = await s.call('GET', '/orders/');
  known.push(customerId, s.product.id, s.product.identifier, s.seats.id, s.seats.identifier, ...Object.values(s.plans));
  const order = orders.body.results[0] as { id: string; invoiceId: string };
  known.push(charge.body.id, subscription.body.id, order.id, order.invoiceId);
  for (const [segment, id] of Object.entries({
    products: s.product.id,
    features: s.seats.identifier,
    plans: s.plans.basic,
    customers: customerId,
    subscriptions: subscription.body.id as string,
    orders: order.id,
    invoices: order.invoiceId,
    'product-offering': s.product.id,
  })) {
    knownBySegment.set(segment, id);
  }
  operations = await readOperations();
  process.stdout.write(`fuzz: ${operations.length} operations, ${RUNS} requests each, seed ${SEED} (replay with FUZZ_SEED=${SEED})\n`);
});

afterAll(async () => {
  const summary = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
  process.stdout.write(`fuzz: answers by status: ${summary.join(', ')}\n`);
  agent.destroy();
  await server.close();
});

/** Values sent one at a time in place of each parameter and each top-level body field. */
const SWEEP_VALUES: unknown[] = [
  '\u0000',
  'a\u0000b',
  '%00',
  '%ZZ',
  '',
  '99999999999',
  99_999_999_999,
  2 ** 31,
  2 ** 53 + 2,
  -1,
  1e300,
  'x'.repeat(5_000),
  '\uD800',
  null,
  [],
  { a: { b: { c: { d: 1 } } } },
];

/** The operation's path with an existing id for each parameter (the segment before it says which), or the text given. */
function knownPath(operation: Operation, given: Record<string, string> = {}): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string, offset: number) => {
    if (name in given) return given[name]!;
    const before = operation.path.slice(0, offset).split('/').filter(Boolean).at(-1) ?? '';
    return encodeURIComponent(knownBySegment.get(before) ?? known[0]!);
  });
}

/** Every request of the sweep: one hostile value at a time, everything else as plausible as the schema makes it. */
function sweepOf(operation: Operation): Sent[] {
  const headers = { authorization: `Bearer ${org.sandbox.serverKey}`, 'content-type': 'application/json' };
  const sample = operation.body ? fc.sample(validFor(operation.body, known), { seed: SEED, numRuns: 1 })[0] : undefined;
  const shaped = sample !== null && typeof sample === 'object' && !Array.isArray(sample) ? (sample as Record<string, unknown>) : {};
  const bodyOf = (value: Record<string, unknown>) => (operation.method === 'GET' ? undefined : JSON.stringify(value));
  const fields = Object.keys((operation.body?.properties ?? {}) as Record<string, unknown>);
  const sent: Sent[] = [];
  for (const value of SWEEP_VALUES) {
    const text = urlText(value);
    for (const parameter of operation.parameters) {
      const path = knownPath(operation, parameter.in === 'path' ? { [parameter.name]: text } : {});
      const query = parameter.in === 'query' ? `?${parameter.name}=${text}` : '';
      sent.push({ method: operation.method, path: `/sandbox${path}${query}`, headers, body: bodyOf(shaped) });
    }
    for (const field of fields) {
      sent.push({ method: operation.method, path: `/sandbox${knownPath(operation)}`, headers, body: bodyOf({ ...shaped, [field]: value }) });
    }
  }
  return sent;
}

describe('fuzzing every operation of the OpenAPI document', () => {
  it('reads the operations from the document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(60);
  });

  it('answers each hostile value in each parameter and body field with a 4xx that says why, never a 5xx', async () => {
    const failures: string[] = [];
    for (const operation of operations) {
      for (const request of sweepOf(operation)) {
        const problem = problemWith(await send(request));
        if (problem) failures.push(`${operation.method} ${operation.path}: ${problem}\n  request: ${JSON.stringify({ ...request, body: request.body?.slice(0, 300) })}`);
      }
    }
    expect(failures, failures.slice(0, 20).join('\n')).toEqual([]);
  });

  it('never answers 5xx, and every 4xx has a detail', async () => {
    const failures: string[] = [];
    for (const operation of operations) {
      const result = await fc.check(
        fc.asyncProperty(requestFor(operation), async (request) => problemWith(await send(request)) === null),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      if (result.failed) {
        const request = result.counterexample?.[0] as Sent | undefined;
        const answer = request ? problemWith(await send(request)) : 'no counterexample';
        const shown = request ? { ...request, path: request.path.slice(0, 200), body: request.body?.slice(0, 200) } : null;
        failures.push(`${operation.method} ${operation.path}: ${answer}\n  request: ${JSON.stringify(shown)}`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('leaves every event its accepted requests wrote readable as JSON by the database', async () => {
    // A string PostgreSQL's `json` keeps but cannot read (a lone surrogate's escape) would
    // break every later query of the events table, not only this organization's.
    const read = sql<{ total: number; readable: number }>`
      SELECT count(*)::int AS total, count(payload::jsonb -> 'data')::int AS readable
        FROM events WHERE organization_id = ${org.organizationId}`.execute(server.database.db);
    const { rows } = await read.catch((error: Error) => {
      throw new Error(`an event written during the fuzz campaign cannot be read as JSON: ${error.message}`);
    });
    expect(rows[0]!.total).toBeGreaterThan(0);
    expect(rows[0]!.readable).toBe(rows[0]!.total);
  });
});
