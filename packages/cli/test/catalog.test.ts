/**
 * `billow catalog pull|diff|apply|promote` (issue 31) against a live Billow: the CLI talks
 * to the server through its API only, so each run is a quick process (no database opened).
 * The tests build on one another, in order, on one server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kelviq } from '@kelviq/node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { api, assertBuilt, makeWorkspace, printedCredentials, runCli, startServer, type OrganizationKeys, type StartedServer, type Workspace } from './support.js';

let workspace: Workspace;
let server: StartedServer;
let keys: OrganizationKeys;
let env: NodeJS.ProcessEnv;
let dir: string;

beforeAll(async () => {
  assertBuilt();
  workspace = await makeWorkspace({ emptyDatabase: true });
  server = await startServer(workspace);
  keys = printedCredentials(server.stdout());
  env = { ...workspace.env, BILLOW_BASE_URL: server.url, BILLOW_SANDBOX_KEY: keys.sandbox.serverKey, BILLOW_PRODUCTION_KEY: keys.production.serverKey };
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'billow-catalog-'));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await workspace?.cleanup();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const file = (name: string) => path.join(dir, name);
const catalog = (args: string[]) => runCli(['catalog', ...args], env);
const sandbox = (method: string, route: string, body?: unknown) => api(`${server.sandboxUrl}/api/v1${route}`, method, { key: keys.sandbox.serverKey, body });
const production = (method: string, route: string, body?: unknown) => api(`${server.url}/api/v1${route}`, method, { key: keys.production.serverKey, body });

async function ok(call: Promise<{ status: number; body: unknown }>): Promise<any> {
  const answer = await call;
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body;
}

async function succeeds(args: string[]): Promise<string> {
  const result = await catalog(args);
  expect(result.code, `billow catalog ${args.join(' ')}\n${result.stderr}${result.stdout}`).toBe(0);
  return result.stdout;
}

/** A catalog built request by request, as a seller without the CLI does. */
async function buildSandboxCatalog(): Promise<void> {
  await ok(sandbox('POST', '/catalog/products/', { name: 'Acme Analytics', identifier: 'acme', taxCode: 'saas', description: 'Dashboards' }));
  await ok(sandbox('PATCH', '/catalog/products/acme/settings/', { currency: 'EUR', productUrl: 'https://acme.example' }));
  await ok(sandbox('POST', '/catalog/features/', { name: 'Audit log', identifier: 'audit-log', featureType: 'BOOLEAN' }));
  await ok(sandbox('POST', '/catalog/features/', { name: 'Projects', identifier: 'projects', featureType: 'CUSTOMIZABLE' }));
  await ok(sandbox('POST', '/catalog/features/', {
    name: 'Events', identifier: 'events', featureType: 'METER',
    featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'event', plural: 'events' } },
  }));
  await ok(sandbox('POST', '/catalog/plans/', {
    name: 'Pro', identifier: 'pro', product: 'acme', metadata: { tier: 2 },
    license: { enabled: true, activationLimit: 3, activationLimitEnabled: true },
    links: [{ name: 'Docs', url: 'https://acme.example/docs' }],
  }));
  await ok(sandbox('POST', '/catalog/plans/pro/prices/bulk/', {
    prices: [
      {
        priceType: 'PAID', currency: 'USD', freeTrial: true, trialPeriod: 14,
        chargeCatalogPrice: [
          { charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 29 } }] },
          {
            feature: 'events', priceModel: 'TIERED', paymentType: 'PAY_AS_YOU_GO',
            charges: [{ chargePeriod: 'MONTHLY', tiers: [{ upTo: 1000, unitAmount: 0.1 }, { upTo: 'inf', unitAmount: 0.05 }] }],
          },
        ],
      },
      { priceType: 'PAID', currency: 'EUR', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 27 } }, { chargePeriod: 'YEARLY', priceData: { amount: 270 } }] }] },
    ],
  }));
  await ok(sandbox('POST', '/catalog/plans/pro/features/', {
    planEntitlements: [
      { feature: 'audit-log', details: { value: true } },
      { feature: 'projects', details: { value: 10 } },
      { feature: 'events', details: { value: 100000, hardLimit: true } },
    ],
  }));
  await ok(sandbox('POST', '/catalog/plans/pro/publish/', {}));
  await ok(sandbox('POST', '/catalog/plans/', { name: 'Team', identifier: 'team', product: 'acme' }));
  await ok(sandbox('POST', '/discounts/', {
    name: 'Launch week', code: 'LAUNCH20', discountType: 'PERCENTAGE', percentOff: 20, durationInCycles: 3,
    expiresAt: '2030-01-01T00:00:00Z', restrictions: { planIdentifiers: ['pro'] },
  }));
  await ok(sandbox('POST', '/discounts/', {
    name: 'Five off', code: 'FIVE', discountType: 'FIXED_AMOUNT', duration: 'ONCE',
    amountsOff: [{ currency: 'USD', amount: 5 }], restrictions: { productIds: ['acme'] },
  }));
  await ok(sandbox('POST', '/promotion-rules/', {
    name: 'Fair prices', productId: 'acme', couponCode: 'FAIR',
    pppDiscounts: [{ group: 3, percentage: 20 }, { group: 4, percentage: 40 }], countryOverrides: [{ countryCode: 'IN', percentage: 50 }],
  }));
}

describe('billow catalog', () => {
  it('round trip: an environment built through the API, pulled, applied to an empty one and pulled again gives the same file', async () => {
    await buildSandboxCatalog();
    expect(await succeeds(['pull', '--env', 'sandbox', '--file', file('catalog.yaml')])).toMatch(/1 product\(s\), 3 feature\(s\), 2 plan\(s\), 2 discount\(s\), 1 promotion\(s\)/);
    const pulled = fs.readFileSync(file('catalog.yaml'), 'utf8');
    expect(pulled.split('\n')[0]).toBe('# yaml-language-server: $schema=./billow-catalog.schema.json');
    expect(JSON.parse(fs.readFileSync(file('billow-catalog.schema.json'), 'utf8'))).toMatchObject({ title: 'Billow catalog', type: 'object' });
    expect(pulled).toContain('published: false'); // team was never published

    expect((await ok(production('GET', '/catalog/products/'))).count).toBe(0);
    const applied = await succeeds(['apply', '--env', 'production', '--file', file('catalog.yaml')]);
    expect(applied).toContain('+ create plan pro → publishes version 1');
    expect(applied).toContain('Applied 9 change(s) to production');

    await succeeds(['pull', '--env', 'production', '--file', file('production.yaml')]);
    expect(fs.readFileSync(file('production.yaml'), 'utf8')).toBe(pulled);
    const prices = await ok(production('GET', '/catalog/plans/pro/prices/'));
    expect(prices.results.find((p: any) => p.currency === 'USD').chargeCatalogPrice[0].charges[0].priceData.amount).toBe(29);
  });

  it('apply twice: the second run changes nothing, and diff --exit-code says so with 0', async () => {
    const again = JSON.parse(await succeeds(['apply', '--env', 'production', '--file', file('catalog.yaml'), '--json']));
    expect(again).toEqual({ environment: 'production', applied: [], migratedSubscriptions: 0 });
    expect(await succeeds(['diff', '--env', 'production', '--file', file('catalog.yaml'), '--exit-code'])).toMatch(/^No changes: production/);
    expect((await ok(production('GET', '/catalog/plans/pro/versions/'))).count).toBe(1);
  });

  it('a price change makes a new version; the existing subscriber keeps theirs (never), then moves with now', async () => {
    const client = new Kelviq({ accessToken: keys.sandbox.serverKey, environment: 'sandbox', baseUrl: server.sandboxUrl, edgeApiUrl: server.sandboxUrl, logger: false });
    await client.customers.create({ customerId: 'cus_ada', email: 'ada@example.com' });
    const card = await ok(sandbox('POST', '/payment-methods/', { customerId: 'cus_ada', cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2035, cvc: '123' }));
    await ok(sandbox('POST', `/payment-methods/${card.id}/default/`));
    await ok(sandbox('POST', '/subscriptions/create/', { planIdentifier: 'pro', chargePeriod: 'MONTHLY', customerId: 'cus_ada', currencyCode: 'USD' }));

    const text = fs.readFileSync(file('catalog.yaml'), 'utf8');
    const changed = text.replace(/amount: 29\n/, 'amount: 35\n').replace(/value: 100000\n/, 'value: 250000\n');
    expect(changed).not.toBe(text);
    fs.writeFileSync(file('catalog.yaml'), changed);

    const diff = await catalog(['diff', '--env', 'sandbox', '--file', file('catalog.yaml'), '--exit-code', '--json']);
    expect(diff.code, diff.stderr).toBe(1);
    expect(JSON.parse(diff.stdout).changes).toEqual([
      {
        kind: 'plan', key: 'pro', action: 'update', publishes: 2,
        fields: [
          { path: 'prices.USD.chargeCatalogPrice[0].charges[0].priceData.amount', from: 29, to: 35 },
          { path: 'entitlements.events.value', from: 100000, to: 250000 },
        ],
      },
    ]);

    const applied = await succeeds(['apply', '--env', 'sandbox', '--file', file('catalog.yaml')]);
    expect(applied).toContain('~ update plan pro → publishes version 2');
    expect(applied).toContain('prices.USD.chargeCatalogPrice[0].charges[0].priceData.amount: 29 → 35');
    expect(applied).toContain('entitlements.events.value: 100000 → 250000');
    expect(applied).toContain('Applied 1 change(s) to sandbox');
    const versions = (await ok(sandbox('GET', '/catalog/plans/pro/versions/'))).results.map((v: any) => [v.version, v.status]);
    expect(versions).toEqual([[2, 'published'], [1, 'superseded']]);
    const [kept] = (await ok(sandbox('GET', '/subscriptions/?customer_id=cus_ada'))).results;
    expect(kept).toMatchObject({ planVersion: 1, amount: '29.00' });
    expect(await client.entitlements.getEntitlement({ customerId: 'cus_ada', featureId: 'events' })).toMatchObject({ hasAccess: true, usageLimit: 100000 });

    const moved = await catalog(['apply', '--env', 'sandbox', '--file', file('catalog.yaml'), '--migrate-subscribers', 'now']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain('Moved 1 subscription(s) to the versions on sale.');
    const [now] = (await ok(sandbox('GET', '/subscriptions/?customer_id=cus_ada'))).results;
    expect(now).toMatchObject({ planVersion: 2, amount: '35.00' });
    expect(await client.entitlements.getEntitlement({ customerId: 'cus_ada', featureId: 'events' })).toMatchObject({ usageLimit: 250000 });
  });

  it('apply refuses an environment changed since the last diff, unless --force', async () => {
    await succeeds(['diff', '--env', 'production', '--file', file('production.yaml')]);
    await ok(production('PATCH', '/catalog/products/acme/', { name: 'Renamed behind our back' }));
    const refused = await catalog(['apply', '--env', 'production', '--file', file('production.yaml')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/production \(.*\) changed since the last diff .*--force/);
    expect((await ok(production('GET', '/catalog/products/acme/'))).name).toBe('Renamed behind our back');
    expect(await succeeds(['apply', '--env', 'production', '--file', file('production.yaml'), '--force'])).toContain('name: "Renamed behind our back" → "Acme Analytics"');
    expect((await ok(production('GET', '/catalog/products/acme/'))).name).toBe('Acme Analytics');
  });

  it('promote copies the sandbox catalog into production after showing the diff', async () => {
    await ok(sandbox('POST', '/catalog/plans/team/prices/bulk/', { prices: [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 99 } }] }] }] }));
    await ok(sandbox('POST', '/catalog/plans/team/publish/', {}));
    await ok(sandbox('POST', '/discounts/FIVE/archive/'));
    const promoted = await succeeds(['promote', '--from', 'sandbox', '--to', 'production']);
    expect(promoted).toContain('~ update plan pro → publishes version 2');
    expect(promoted).toContain('~ update plan team → publishes version 1');
    expect(promoted).toContain('- archive discount FIVE');
    await succeeds(['pull', '--env', 'sandbox', '--file', file('sandbox-now.yaml')]);
    await succeeds(['pull', '--env', 'production', '--file', file('production-now.yaml')]);
    expect(fs.readFileSync(file('production-now.yaml'), 'utf8')).toBe(fs.readFileSync(file('sandbox-now.yaml'), 'utf8'));
  });

  it('refuses a bad file before anything is applied, naming each line', async () => {
    const lines = fs.readFileSync(file('production-now.yaml'), 'utf8').split('\n');
    const at = (text: string, from = 0) => lines.findIndex((line, index) => index >= from && line === text);
    const eur = at('      - currency: EUR');
    lines[eur] = '      - priceType: PAID';
    lines.splice(eur + 1, 1); // its priceType, now given on the first line
    lines[at('      - feature: projects')] = '      - feature: seats';
    lines[at('  - identifier: team')] = '  - identifier: pro';
    lines[at('    name: Acme Analytics')] = '    name: Acme Analytics Renamed';
    fs.writeFileSync(file('bad.yaml'), lines.join('\n'));
    const line = (text: string) => lines.indexOf(text) + 1;
    const secondPro = lines.indexOf('  - identifier: pro', lines.indexOf('  - identifier: pro') + 1) + 1;

    const result = await catalog(['apply', '--env', 'production', '--file', file('bad.yaml'), '--force']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const bad = file('bad.yaml');
    expect(result.stderr.trim().split('\n')).toEqual([
      `billow: ${bad} is not a valid catalog, nothing was changed:`,
      `  ${bad}:${line('      - priceType: PAID')}: plans[0].prices[0]: currency is missing`,
      `  ${bad}:${line('      - feature: seats')}: plans[0].entitlements[2].feature: unknown feature "seats": the file has no feature with this identifier`,
      `  ${bad}:${secondPro}: plans[1]: duplicate plan identifier "pro": each may appear once`,
    ]);
    expect((await ok(production('GET', '/catalog/products/acme/'))).name).toBe('Acme Analytics');

    // A file the API cannot apply: a feature's type never changes (its name could, but nothing is applied).
    const retyped = fs
      .readFileSync(file('production-now.yaml'), 'utf8')
      .replace('    name: Audit log\n', '    name: Audit trail\n')
      .replace('    featureType: BOOLEAN\n', '    featureType: CUSTOMIZABLE\n');
    fs.writeFileSync(file('feature.yaml'), retyped);
    const cannot = await catalog(['apply', '--env', 'production', '--file', file('feature.yaml'), '--force']);
    expect(cannot.code).toBe(2);
    expect(cannot.stdout).toContain("apply would refuse the file, changing nothing, because:\n  ! feature audit-log: a feature's type, details and meter never change (featureType differs)");
    expect(cannot.stderr).toContain("billow: nothing was applied:\n  feature audit-log: a feature's type, details and meter never change (featureType differs); archive it");
    expect((await ok(production('GET', '/catalog/features/audit-log/'))).name).toBe('Audit log');
  });

  it('a run that fails halfway says what it applied, and a second run finishes', async () => {
    const current = parse(fs.readFileSync(file('sandbox-now.yaml'), 'utf8'));
    current.products.push({ identifier: 'halfway', name: 'Halfway', taxCode: 'software' });
    const charge = { paymentType: 'PAY_AS_YOU_GO', charges: [{ chargePeriod: 'YEARLY', priceData: { amount: 10 } }] };
    current.plans.push({ identifier: 'halfway-pro', product: 'halfway', name: 'Halfway Pro', prices: [{ currency: 'USD', priceType: 'PAID', chargeCatalogPrice: [charge] }] });
    const broken = stringify(current);
    fs.mkdirSync(file('halfway'));
    const halfway = path.join(dir, 'halfway', 'catalog.yaml');
    fs.writeFileSync(halfway, broken);
    const failed = await catalog(['apply', '--env', 'sandbox', '--file', halfway, '--force']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain('billow: create plan halfway-pro → publishes version 1 failed: POST /catalog/plans/halfway-pro/prices/bulk/ answered 400: ');
    expect(failed.stderr).toContain('billed MONTHLY only');
    expect(failed.stderr).toContain('1 change(s) were applied before it:\n  create product halfway');

    charge.charges[0]!.chargePeriod = 'MONTHLY';
    fs.writeFileSync(halfway, stringify(current));
    const finished = await succeeds(['apply', '--env', 'sandbox', '--file', halfway]);
    expect(finished).toContain('~ update plan halfway-pro → publishes version 1');
    expect(finished).not.toContain('create product halfway');
    expect((await ok(sandbox('GET', '/catalog/plans/halfway-pro/'))).status).toBe('published');
  });

  it('--migrate-subscribers at-renewal: the subscriber keeps the old price until their next renewal, then pays the new one', async () => {
    const clock = await ok(sandbox('POST', '/test-clocks/', { name: 'at-renewal', frozenTime: '2030-01-10T00:00:00Z' }));
    await ok(sandbox('POST', '/customers/', { customerId: 'cus_bob', email: 'bob@example.com', testClockId: clock.id }));
    const card = await ok(sandbox('POST', '/payment-methods/', { customerId: 'cus_bob', cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2035, cvc: '123' }));
    await ok(sandbox('POST', `/payment-methods/${card.id}/default/`));
    await ok(sandbox('POST', '/subscriptions/create/', { planIdentifier: 'pro', chargePeriod: 'MONTHLY', customerId: 'cus_bob', currencyCode: 'USD' }));
    const bob = async () => (await ok(sandbox('GET', '/subscriptions/?customer_id=cus_bob'))).results[0];
    expect(await bob()).toMatchObject({ planVersion: 2, amount: '35.00' });

    const halfway = path.join(dir, 'halfway', 'catalog.yaml');
    const current = parse(fs.readFileSync(halfway, 'utf8'));
    current.plans.find((p: any) => p.identifier === 'pro').prices.find((p: any) => p.currency === 'USD').chargeCatalogPrice[0].charges[0].priceData.amount = 39;
    fs.writeFileSync(halfway, stringify(current));
    const applied = await succeeds(['apply', '--env', 'sandbox', '--file', halfway, '--migrate-subscribers', 'at-renewal']);
    expect(applied).toContain('~ update plan pro → publishes version 3');
    expect(applied).toContain('Subscribers of the plans published move to the new versions at their next renewal.');
    expect(await bob()).toMatchObject({ planVersion: 2, amount: '35.00' });

    await ok(sandbox('POST', `/test-clocks/${clock.id}/advance/`, { frozenTime: '2030-02-10T01:00:00Z' }));
    for (let tries = 0; (await ok(sandbox('GET', `/test-clocks/${clock.id}/`))).status !== 'ready' && tries < 200; tries++) await new Promise((r) => setTimeout(r, 100));
    expect(await bob()).toMatchObject({ planVersion: 3, amount: '39.00', status: 'active' });
    const invoices = (await ok(sandbox('GET', '/invoices/?customer_id=cus_bob'))).results.map((i: any) => [i.amountSubtotal, i.status]);
    // pro starts with a trial: its invoice of nothing, then the first paid period, at the new price.
    expect(invoices.sort()).toEqual([['0.00', 'PAID'], ['39.00', 'PAID']]);
  });

  it('a renamed feature is updated, a metadata key the file drops is removed, and the next diff finds nothing', async () => {
    const edited = file('metadata.yaml');
    await succeeds(['pull', '--env', 'production', '--file', edited]);
    const current = parse(fs.readFileSync(edited, 'utf8'));
    const pro = current.plans.find((p: any) => p.identifier === 'pro');
    expect(pro.metadata).toEqual({ tier: 2 });
    pro.metadata = { region: 'eu' };
    Object.assign(current.features.find((f: any) => f.identifier === 'audit-log'), { name: 'Audit trail', description: 'Who changed what' });
    fs.writeFileSync(edited, stringify(current));

    const diff = await succeeds(['diff', '--env', 'production', '--file', edited]);
    expect(diff).toContain('~ update feature audit-log\n      name: "Audit log" → "Audit trail"\n      description: (none) → "Who changed what"');
    expect(diff).toContain('metadata.region: (none) → "eu"');
    expect(diff).toContain('metadata.tier: 2 → (none)');
    await succeeds(['apply', '--env', 'production', '--file', edited]);
    expect((await ok(production('GET', '/catalog/plans/pro/'))).metadata).toEqual({ region: 'eu' });
    expect(await ok(production('GET', '/catalog/features/audit-log/'))).toMatchObject({ name: 'Audit trail', description: 'Who changed what', featureType: 'BOOLEAN' });
    expect(await succeeds(['diff', '--env', 'production', '--file', edited, '--exit-code'])).toMatch(/^No changes: production/);
  });
});
