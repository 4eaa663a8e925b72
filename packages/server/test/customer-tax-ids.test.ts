/**
 * Customers' business tax ids (issue 27, item 5) through the API: `taxIds` on create, update,
 * retrieve and list, each checked offline by its country's format and check digits (stdnum);
 * a malformed id is a 400 with a detail that names it, and changes nothing.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;
const base = '/sandbox/api/v1/customers/';

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
});
afterAll(() => server.close());

const post = (body: unknown) => server.request('POST', base, { key: org.sandbox.serverKey, body });
const patch = (customerId: string, body: unknown) => server.request('PATCH', `${base}${customerId}/`, { key: org.sandbox.serverKey, body });
const get = (customerId: string) => server.request('GET', `${base}${customerId}/`, { key: org.sandbox.serverKey });
const unchecked = { status: 'unchecked', checkedOn: null, name: null };

describe("customers' tax ids", () => {
  it('keeps valid ids of several countries, compact, typed and with their country', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ value: 'FR 40 303 265 045' }, { type: 'eu_vat', value: 'FR40303265045', country: 'FR' }],
      [{ value: 'EL094259216' }, { type: 'eu_vat', value: 'EL094259216', country: 'GR' }],
      [{ value: '136695976', country: 'de' }, { type: 'eu_vat', value: 'DE136695976', country: 'DE' }],
      [{ value: 'GB 980 7806 84', type: 'gb_vat' }, { type: 'gb_vat', value: 'GB980780684', country: 'GB' }],
      [{ value: 'CHE-116.281.710 MWST', country: 'CH' }, { type: 'ch_vat', value: 'CHE116281710MWST', country: 'CH' }],
      [{ value: 'CHE-116.281.710', country: 'CH' }, { type: 'ch_uid', value: 'CHE116281710', country: 'CH' }],
      [{ value: 'NO 974 760 673 MVA', country: 'NO' }, { type: 'no_vat', value: 'NO974760673MVA', country: 'NO' }],
      [{ value: '974 760 673', type: 'no_orgnr' }, { type: 'no_orgnr', value: '974760673', country: 'NO' }],
      [{ value: '51 824 753 556', type: 'au_abn' }, { type: 'au_abn', value: '51824753556', country: 'AU' }],
      [{ value: '123456782RT0001', country: 'CA' }, { type: 'ca_gst_hst', value: '123456782RT0001', country: 'CA' }],
      [{ value: '123456782', type: 'ca_bn' }, { type: 'ca_bn', value: '123456782', country: 'CA' }],
    ];
    for (const [input, kept] of cases) {
      const customerId = uniqueId('tax');
      const created = await post({ customerId, taxIds: [input] });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.taxIds).toEqual([{ ...kept, verification: unchecked }]);
      expect((await get(customerId)).body.taxIds).toEqual(created.body.taxIds);
    }
  });

  it('takes the billing country for an id that names none, and lists the ids', async () => {
    const customerId = uniqueId('tax');
    const created = await post({ customerId, email: `${customerId}@example.com`, billingAddress: { country: 'AU' }, taxIds: [{ value: '51824753556' }] });
    expect(created.status).toBe(201);
    expect(created.body.taxIds).toEqual([{ type: 'au_abn', value: '51824753556', country: 'AU', verification: unchecked }]);
    const listed = await server.request('GET', `${base}?search=${customerId}`, { key: org.sandbox.serverKey });
    expect(listed.body.results[0].taxIds).toEqual(created.body.taxIds);
    const none = await post({ customerId: uniqueId('tax') });
    expect(none.body).not.toHaveProperty('taxIds');
  });

  it('refuses a malformed id with a 400 that names it, changing nothing', async () => {
    const customerId = uniqueId('tax');
    await post({ customerId, billingAddress: { country: 'FR' }, taxIds: [{ value: 'FR40303265045' }] });
    const refused: Array<[Record<string, unknown>, RegExp]> = [
      [{ value: 'FR40303265046' }, /taxIds\[0\]: "FR40303265046" is not a valid tax id of FR \(its check digits are wrong\)/],
      [{ value: 'DE123456789' }, /"DE123456789" is not a valid tax id of DE \(its check digits are wrong\)/],
      [{ value: 'GB980780685', type: 'gb_vat' }, /not a valid tax id of GB/],
      [{ value: '51824753557', type: 'au_abn' }, /not a valid tax id of AU/],
      [{ value: 'CHE-116.281.711', country: 'CH' }, /not a valid tax id of CH/],
      [{ value: '974760674', country: 'NO' }, /not a valid tax id of NO/],
      [{ value: '12345', type: 'eu_vat', country: 'FR' }, /not a valid tax id of FR \(it has the wrong number of characters\)/],
      [{ value: '980780684', type: 'gb_vat', country: 'FR' }, /a gb_vat id is not one of FR/],
      [{ value: '51824753556', country: 'XX' }, /taxIds\[0\]\.country: "XX" is not an ISO 3166-1 alpha-2 country code/],
    ];
    for (const [input, detail] of refused) {
      const res = await patch(customerId, { name: 'Changed', taxIds: [input] });
      expect(res.status, JSON.stringify(input)).toBe(400);
      expect(res.body.detail).toMatch(detail);
    }
    const twice = await patch(customerId, { taxIds: [{ value: 'FR40303265045' }, { value: 'DE136695976' }] });
    expect(twice.status).toBe(400);
    expect(twice.body.detail).toMatch(/two eu_vat ids/);
    const withoutCountry = await post({ customerId: uniqueId('tax'), taxIds: [{ value: '51824753556' }] });
    expect(withoutCountry.status).toBe(400);
    expect(withoutCountry.body.detail).toMatch(/give the country of "51824753556"/);
    const unknownType = await patch(customerId, { taxIds: [{ value: '1', type: 'xx_vat' }] });
    expect(unknownType.status).toBe(400);
    const after = await get(customerId);
    expect(after.body.name).toBeNull();
    expect(after.body.taxIds).toEqual([{ type: 'eu_vat', value: 'FR40303265045', country: 'FR', verification: unchecked }]);
  });

  it('replaces the ids as a whole on update, clears them with null, and takes the older single taxId', async () => {
    const customerId = uniqueId('tax');
    await post({ customerId, billingAddress: { country: 'GB' } });
    const two = await patch(customerId, { taxIds: [{ value: 'GB980780684' }, { value: 'FR40303265045' }] });
    expect(two.status).toBe(200);
    expect(two.body.taxIds.map((t: { value: string }) => t.value)).toEqual(['GB980780684', 'FR40303265045']);
    const cleared = await patch(customerId, { taxIds: null });
    expect(cleared.body).not.toHaveProperty('taxIds');
    const single = await patch(customerId, { taxId: 'GB 980 7806 84' });
    expect(single.body.taxIds).toEqual([{ type: 'gb_vat', value: 'GB980780684', country: 'GB', verification: unchecked }]);
    const badSingle = await patch(customerId, { taxId: 'GB980780685' });
    expect(badSingle.status).toBe(400);
    expect(badSingle.body.detail).toMatch(/^taxIds\[0\]: "GB980780685" is not a valid tax id of GB/);
    expect((await patch(customerId, { taxId: null })).body.taxIds).toBeUndefined();
  });

  it('announces a change of tax ids in customer.updated', async () => {
    const customerId = uniqueId('tax');
    const created = await post({ customerId });
    await patch(customerId, { taxIds: [{ value: 'FR40303265045' }] });
    const events = await server.database.db
      .selectFrom('events')
      .select(['type', 'payload'])
      .where(sql`payload::jsonb`, '@>', JSON.stringify({ data: { object: { id: created.body.id } } }))
      .where('type', '=', 'customer.updated')
      .execute();
    const mine = (events[0]?.payload ?? null) as { data: { object: { tax_ids: unknown }; previous_attributes: unknown } } | null;
    expect(mine?.data.object.tax_ids).toEqual([{ type: 'eu_vat', value: 'FR40303265045', country: 'FR', verification: 'unchecked' }]);
    expect(mine?.data.previous_attributes).toEqual({ tax_ids: [] });
  });
});
