/**
 * Every operation of the contract's table (packages/contract/src/operations.ts), called through
 * @billow/sdk against a live server, in the order a seller would: a catalog, customers and their
 * cards, subscriptions, usage and checks, licenses, checkout, money (orders, invoices, refunds,
 * credit notes), test clocks, webhooks, discounts and promotions, media, the seller's settings,
 * the team, keys, payment providers and partners. The client's fetch records every request, and
 * the last test fails naming any operation of the table that was never called.
 */
import { Buffer } from 'node:buffer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type Operation } from '@billow/contract';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from '../../server/test/harness.js';
import { CARDS } from '../../server/test/commerce-support.js';
import { Receiver } from '../../server/test/webhook-support.js';
import { createMember } from '../../server/src/modules/accounts/people.service.js';
import { systemClock } from '../../server/src/lib/clock.js';
import { StripeStandIn } from '../../server/test/stripe/stand-in.js';
import { TEST_KEY, WEBHOOK_SECRET } from '../../server/test/stripe/support.js';
import {
  Billow,
  BillowAuthenticationError,
  BillowConflictError,
  BillowInvalidRequestError,
  BillowNotFoundError,
  BillowPermissionError,
  type BillowError,
  type Fetch,
} from '../src/index.js';

/** Every operation of the table: its SDK name, method and a pattern of its path. */
interface Known {
  name: string;
  method: string;
  pattern: RegExp;
  parameters: number;
}

function knownOperations(table: object, prefix = ''): Known[] {
  return Object.entries(table).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    if (!('method' in value && 'path' in value)) return knownOperations(value as object, name);
    const operation = value as Operation;
    const source = operation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    return [{ name, method: operation.method, pattern: new RegExp(`^${source}$`), parameters: operation.path.split('{').length - 1 }];
  });
}

// Literal paths first: GET /subscriptions/versions/ is that operation, not subscriptions.retrieve of "versions".
const KNOWN = knownOperations(operations).sort((a, b) => a.parameters - b.parameters);
const called = new Map<string, number>();
const unmatched: string[] = [];

/** Notes which operation a request is: its method and its path below /api/v1 (past /sandbox). */
function record(method: string, url: string): void {
  const pathname = new URL(url).pathname.replace(/^\/sandbox/, '').replace(/^\/api\/v1/, '');
  const match = KNOWN.find((known) => known.method === method && known.pattern.test(pathname));
  if (match) called.set(match.name, (called.get(match.name) ?? 0) + 1);
  else unmatched.push(`${method} ${pathname}`);
}

const recordingFetch: Fetch = (input, init) => {
  record(init?.method ?? 'GET', String(input));
  return globalThis.fetch(input, init);
};

let server: TestServer;
let org: TestOrg;
let stripe: StripeStandIn;
let receiver: Receiver;
/** The sandbox, with its server key: the whole file but for the partner. */
let billow: Billow;

const sandboxUrl = () => `${server.url}/sandbox`;
const client = (apiKey: string, baseUrl = sandboxUrl()) => new Billow({ apiKey, baseUrl, fetch: recordingFetch, maxRetries: 0 });

beforeAll(async () => {
  stripe = await new StripeStandIn().start();
  receiver = await Receiver.start();
  server = await startTestServer({ env: { BILLOW_STRIPE_API_URL: stripe.url } });
  org = await server.createOrg();
  billow = client(org.sandbox.serverKey);
});
afterAll(async () => {
  await server?.close();
  await stripe?.close();
  await receiver?.close();
});

/** The error a call fails with, checked to be of `kind` with this status and code. */
async function refusal<E extends BillowError>(
  promise: PromiseLike<unknown>,
  kind: new (...args: never[]) => E,
  status: number,
  code: string,
): Promise<E> {
  const error = await Promise.resolve(promise).then(
    () => {
      throw new Error(`expected a ${kind.name}, but the call succeeded`);
    },
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(kind);
  expect(error).toMatchObject({ status, code });
  return error as E;
}

const PDF = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 5)).toString('latin1');

/** What the tests below build and pass on. */
const world = {} as {
  productId: string;
  productIdentifier: string;
  planIdentifier: string;
  lifetimeIdentifier: string;
  proIdentifier: string;
  meter: string;
  flag: string;
  buyer: string;
  subscriptionId: string;
  orderId: string;
  invoiceId: string;
};

const paidMonthly = (amount: number) => ({
  priceType: 'PAID' as const,
  currency: 'USD',
  chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY' as const, priceData: { amount } }] }],
});

describe('@billow/sdk: every operation against a live server', () => {
  it('builds a catalog: features, a product, plans with prices and entitlements, published', async () => {
    const flag = await billow.catalog.features.create({ name: 'SSO', identifier: uniqueId('sso'), featureType: 'BOOLEAN' });
    const meter = await billow.catalog.features.create({
      name: 'API calls',
      identifier: uniqueId('calls'),
      featureType: 'METER',
      featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } },
    });
    world.flag = flag.identifier;
    world.meter = meter.identifier;
    expect(meter).toMatchObject({ name: 'API calls', featureType: 'METER' });
    expect((await billow.catalog.features.retrieve(flag.id)).identifier).toBe(flag.identifier);
    const features = await billow.catalog.features.list({ page_size: 10 });
    expect(features.results.map((f) => f.identifier).sort()).toEqual([flag.identifier, meter.identifier].sort());

    const product = await billow.catalog.products.create({ name: 'Billow Pro', taxCode: 'saas' });
    world.productId = product.id;
    world.productIdentifier = product.identifier;
    expect(product).toMatchObject({ name: 'Billow Pro', plans: [] });
    expect((await billow.catalog.products.update(product.id, { description: 'The pro tools' })).description).toBe('The pro tools');
    expect((await billow.catalog.products.retrieve(product.identifier)).id).toBe(product.id);
    expect((await billow.catalog.products.list()).results.map((p) => p.id)).toContain(product.id);
    const settings = await billow.catalog.products.settings.retrieve(product.id);
    const changedSettings = await billow.catalog.products.settings.update(product.id, { ...settings });
    expect(changedSettings).toEqual(settings);

    const plan = await billow.catalog.plans.create({ name: 'Pro', identifier: uniqueId('pro'), product: product.id });
    world.planIdentifier = plan.identifier;
    const prices = await billow.catalog.plans.prices.setMany(plan.identifier, { prices: [paidMonthly(20)] });
    expect(prices.prices.map((p) => p.currency)).toEqual(['USD']);
    const euro = await billow.catalog.plans.prices.set(plan.identifier, 'EUR', {
      priceType: 'PAID',
      chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 18 } }] }],
    });
    expect(euro.prices.map((p) => p.currency).sort()).toEqual(['EUR', 'USD']);
    expect((await billow.catalog.plans.prices.list(plan.identifier)).count).toBe(2);
    const withoutEuro = await billow.catalog.plans.prices.delete(plan.identifier, 'EUR');
    expect(withoutEuro.prices.map((p) => p.currency)).toEqual(['USD']);

    const granted = await billow.catalog.plans.features.add(plan.identifier, {
      planEntitlements: [
        { feature: flag.id, details: { value: true } },
        { feature: meter.id, details: { value: 1000, hardLimit: true } },
      ],
    });
    expect(granted.identifier).toBe(plan.identifier);
    const patched = await billow.catalog.plans.features.update(plan.identifier, meter.identifier, { details: { value: 2000 } });
    expect(patched.details).toMatchObject({ value: 2000 });
    const entitlements = await billow.catalog.plans.features.list(plan.identifier);
    expect(entitlements.results.map((e) => e.feature.identifier).sort()).toEqual([flag.identifier, meter.identifier].sort());

    const published = await billow.catalog.plans.publish(plan.identifier, {});
    expect(published).toMatchObject({ identifier: plan.identifier });
    // After publishing, a change makes a draft: discarding it brings back the published plan.
    const drafted = await billow.catalog.plans.update(plan.identifier, { name: 'Pro (draft)' });
    expect(drafted.name).toBe('Pro (draft)');
    await expect(billow.catalog.plans.discardDraft(plan.identifier)).resolves.toBeUndefined();
    expect((await billow.catalog.plans.retrieve(plan.identifier)).name).toBe('Pro');
    const firstVersion = await billow.catalog.plans.retrieve(plan.identifier, { version: 1 });
    expect(firstVersion.name).toBe('Pro');
    expect((await billow.catalog.plans.versions(plan.identifier)).count).toBeGreaterThanOrEqual(1);
    expect((await billow.catalog.plans.list()).results.map((p) => p.identifier)).toContain(plan.identifier);

  });

  it('adds a plan sold once with a license, one to move to, and archives a feature, a plan and a product', async () => {
    const product = { id: world.productId };
    const flag = await billow.catalog.features.retrieve(world.flag);
    // A second plan, sold once with a license; a third to move the subscription to.
    const lifetime = await billow.catalog.plans.create({
      name: 'Lifetime',
      identifier: uniqueId('lifetime'),
      product: product.id,
      license: { enabled: true, activationLimit: 3, activationLimitEnabled: true },
    });
    await billow.catalog.plans.prices.setMany(lifetime.identifier, {
      prices: [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'ONE_TIME', priceData: { amount: 49 } }] }] }],
    });
    await billow.catalog.plans.publish(lifetime.identifier, {});
    world.lifetimeIdentifier = lifetime.identifier;
    const team = await billow.catalog.plans.create({ name: 'Team', identifier: uniqueId('team'), product: product.id });
    await billow.catalog.plans.prices.setMany(team.identifier, { prices: [paidMonthly(40)] });
    await billow.catalog.plans.features.add(team.identifier, { planEntitlements: [{ feature: flag.id, details: { value: true } }] });
    await billow.catalog.plans.publish(team.identifier, {});
    world.proIdentifier = team.identifier;

    // Archiving: a feature, a plan and a product made for it.
    const spare = await billow.catalog.features.create({ name: 'Spare', identifier: uniqueId('spare'), featureType: 'BOOLEAN' });
    await billow.catalog.plans.features.add(team.identifier, { planEntitlements: [{ feature: spare.id }] });
    await expect(billow.catalog.plans.features.remove(team.identifier, spare.identifier)).resolves.toBeUndefined();
    await billow.catalog.plans.discardDraft(team.identifier);
    expect(await billow.catalog.features.update(spare.identifier, { name: 'Spare seat', metadata: { kept: 'no' } })).toMatchObject({ name: 'Spare seat', metadata: { kept: 'no' }, featureType: 'BOOLEAN' });
    await expect(billow.catalog.features.archive(spare.id)).resolves.toBeUndefined();
    const spareProduct = await billow.catalog.products.create({ name: 'Spare product', taxCode: 'saas' });
    const sparePlan = await billow.catalog.plans.create({ name: 'Spare plan', product: spareProduct.id });
    await expect(billow.catalog.plans.archive(sparePlan.identifier)).resolves.toBeUndefined();
    await expect(billow.catalog.products.archive(spareProduct.id)).resolves.toBeUndefined();
    expect((await billow.catalog.plans.list({ page_size: 100 })).results.map((p) => p.identifier)).not.toContain(sparePlan.identifier);
  });

  it('uploads media, and attaches product images and files and plan files, which download without a key', async () => {
    const presigned = await billow.media.createUpload({ fileName: 'hero.png', fileType: 'image/png' });
    expect(presigned.fileKey).toMatch(/^tmp\/[0-9a-f-]{36}\/hero\.png$/);
    const form = new FormData();
    for (const [name, value] of Object.entries(presigned.fields)) form.append(name, value);
    form.append('file', new Blob([Buffer.from('a png of sorts')], { type: 'image/png' }), 'hero.png');
    expect((await fetch(presigned.url, { method: 'POST', body: form })).status).toBe(204);

    const guideBytes = Buffer.from('%PDF-1.4 the guide');
    const guide = await billow.media.upload({ file: new File([guideBytes], 'guide.pdf', { type: 'application/pdf' }) });
    expect(guide).toMatchObject({ fileName: 'guide.pdf', fileType: 'application/pdf', size: guideBytes.length });
    const logo = await billow.media.upload({ file: new File([Buffer.from('logo')], 'logo.png', { type: 'image/png' }) });

    const product = await billow.catalog.products.update(world.productId, { imageKeys: [presigned.fileKey, logo.fileKey], fileKeys: [guide.fileKey] });
    expect(product.images.map((i) => i.name)).toEqual(['hero.png', 'logo.png']);
    const [hero, second] = product.images;
    const image = await billow.catalog.products.images.update(world.productId, second!.id, { thumbnail: true, name: 'Logo' });
    expect(image).toMatchObject({ id: second!.id, name: 'Logo', thumbnail: true });
    await expect(billow.catalog.products.images.delete(world.productId, hero!.id)).resolves.toBeUndefined();

    const [file] = product.files;
    const renamed = await billow.catalog.products.files.update(world.productId, file!.id, { name: 'Guide.pdf', ordering: 1 });
    expect(renamed).toMatchObject({ id: file!.id, name: 'Guide.pdf', ordering: 1 });
    // A public link (302 to a signed URL): the SDK follows it and answers the file.
    const downloaded = await billow.catalog.products.files.download(world.productId, file!.id);
    expect(Buffer.from(downloaded.bytes).equals(guideBytes)).toBe(true);
    expect(downloaded.fileName).toMatch(/guide\.pdf/i);
    await expect(billow.catalog.products.files.delete(world.productId, file!.id)).resolves.toBeUndefined();
    const after = await billow.catalog.products.retrieve(world.productId);
    expect([after.images.length, after.files.length]).toEqual([1, 0]);

    const termsBytes = Buffer.from('%PDF-1.4 the terms');
    const terms = await billow.media.upload({ file: new File([termsBytes], 'terms.pdf', { type: 'application/pdf' }) });
    const plan = await billow.catalog.plans.create({ name: 'With terms', product: world.productId, fileKeys: [terms.fileKey] });
    const [planFile] = plan.files;
    const renamedPlanFile = await billow.catalog.plans.files.update(plan.identifier, planFile!.id, { name: 'Terms.pdf' });
    expect(renamedPlanFile.name).toBe('Terms.pdf');
    const planDownload = await billow.catalog.plans.files.download(plan.identifier, planFile!.id);
    expect(Buffer.from(planDownload.bytes).equals(termsBytes)).toBe(true);
    expect(planDownload.contentType).toContain('application/pdf');
    await expect(billow.catalog.plans.files.delete(plan.identifier, planFile!.id)).resolves.toBeUndefined();
    expect((await billow.catalog.plans.retrieve(plan.identifier)).files).toEqual([]);
  });

  it('makes customers with cards, subscribes one, previews and makes a change, and cancels at period end', async () => {
    const buyer = uniqueId('buyer');
    world.buyer = buyer;
    const customer = await billow.customers.create({ customerId: buyer, email: `${buyer}@example.com`, name: 'Ada Buyer' });
    expect(customer.customerId).toBe(buyer);
    expect((await billow.customers.update(buyer, { name: 'Ada B.' })).name).toBe('Ada B.');
    expect((await billow.customers.retrieve(buyer)).id).toBe(customer.id);
    expect((await billow.customers.list({ search: buyer })).results.map((c) => c.customerId)).toEqual([buyer]);

    const spareCard = await billow.paymentMethods.create({ customerId: buyer, cardNumber: CARDS.ok, expMonth: 12, expYear: 2035, cvc: '123' });
    const card = await billow.paymentMethods.create({ customerId: buyer, cardNumber: CARDS.ok, expMonth: 11, expYear: 2036, cvc: '123' });
    expect((await billow.paymentMethods.setDefault(card.id, {})).id).toBe(card.id);
    await expect(billow.paymentMethods.delete(spareCard.id)).resolves.toBeUndefined();
    const cards = await billow.paymentMethods.list({ customer_id: buyer });
    expect(cards.results.map((c) => c.id)).toEqual([card.id]);

    const created = await billow.subscriptions.create({ planIdentifier: world.planIdentifier, chargePeriod: 'MONTHLY', customerId: buyer });
    world.subscriptionId = created.id;
    const subscription = await billow.subscriptions.retrieve(created.id);
    expect(subscription).toMatchObject({ id: created.id, status: 'active' });
    expect((await billow.subscriptions.list({ customer_id: buyer })).results.map((s) => s.id)).toEqual([created.id]);
    const counts = await billow.subscriptions.versionCounts({ plan: world.planIdentifier });
    expect(counts.versions).toEqual([{ version: 1, subscriptions: 1 }]);
    const upcoming = await billow.subscriptions.upcomingInvoice(created.id);
    expect(upcoming.amountTotalUnits).toBe(2000);

    const change = { planIdentifier: world.proIdentifier, chargePeriod: 'MONTHLY' };
    const preview = await billow.subscriptions.previewUpdate(created.id, change);
    expect(preview).toMatchObject({ subscriptionId: created.id, planIdentifier: world.proIdentifier, currency: 'USD' });
    expect(preview.amountDueNowUnits).toBeGreaterThan(0);
    const changed = await billow.subscriptions.update(created.id, change);
    expect((await billow.subscriptions.retrieve(changed.subscriptionId)).status).toBe('active');
    world.subscriptionId = changed.subscriptionId;
    const cancelled = await billow.subscriptions.cancel(changed.subscriptionId, { cancellationType: 'CURRENT_PERIOD_ENDS' });
    expect(cancelled.message).toMatch(/cancel/i);

    // Every event of the customer, newest first, a few to a page: the first (oldest) is their creation.
    const events = await billow.customers.events(buyer, { page_size: 3 }).toArray();
    expect(events.length).toBe((await billow.customers.events(buyer)).count);
    expect(events.length).toBeGreaterThan(3);
    expect(events.at(-1)!.type).toBe('customer.created');
  });

  it('reports usage (one, a batch, an event), checks entitlements, and hears of the change on the stream', async () => {
    const customerId = uniqueId('metered');
    await billow.customers.create({ customerId, email: `${customerId}@example.com` });
    await billow.paymentMethods.create({ customerId, cardNumber: CARDS.ok, expMonth: 12, expYear: 2035, cvc: '123' });
    await billow.subscriptions.create({ planIdentifier: world.planIdentifier, chargePeriod: 'MONTHLY', customerId });

    const stream = await billow.entitlements.changes();
    const events = stream[Symbol.asyncIterator]();
    expect((await events.next()).value).toEqual({ type: 'ready', resumed: false });

    const reported = await billow.usage.report({ customerId, featureId: world.meter, value: 5, behaviour: 'DELTA' });
    expect(reported).toMatchObject({ customerId, featureId: world.meter, value: 5, behaviour: 'DELTA' });
    let heard = (await events.next()).value;
    while (heard && heard.type !== 'customer') heard = (await events.next()).value;
    expect(heard).toMatchObject({ type: 'customer', customerId });
    expect(heard && 'entitlements' in heard && heard.entitlements?.find((e) => e.featureId === world.meter)).toMatchObject({ currentUsage: 5 });
    stream.close();
    const own = await billow.entitlements.customerChanges(customerId);
    const ownEvents = own[Symbol.asyncIterator]();
    expect((await ownEvents.next()).value).toEqual({ type: 'ready', resumed: false });
    expect((await ownEvents.next()).value).toMatchObject({ type: 'snapshot', customerId });
    own.close();

    // A cache of this process that does not follow the stream: the SDK's own usage reports move its answer at once, without asking Billow.
    const cache = billow.entitlementCache({ followChanges: false, ttlMs: 60_000 });
    expect((await cache.entitlements(customerId, world.meter))[0]).toMatchObject({ currentUsage: 5 });
    const batch = await billow.usage.reportBatch({ reports: [{ customerId, featureId: world.meter, value: 2, behaviour: 'DELTA', idempotencyKey: uniqueId('batch') }] });
    expect(batch).toMatchObject({ accepted: 1, duplicates: 0, rejected: 0 });
    expect((await cache.entitlements(customerId, world.meter))[0]).toMatchObject({ currentUsage: 7 });
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, following: false });
    cache.close();
    const event = await billow.usage.reportEvent({ customerId, eventName: 'export.made', idempotencyKey: uniqueId('ev'), timestamp: new Date().toISOString() });
    expect(event).toMatchObject({ customerId, eventName: 'export.made' });

    const check = await billow.entitlements.check({ customer_id: customerId, feature_id: world.meter });
    expect(check.entitlements).toEqual([expect.objectContaining({ featureId: world.meter, hasAccess: true, usageLimit: 2000, currentUsage: 7 })]);
    const all = await client(org.sandbox.clientKey).entitlements.check({ customer_id: customerId });
    expect(all.entitlements.map((e) => e.featureId).sort()).toEqual([world.flag, world.meter].sort());

    const offering = await billow.monetization.productOffering(world.productId, { customer_id: customerId });
    expect(offering).toMatchObject({ currencyCode: 'USD', isCustomerExists: true });
    expect(offering.plans.map((p) => p.identifier)).toContain(world.planIdentifier);
  });

  it('sells a license, and activates, validates, frees and deactivates its instances', async () => {
    const customerId = uniqueId('licensee');
    await billow.customers.create({ customerId, email: `${customerId}@example.com` });
    await billow.paymentMethods.create({ customerId, cardNumber: CARDS.ok, expMonth: 12, expYear: 2035, cvc: '123' });
    const charge = await billow.charges.create({ planIdentifier: world.lifetimeIdentifier, chargePeriod: 'ONE_TIME', customerId });
    expect(charge.orderId).toBeTruthy();
    world.orderId = charge.orderId;

    const { licenses } = await billow.customers.licenses(customerId);
    expect(licenses).toHaveLength(1);
    const license = licenses[0]!;
    const licensing = client(org.sandbox.clientKey);
    const laptop = await licensing.licenses.activate({ licenseKey: license.licenseKey, customerId, instanceName: 'Laptop' });
    const desktop = await billow.licenses.activate({ licenseKey: license.licenseKey, customerId, instanceName: 'Desktop' });
    expect((await licensing.licenses.validate({ licenseKey: license.licenseKey, instanceId: laptop.instanceId })).valid).toBe(true);
    const freed = await billow.licenses.freeInstance(customerId, license.id, desktop.instanceId);
    expect(freed).toMatchObject({ licenseId: license.id, instanceId: desktop.instanceId });
    const deactivated = await licensing.licenses.deactivate({ licenseKey: license.licenseKey, instanceId: laptop.instanceId });
    expect(deactivated.deactivatedAt).toMatch(/^\d{4}-/);
    // A deactivated instance is no longer one of the key's: validating it is refused.
    await refusal(billow.licenses.validate({ licenseKey: license.licenseKey, instanceId: laptop.instanceId }), BillowNotFoundError, 404, 'INSTANCE_NOT_FOUND');
  });

  it('reads orders, invoices and their PDF, transactions; refunds; reads the credit note and its PDF', async () => {
    const order = await billow.orders.retrieve(world.orderId);
    expect(order.id).toBe(world.orderId);
    expect((await billow.orders.list({ search: world.orderId })).results.map((o) => o.id)).toEqual([world.orderId]);
    expect((await billow.orders.events(world.orderId)).count).toBeGreaterThan(0);

    const invoices = await billow.invoices.list({ search: order.customer.customerId });
    const invoice = invoices.results.find((i) => i.orderId === world.orderId)!;
    expect((await billow.invoices.retrieve(invoice.id)).number).toBe(invoice.number);
    const pdf = await billow.invoices.pdf(invoice.id, { language: 'de' });
    expect([pdf.contentType, PDF(pdf.bytes)]).toEqual(['application/pdf', '%PDF-']);
    expect((await billow.transactions.list({ search: world.orderId })).count).toBeGreaterThan(0);

    const refund = await billow.refunds.create({ orderId: world.orderId, amountUnits: 1000, reason: 'REQUESTED_BY_CUSTOMER' });
    expect(refund).toMatchObject({ order: { id: world.orderId }, amountUnits: 1000 });
    expect((await billow.refunds.retrieve(refund.id)).id).toBe(refund.id);
    expect((await billow.refunds.list({ search: world.orderId })).results.map((r) => r.id)).toEqual([refund.id]);

    const notes = await billow.creditNotes.list({ invoice_id: invoice.id });
    expect(notes.count).toBe(1);
    const note = await billow.creditNotes.retrieve(notes.results[0]!.id);
    expect(note).toMatchObject({ invoiceId: invoice.id, refundId: refund.id, amountTotalUnits: 1000 });
    const notePdf = await billow.creditNotes.pdf(note.id);
    expect([notePdf.contentType, PDF(notePdf.bytes)]).toEqual(['application/pdf', '%PDF-']);
  });

  it('runs a test clock: attaches a customer, advances a month, pays the failed renewal by hand, and is deleted', async () => {
    const testClock = await billow.testClocks.create({ name: 'Renewals', frozenTime: '2027-03-01T00:00:00Z' });
    expect(testClock).toMatchObject({ status: 'ready', frozenTime: '2027-03-01T00:00:00.000Z', customerCount: 0 });
    const customerId = uniqueId('on-clock');
    await billow.customers.create({ customerId, email: `${customerId}@example.com` });
    expect((await billow.testClocks.attachCustomer(testClock.id, { customerId })).customerId).toBe(customerId);
    await billow.paymentMethods.create({ customerId, cardNumber: CARDS.ok, expMonth: 12, expYear: 2035, cvc: '123' });
    await billow.subscriptions.create({ planIdentifier: world.planIdentifier, chargePeriod: 'MONTHLY', customerId });
    const poor = await billow.paymentMethods.create({ customerId, cardNumber: CARDS.insufficient, expMonth: 12, expYear: 2035, cvc: '123' });
    await billow.paymentMethods.setDefault(poor.id, {});

    const advancing = await billow.testClocks.advance(testClock.id, { frozenTime: '2027-04-01T01:00:00Z' });
    expect(advancing.status).toBe('advancing');
    let current = await billow.testClocks.retrieve(testClock.id);
    for (let tries = 0; current.status === 'advancing' && tries < 300; tries++) {
      if ((await server.runJobs()) === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      current = await billow.testClocks.retrieve(testClock.id);
    }
    expect(current).toMatchObject({ status: 'ready', frozenTime: '2027-04-01T01:00:00.000Z', customerCount: 1 });
    expect((await billow.testClocks.list()).results.map((c) => c.id)).toContain(testClock.id);

    const billed = await billow.testClocks.invoices(testClock.id);
    const failed = billed.results.find((invoice) => invoice.status === 'PAYMENT_FAILED');
    expect(failed, JSON.stringify(billed.results)).toBeDefined();
    const good = await billow.paymentMethods.create({ customerId, cardNumber: CARDS.ok, expMonth: 12, expYear: 2035, cvc: '123' });
    await billow.paymentMethods.setDefault(good.id, {});
    expect(await billow.invoices.pay(failed!.id)).toMatchObject({ id: failed!.id, status: 'PAID' });

    await expect(billow.testClocks.delete(testClock.id)).resolves.toBeUndefined();
    await refusal(billow.testClocks.retrieve(testClock.id), BillowNotFoundError, 404, 'test_clock_not_found');
  });

  it('opens checkout sessions (an automatic Idempotency-Key per call, one explicit key acting once) and a portal session', async () => {
    const body = { planIdentifier: world.planIdentifier, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/thanks', customerId: world.buyer };
    const first = await billow.checkout.create(body);
    const second = await billow.checkout.create(body);
    expect(first.checkoutSessionId).not.toBe(second.checkoutSessionId);
    const idempotencyKey = uniqueId('checkout');
    const keyed = await billow.checkout.create(body, { idempotencyKey });
    const replayed = await billow.checkout.create(body, { idempotencyKey });
    expect(replayed).toEqual(keyed);

    const sessions = await billow.checkout.sessions.list({ status: 'open' });
    expect(sessions.results.map((session) => session.id)).toEqual(
      expect.arrayContaining([first.checkoutSessionId, second.checkoutSessionId, keyed.checkoutSessionId]),
    );
    expect(sessions.count).toBe(3);
    const session = await billow.checkout.sessions.retrieve(first.checkoutSessionId);
    expect(session).toMatchObject({ id: first.checkoutSessionId, status: 'open' });
    expect((await billow.checkout.sessions.events(first.checkoutSessionId)).results.length).toBeGreaterThan(0);

    const portal = await billow.portal.createSession({ customerId: world.buyer });
    expect(portal).toMatchObject({ email: `${world.buyer}@example.com`, customerPortalUrl: expect.stringMatching(/^http/) });
  });

  it('manages webhook endpoints and reads, resends and replays their deliveries', async () => {
    const endpoint = await billow.webhooks.endpoints.create({ url: receiver.url, eventTypes: ['customer.created', 'customer.updated'] });
    expect(endpoint.secret).toMatch(/whsec_/);
    const customerId = uniqueId('hooked');
    await billow.customers.create({ customerId });
    expect(await server.deliverWebhooks()).toBeGreaterThan(0);
    expect(receiver.ofType('customer.created').some((r) => r.body.includes(customerId))).toBe(true);

    expect((await billow.webhooks.endpoints.list()).results.map((e) => e.id)).toContain(endpoint.id);
    expect((await billow.webhooks.endpoints.retrieve(endpoint.id)).url).toBe(receiver.url);
    const updated = await billow.webhooks.endpoints.update(endpoint.id, { eventTypes: ['customer.created'] });
    expect(updated.eventTypes).toEqual(['customer.created']);
    const rotated = await billow.webhooks.endpoints.rotateSecret(endpoint.id, {});
    expect(rotated.secret).not.toBe(endpoint.secret);

    const logs = await billow.webhooks.logs.list({ event_type: 'customer.created' });
    const log = logs.results.find((l) => l.endpoint === endpoint.id)!;
    expect(log).toBeDefined();
    const detail = await billow.webhooks.logs.retrieve(log.id);
    expect(detail.id).toBe(log.id);
    expect(await billow.webhooks.logs.resend(log.id)).toEqual({ queued: 1 });
    const replay = await billow.webhooks.endpoints.replay(endpoint.id, { since: new Date(Date.now() - 3_600_000).toISOString() });
    expect(replay.queued).toBeGreaterThan(0);
    await expect(billow.webhooks.endpoints.delete(endpoint.id)).resolves.toBeUndefined();
    await refusal(billow.webhooks.endpoints.retrieve(endpoint.id), BillowNotFoundError, 404, 'webhook_endpoint_not_found');
  });

  it('makes discounts and promotion rules, and shows a visitor the promotion', async () => {
    const code = uniqueId('LAUNCH').replace(/[^A-Za-z0-9_-]/g, '');
    const discount = await billow.discounts.create({ name: 'Launch', code, discountType: 'PERCENTAGE', percentOff: 10 });
    expect(discount).toMatchObject({ code, percentOff: 10 });
    expect((await billow.discounts.retrieve(discount.id)).id).toBe(discount.id);
    expect((await billow.discounts.list()).results.map((d) => d.id)).toContain(discount.id);
    expect((await billow.discounts.archive(discount.id)).status).toBe('ARCHIVED');

    const groups = await billow.promotions.rules.pppGroups();
    expect(groups.groups.length).toBeGreaterThan(0);
    const rule = await billow.promotions.rules.create({ name: 'India', productId: world.productId, countryOverrides: [{ countryCode: 'IN', percentage: 25 }] });
    expect((await billow.promotions.rules.retrieve(rule.id)).name).toBe('India');
    expect((await billow.promotions.rules.list()).results.map((r) => r.id)).toContain(rule.id);
    expect((await billow.promotions.rules.update(rule.id, { name: 'India and more' })).name).toBe('India and more');
    expect(await billow.promotions.rules.preview(rule.id, { country: 'in' })).toMatchObject({ countryCode: 'IN', country: 'India', percentage: 25 });
    const shown = await client(org.sandbox.clientKey).promotions.forVisitor({ promotion_id: rule.id });
    // A visitor from the loopback address cannot be located: no discount, and the answer says so.
    expect(shown).toMatchObject({ countryCode: '', percentage: 0, code: '' });
    await expect(billow.promotions.rules.delete(rule.id)).resolves.toBeUndefined();
  });

  it("sets the seller's profile and email settings, and reads the sandbox's inbox and an attachment", async () => {
    const profile = await billow.sellerProfile.update({
      legalName: 'Acme Software GmbH',
      supportEmail: 'help@acme.example',
      address: { line1: 'Torstraße 1', city: 'Berlin', postalCode: '10119', country: 'DE' },
    });
    expect(profile.legalName).toBe('Acme Software GmbH');
    expect((await billow.sellerProfile.retrieve()).supportEmail).toBe('help@acme.example');
    const settings = await billow.mail.settings.retrieve();
    expect((await billow.mail.settings.update({ receipts: true })).receipts).toBe(true);
    expect(settings).toHaveProperty('receipts');

    // A receipt of a purchase lands in the sandbox's inbox, its invoice attached.
    const customerId = uniqueId('receipt');
    await billow.customers.create({ customerId, email: `${customerId}@example.com` });
    await billow.paymentMethods.create({ customerId, cardNumber: CARDS.ok, expMonth: 12, expYear: 2035, cvc: '123' });
    await billow.charges.create({ planIdentifier: world.lifetimeIdentifier, chargePeriod: 'ONE_TIME', customerId });
    await server.runJobs(['compose-mail']);
    const inbox = await billow.mail.inbox.list();
    const receipt = inbox.messages.find((m) => m.to.includes(customerId) && m.attachments.length > 0);
    expect(receipt, JSON.stringify(inbox.messages.map((m) => [m.to, m.subject]))).toBeDefined();
    const attachment = await billow.mail.inbox.attachment(receipt!.id, 0);
    expect([attachment.contentType, PDF(attachment.bytes)]).toEqual(['application/pdf', '%PDF-']);
  });

  it('reads the overview and every analytics series, and sets the reporting currency', async () => {
    const overview = await billow.overview.retrieve();
    expect(overview.activeSubscriptions).toBeGreaterThan(0);
    expect(overview.mrr.map((m) => m.currency)).toContain('USD');
    const analytics = await billow.analytics.settings.update({ reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate: '1.08' }] });
    expect(analytics.reportingCurrency).toBe('USD');
    expect((await billow.analytics.settings.retrieve()).rates).toEqual([expect.objectContaining({ currency: 'EUR' })]);
    // The subscriptions sold above, in dollars: each series has a USD line.
    const currencies = (series: { currencies: Array<{ currency: string }> }) => series.currencies.map((c) => c.currency);
    expect(currencies(await billow.analytics.mrr())).toContain('USD');
    expect(currencies(await billow.analytics.cash())).toContain('USD');
    expect(currencies(await billow.analytics.subscribers())).toContain('USD');
    expect((await billow.analytics.mrrMovements()).results.length).toBeGreaterThan(0);
  });

  it('manages the team, invitations, API keys, and reads the audit log', async () => {
    const email = `${uniqueId('dev')}@example.com`;
    await createMember(server.database.db, systemClock, { organizationId: org.organizationId, email, role: 'developer', name: 'Dev', password: 'correct horse battery staple' });
    const member = (await billow.team.members.list()).results.find((m) => m.email === email)!;
    expect(member.role).toBe('developer');
    expect((await billow.team.members.update(member.id, { role: 'admin' })).role).toBe('admin');
    await expect(billow.team.members.remove(member.id)).resolves.toBeUndefined();

    const invited = await billow.team.members.invite({ email: `${uniqueId('new')}@example.com`, role: 'viewer' });
    expect((await billow.team.invitations.list()).results.map((i) => i.id)).toContain(invited.id);
    await expect(billow.team.invitations.revoke(invited.id)).resolves.toBeUndefined();

    const made = await billow.apiKeys.create({ kind: 'server', name: 'CI' });
    const ci = client(made.key);
    expect((await ci.apiKeys.list()).results.map((k) => k.prefix)).toContain(made.prefix);
    expect((await billow.apiKeys.revoke(made.prefix)).revokedOn).toBeTruthy();
    await refusal(ci.apiKeys.list(), BillowAuthenticationError, 401, 'unauthorized');

    // The audit log pages by cursor: one entry a page, newest first, followed to the end.
    const audit = await billow.auditLog.list({ resource: 'api_key', limit: 1 }).toArray();
    expect(audit.map((entry) => entry.action)).toEqual(['api_key.revoked', 'api_key.created']);
  });

  it("configures a Stripe account for a sandbox (a local stand-in of Stripe's API), attaches a Stripe card, and removes the account", async () => {
    const fresh = await server.createOrg();
    const seller = client(fresh.sandbox.serverKey);
    expect((await seller.paymentProvider.retrieve()).provider).toBe('sandbox');
    const set = await seller.paymentProvider.set({ provider: 'stripe', stripeSecretKey: TEST_KEY, stripeWebhookSecret: WEBHOOK_SECRET });
    expect(set).toMatchObject({ provider: 'stripe', mode: 'test' });
    const customerId = uniqueId('stripe');
    await seller.customers.create({ customerId, email: `${customerId}@example.com` });
    const card = await seller.paymentMethods.attachStripe({ customerId, stripePaymentMethod: `pm_card_visa_${uniqueId('m').replace(/[^A-Za-z0-9]/g, '')}` });
    expect(card).toMatchObject({ status: 'succeeded', customer: { email: `${customerId}@example.com` } });
    await expect(seller.paymentProvider.delete()).resolves.toBeUndefined();
    expect((await seller.paymentProvider.retrieve()).provider).toBe('sandbox');
  });

  it("provisions organizations with the partner key", async () => {
    const partner = new Billow({ partnerKey: await server.createPartnerKey(), baseUrl: server.url, fetch: recordingFetch });
    const externalId = uniqueId('acct');
    const created = await partner.partner.organizations.create({ externalId, email: `${externalId}@example.com`, businessName: 'Acme' });
    expect(created).toMatchObject({ partnerExternalId: externalId, businessName: 'Acme', serverKey: expect.stringMatching(/^sk_live_/) });
    const identifier = created.organizationIdentifier;
    expect((await partner.partner.organizations.retrieveByExternalId(externalId)).organizationIdentifier).toBe(identifier);
    expect((await partner.partner.organizations.retrieve(identifier)).partnerExternalId).toBe(externalId);
    const listed = await partner.partner.organizations.list({ external_id: externalId });
    expect(JSON.stringify(listed)).toContain(identifier);
    // The partner key opens only the partner's routes.
    await refusal(partner.partner.organizations.retrieve('nobody'), BillowNotFoundError, 404, 'organization_not_found');
  });

  it('iterates a list over several pages, and archives a customer', async () => {
    const fresh = await server.createOrg();
    const seller = client(fresh.sandbox.serverKey);
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await seller.customers.create({ customerId: `c-${i}` })).customerId);
    const seen: string[] = [];
    for await (const customer of seller.customers.list({ page_size: 2 })) seen.push(customer.customerId);
    expect(seen.sort()).toEqual(made.sort());
    await expect(seller.customers.archive('c-0', { cancel_subscriptions: true })).resolves.toBeUndefined();
    expect((await seller.customers.list()).count).toBe(4);
  });

  it('raises the typed error of each status: 400, 401, 403, 404, 409', async () => {
    const customerId = uniqueId('typed');
    await billow.customers.create({ customerId });
    const invalid = await refusal(billow.customers.create({ customerId: uniqueId('x'), email: 'not-an-email' }), BillowInvalidRequestError, 400, 'validation_error');
    expect(invalid.detail).toContain('email');
    await refusal(client('sk_test_unknown').customers.list(), BillowAuthenticationError, 401, 'unauthorized');
    await refusal(client(org.sandbox.clientKey).customers.list(), BillowPermissionError, 403, 'forbidden');
    await refusal(billow.customers.retrieve('nobody-here'), BillowNotFoundError, 404, 'customer_not_found');
    const conflict = await refusal(billow.customers.create({ customerId }), BillowConflictError, 409, 'customer_exists');
    expect(conflict.requestId).toBeTruthy();
  });

  it('takes call options first where an operation has neither body nor query, and ends a stream with its signal', async () => {
    // Passed as the query before, the signal was never seen: the call went through, and the stream stayed open.
    await expect(billow.overview.retrieve({ signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    const listening = new AbortController();
    const stream = await billow.entitlements.changes({ signal: listening.signal });
    const events = stream[Symbol.asyncIterator]();
    expect((await events.next()).value).toEqual({ type: 'ready', resumed: false });
    listening.abort();
    await expect(events.next()).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('@billow/sdk covers the table', () => {
  // The table is what the guard below checks against: it must hold every /api/v1 operation the server documents
  // (the dashboard's own session routes, under /dashboard/api, are not the API's).
  it("has every /api/v1 operation of the server's OpenAPI document in the table", async () => {
    const { body: doc } = await server.request('GET', '/api/v1/openapi.json');
    const served = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path: path.slice('/api/v1'.length) })));
    const missing = served.filter(({ method, path }) => {
      const concrete = path.replace(/\{[^}]+\}/g, 'x');
      return !KNOWN.some((known) => known.method === method && known.pattern.test(concrete));
    });
    expect(served.length).toBe(KNOWN.length);
    expect(missing.map(({ method, path }) => `${method} ${path}`), 'served but not in the table').toEqual([]);
  });


  it('called every operation of the table at least once', () => {
    const missing = KNOWN.map((known) => known.name).filter((name) => !called.has(name));
    expect(unmatched, 'requests that match no operation').toEqual([]);
    expect(missing, `operations never called: ${missing.join(', ')}`).toEqual([]);
  });
});
