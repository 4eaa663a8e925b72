import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShop, type Shop } from './commerce-support.js';
import type { TestOrg, TestServer } from './harness.js';
import { signedInMember } from './accounts-support.js';

/** Issue 29, "Bad input and security": a role that may not refund gets 403 from the server, whatever it sends; one that may, refunds. */
let server: TestServer;
let org: TestOrg;
let s: Shop;

beforeAll(async () => ({ server, org, s } = await openShop()));
afterAll(() => server.close());

async function paidOrder(): Promise<string> {
  const customerId = await s.customer();
  await s.card(customerId);
  const res = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
  expect(res.status, res.text).toBe(201);
  return res.body.orderId;
}

describe('refunds by role, with a session', () => {
  it('refuses a support member (403, nothing refunded); an admin refunds, and the audit log says who', async () => {
    const orderId = await paidOrder();
    const support = await signedInMember(server, org, 'support');
    const refused = await support.api('POST', '/sandbox/api/v1/refunds/', { orderId });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'forbidden', detail: expect.stringMatching(/support role may not refund/) });
    const refunds = async (): Promise<number> => {
      const list = await s.call('GET', '/refunds/');
      expect(list.status).toBe(200);
      return list.body.count;
    };
    expect(await refunds()).toBe(0);

    const admin = await signedInMember(server, org, 'admin');
    const refunded = await admin.api('POST', '/sandbox/api/v1/refunds/', { orderId });
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body.status).toBe('SUCCEEDED');
    expect(await refunds()).toBe(1);

    const owner = await signedInMember(server, org, 'owner');
    const log = await owner.api('GET', `/api/v1/audit-log/?actorId=${admin.userId}`);
    expect(log.body.results).toEqual([
      expect.objectContaining({ action: 'POST /api/v1/refunds/', resource: 'refunds', resourceId: refunded.body.id, actorType: 'user', actorLabel: admin.email, environment: 'sandbox' }),
    ]);
  });
});
