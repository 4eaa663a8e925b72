/**
 * The seller's profile (issue 27, item 1) through HTTP: defaults until set, a partial
 * update that keeps what it leaves out, tax ids checked by their country's rules, bad
 * input answered 400 with nothing changed, one version and one event per update, and
 * each environment (and organization) with a profile of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentIdOf, startTestServer, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
});
afterAll(() => server.close());

const profile = (method: 'GET' | 'PATCH', body?: unknown, key = org.sandbox.serverKey, prefix = '/sandbox') =>
  server.request(method, `${prefix}/api/v1/seller-profile/`, { key, ...(body === undefined ? {} : { body }) });

const ACME = {
  displayName: 'Acme Cloud',
  legalName: 'Acme Software GmbH',
  address: { line1: 'Torstraße 1', city: 'Berlin', postalCode: '10119', country: 'de' },
  taxRegistrations: [{ country: 'DE', taxId: 'DE 136 695 976' }],
  supportEmail: 'help@acme.example',
  websiteUrl: 'https://acme.example',
  termsUrl: 'https://acme.example/terms',
  brandColor: '#1a7f5a',
  invoicePrefix: 'ACME',
  defaultLanguage: 'de',
  timeZone: 'Europe/Berlin',
};

async function eventsOf(type: string) {
  const environmentId = await environmentIdOf(server, org.organizationId, 'sandbox');
  return server.database.db.selectFrom('events').select(['type', 'payload']).where('environment_id', '=', environmentId).where('type', '=', type).orderBy('seq').execute();
}

describe("the seller's profile", () => {
  it("answers the defaults until it is set: the organization's name, English, UTC, version 0", async () => {
    const other = await server.createOrg();
    const res = await profile('GET', undefined, other.production.serverKey, '');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'seller_profile', legalName: null, address: null, taxRegistrations: [], defaultLanguage: 'en', timeZone: 'UTC', version: 0, updatedOn: null });
    expect(res.body.displayName).toEqual(expect.any(String));
    expect(res.body.displayName.length).toBeGreaterThan(0);
  });

  it('is updated in part, keeps what an update leaves out, counts versions and announces each change', async () => {
    const first = await profile('PATCH', ACME);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      displayName: 'Acme Cloud',
      legalName: 'Acme Software GmbH',
      address: { line1: 'Torstraße 1', line2: null, city: 'Berlin', postalCode: '10119', region: null, country: 'DE' },
      taxRegistrations: [{ country: 'DE', taxId: 'DE136695976', scheme: 'German VAT Number' }],
      brandColor: '#1A7F5A',
      invoicePrefix: 'ACME',
      defaultLanguage: 'de',
      timeZone: 'Europe/Berlin',
      version: 1,
    });
    const second = await profile('PATCH', { supportUrl: 'https://acme.example/help', termsUrl: null });
    expect(second.body).toMatchObject({ legalName: 'Acme Software GmbH', supportUrl: 'https://acme.example/help', termsUrl: null, version: 2 });
    expect((await profile('GET')).body).toEqual(second.body);

    const events = await eventsOf('seller_profile.updated');
    expect(events).toHaveLength(2);
    const last = events[1]!.payload as { data: { object: Record<string, unknown>; previous_attributes: Record<string, unknown> } };
    expect(last.data.object).toMatchObject({ object: 'seller_profile', legal_name: 'Acme Software GmbH', support_url: 'https://acme.example/help', version: 2 });
    expect(last.data.previous_attributes).toEqual({ support_url: null, terms_url: 'https://acme.example/terms' });
  });

  it('takes the tax ids of several countries, each checked by its own rules', async () => {
    const res = await profile('PATCH', {
      taxRegistrations: [
        { country: 'GB', taxId: 'GB980780684' },
        { country: 'AU', taxId: '51 824 753 556' },
        { country: 'CH', taxId: 'CHE-116.281.710' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.taxRegistrations.map((r: { country: string; taxId: string }) => [r.country, r.taxId])).toEqual([
      ['GB', 'GB980780684'],
      ['AU', '51824753556'],
      ['CH', 'CHE116281710'],
    ]);
    expect(res.body.taxRegistrations.every((r: { scheme: string | null }) => typeof r.scheme === 'string')).toBe(true);
  });

  it('refuses bad input with a 400 that names the field, and changes nothing', async () => {
    const before = (await profile('GET')).body;
    const cases: Array<[unknown, string]> = [
      [{ taxRegistrations: [{ country: 'DE', taxId: 'DE136695977' }] }, 'invalid_tax_id'],
      [{ taxRegistrations: [{ country: 'DE', taxId: 'DE136695976' }, { country: 'de', taxId: 'DE136695976' }] }, 'invalid_tax_id'],
      [{ taxRegistrations: [{ country: 'XX', taxId: '123' }] }, 'invalid_country'],
      [{ address: { line1: 'Main St 1', city: 'Springfield', country: 'ZZ' } }, 'invalid_country'],
      [{ timeZone: 'Mars/Olympus' }, 'invalid_time_zone'],
      [{ brandColor: 'green' }, 'validation_error'],
      [{ invoicePrefix: 'acme-' }, 'validation_error'],
      [{ invoicePrefix: 'ACME-CN' }, 'invalid_invoice_prefix'],
      [{ supportEmail: 'not an email' }, 'validation_error'],
      [{ websiteUrl: 'javascript:alert(1)' }, 'validation_error'],
      [{ defaultLanguage: 'xx' }, 'validation_error'],
      [{ displayName: '   ' }, 'validation_error'],
      [{ unknownField: 1 }, 'validation_error'],
      [{}, 'validation_error'],
    ];
    for (const [body, code] of cases) {
      const res = await profile('PATCH', body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 400, code]);
      expect(res.body.detail).toEqual(expect.any(String));
    }
    expect((await profile('GET')).body).toEqual(before);
  });

  it("names the place in the list of a refused tax registration, so that a form can show the refusal beside its row", async () => {
    const good = { country: 'DE', taxId: 'DE136695976' };
    const wrong = await profile('PATCH', { taxRegistrations: [good, { country: 'GB', taxId: 'GB980780685' }] });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'invalid_tax_id']);
    expect(wrong.body.detail).toMatch(/^taxRegistrations\[1\]: "GB980780685" is not a valid tax id of GB \(/);
    const twice = await profile('PATCH', { taxRegistrations: [good, { ...good, country: 'de' }] });
    expect(twice.body.detail).toMatch(/^taxRegistrations\[1\]\.country: DE is listed twice/);
    const country = await profile('PATCH', { taxRegistrations: [{ country: 'XX', taxId: '123' }] });
    expect(country.body.detail).toMatch(/^taxRegistrations\[0\]\.country: "XX" is not an ISO 3166-1 alpha-2 country code/);
  });

  it('belongs to one environment: production has its own, and a client key may not read or change it', async () => {
    expect((await profile('GET', undefined, org.production.serverKey, '')).body.version).toBe(0);
    expect((await profile('GET', undefined, org.sandbox.clientKey)).status).toBe(403);
    expect((await profile('PATCH', { legalName: 'Mallory Ltd' }, org.sandbox.clientKey)).status).toBe(403);
    expect((await profile('GET')).body.legalName).toBe('Acme Software GmbH');
  });
});
