/**
 * Calls of @billow/sdk that must compile, and mistakes that must not (each `@ts-expect-error`
 * fails the compilation when its line compiles). Checked by types.test.ts with tsc: the SDK's
 * types come from the contract's schemas, so a change there shows here.
 */
import { Billow, type Customer, type Download, type EntitlementChangeEvent, type Plan } from '../../src/index.js';

const billow = new Billow({ apiKey: 'sk_test_x', baseUrl: 'http://localhost:4000/sandbox' });

export async function compiles(): Promise<unknown[]> {
  const customer: Customer = await billow.customers.create({ customerId: 'cus_ada', email: 'ada@example.com' });
  const page = await billow.customers.list({ page_size: 5, search: 'ada' });
  const names: (string | null)[] = [];
  for await (const each of billow.customers.list()) names.push(each.name);
  const plan: Plan = await billow.catalog.plans.update('pro', { name: 'Pro' }, { query: { version: 2 } });
  const pdf: Download = await billow.invoices.pdf('inv_1');
  const archived: void = await billow.customers.archive('cus_ada');
  const check = await billow.entitlements.check({ customer_id: 'cus_ada', feature_id: 'seats' });
  const stream = await billow.entitlements.changes();
  for await (const change of stream) {
    const event: EntitlementChangeEvent = change;
    if (event.type === 'customer') names.push(event.customerId);
  }
  const own = await billow.entitlements.customerChanges('cus_ada', { headers: { 'last-event-id': 'abc.1' } });
  for await (const change of own) if (change.type === 'snapshot') names.push(change.entitlements[0]?.featureId ?? null);
  const cache = billow.entitlementCache();
  const access: boolean | undefined = cache.hasAccessNow('cus_ada', 'seats');
  names.push(cache.peek('cus_ada')?.customerId ?? null, String(access));
  const freed = await billow.licenses.freeInstance('cus_ada', 'lic_1', 'inst_1');
  return [customer.customerId, page.count, plan.identifier, pdf.bytes.byteLength, archived, check.entitlements[0]?.remaining, freed];
}

export async function refused(): Promise<void> {
  // @ts-expect-error customerId is required
  await billow.customers.create({ email: 'ada@example.com' });
  // @ts-expect-error no such field on a customer
  await billow.customers.create({ customerId: 'cus_ada', nickname: 'Ada' });
  // @ts-expect-error the path parameter comes first
  await billow.customers.retrieve();
  // @ts-expect-error page_size is a number
  await billow.customers.list({ page_size: 'ten' });
  // @ts-expect-error customer_id is required for a check
  await billow.entitlements.check({});
  // @ts-expect-error a customer's stream names the customer
  await billow.entitlements.customerChanges();
  // @ts-expect-error the synchronous check may have no answer: undefined is not a boolean
  const sure: boolean = billow.entitlementCache().hasAccessNow('cus_ada', 'seats');
  void sure;
  // @ts-expect-error three path parameters
  await billow.licenses.freeInstance('cus_ada', 'lic_1');
  const found = await billow.customers.retrieve('cus_ada');
  // @ts-expect-error a customer has no such field
  void found.nickname;
  // @ts-expect-error no such resource
  await billow.widgets.list();
}
