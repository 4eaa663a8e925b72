/**
 * The year of an invoice number is the seller's (decision 0062): on New Year's Eve in UTC it is
 * already the new year on Kiritimati (UTC+14). Two purchases an hour apart around the seller's
 * midnight, each at its customer's test clock, open the two years' sequences.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shop, type Shop } from './commerce-support.js';
import { startTestServer, uniqueId, type TestServer } from './harness.js';

let server: TestServer;
let s: Shop;

beforeAll(async () => {
  server = await startTestServer();
  const org = await server.createOrg('Line Islands Software');
  s = await shop(server, org.sandbox.serverKey);
  const profile = await s.call('PATCH', '/seller-profile/', { invoicePrefix: 'LIS', timeZone: 'Pacific/Kiritimati' });
  expect(profile.status, profile.text).toBe(200);
});
afterAll(() => server?.close());

/** The number of the invoice of a one-time purchase made at `at` (the buyer's test clock). */
async function numberOfPurchaseAt(at: string): Promise<string> {
  const clock = await s.call('POST', '/test-clocks/', { name: uniqueId('eve'), frozenTime: at });
  expect(clock.status, clock.text).toBe(201);
  const customerId = await s.customer({ testClockId: clock.body.id });
  await s.card(customerId);
  const charge = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
  expect(charge.status, charge.text).toBe(201);
  const invoices = await s.call('GET', `/invoices/?customer_id=${customerId}`);
  expect(invoices.status, invoices.text).toBe(200);
  return invoices.body.results[0].number as string;
}

describe("an invoice number's year", () => {
  it("is the year where the seller is, not UTC's", async () => {
    // 09:30 UTC on 31 December is 23:30 on Kiritimati; 10:30 UTC is 00:30 on 1 January there.
    expect(await numberOfPurchaseAt('2026-12-31T09:30:00Z')).toBe('LIS-2026-000001');
    expect(await numberOfPurchaseAt('2026-12-31T10:30:00Z')).toBe('LIS-2027-000001');
    expect(await numberOfPurchaseAt('2026-12-31T10:45:00Z')).toBe('LIS-2027-000002');
  });
});
