/**
 * The online check of EU VAT ids (BILLOW_TAX_ID_CHECK=vies, decision 0066) against a fake
 * VIES REST endpoint on 127.0.0.1: a valid id is kept `verified` with the register's name,
 * one the register does not know is refused (400, nothing changes), and when the register is
 * down, slow or failing, the id (which passed its check digits) is kept as `unavailable`.
 * Ids of other types are never sent; an id already kept is not asked about again.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

/** What the fake register answers, by VAT number (without its prefix). */
const REGISTER: Record<string, 'valid' | 'invalid' | 'ms_unavailable' | 'slow' | 'error'> = {
  '40303265045': 'valid',
  '44732829320': 'invalid',
  '03552081317': 'ms_unavailable',
  '64443061841': 'slow',
  '13542107651': 'error',
};

let fake: http.Server;
let asked: Array<{ countryCode: string; vatNumber: string }> = [];
let server: TestServer;
let down: TestServer;
let org: TestOrg;
let downOrg: TestOrg;

function answer(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

beforeAll(async () => {
  fake = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/rest-api/check-vat-number') return answer(res, 404, {});
      const body = JSON.parse(raw) as { countryCode: string; vatNumber: string };
      asked.push(body);
      const kind = REGISTER[body.vatNumber] ?? 'invalid';
      if (kind === 'slow') return; // never answers: the client's timeout ends the wait
      if (kind === 'error') return answer(res, 500, { message: 'internal error' });
      if (kind === 'ms_unavailable') return answer(res, 200, { actionSucceed: false, errorWrappers: [{ error: 'MS_UNAVAILABLE' }] });
      const valid = kind === 'valid';
      answer(res, 200, { countryCode: body.countryCode, vatNumber: body.vatNumber, requestDate: new Date().toISOString(), valid, name: valid ? 'SOCIETE EXEMPLE SA' : '---', address: valid ? '1 RUE X, PARIS' : '---' });
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const port = (fake.address() as AddressInfo).port;
  server = await startTestServer({ env: { BILLOW_TAX_ID_CHECK: 'vies', BILLOW_VIES_URL: `http://127.0.0.1:${port}/rest-api/check-vat-number`, BILLOW_VIES_TIMEOUT_MS: '400' } });
  org = await server.createOrg();
  // A register nobody listens on: the connection is refused.
  down = await startTestServer({ env: { BILLOW_TAX_ID_CHECK: 'vies', BILLOW_VIES_URL: 'http://127.0.0.1:9/check-vat-number', BILLOW_VIES_TIMEOUT_MS: '400' }, database: server.database });
  downOrg = await down.createOrg();
});
afterAll(async () => {
  await down?.close();
  await server?.close();
  fake?.closeAllConnections();
  await new Promise((resolve) => fake?.close(resolve));
});

const create = (taxIds: unknown, on: TestServer = server, key = org.sandbox.serverKey) =>
  on.request('POST', '/sandbox/api/v1/customers/', { key, body: { customerId: uniqueId('vies'), taxIds } });

describe('the VIES check of EU VAT ids', () => {
  it('keeps an id the register knows as verified, with its name and when it was checked', async () => {
    asked = [];
    const res = await create([{ value: 'FR 40 303 265 045' }]);
    expect(res.status).toBe(201);
    expect(res.body.taxIds[0]).toMatchObject({ type: 'eu_vat', value: 'FR40303265045', verification: { status: 'verified', name: 'SOCIETE EXEMPLE SA' } });
    expect(Date.parse(res.body.taxIds[0].verification.checkedOn)).not.toBeNaN();
    expect(asked).toEqual([{ countryCode: 'FR', vatNumber: '40303265045' }]);
  });

  it('refuses an id the register says is not valid: a 400 with a detail, and nothing changes', async () => {
    const customerId = uniqueId('vies');
    await server.request('POST', '/sandbox/api/v1/customers/', { key: org.sandbox.serverKey, body: { customerId, name: 'Before' } });
    const res = await server.request('PATCH', `/sandbox/api/v1/customers/${customerId}/`, { key: org.sandbox.serverKey, body: { name: 'After', taxIds: [{ value: 'FR44732829320' }] } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/"FR44732829320" is not a VAT id the EU's register \(VIES\) knows as valid/);
    const after = await server.request('GET', `/sandbox/api/v1/customers/${customerId}/`, { key: org.sandbox.serverKey });
    expect(after.body).toMatchObject({ name: 'Before' });
    expect(after.body.taxIds).toBeUndefined();
  });

  it('keeps the id as unavailable when the register cannot be asked: its member state is down, it fails, it is slow, or nobody answers', async () => {
    for (const value of ['FR03552081317', 'FR13542107651', 'FR64443061841']) {
      const started = Date.now();
      const res = await create([{ value }]);
      expect(res.status, value).toBe(201);
      expect(res.body.taxIds[0]).toMatchObject({ value, verification: { status: 'unavailable', name: null } });
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    const refused = await create([{ value: 'FR40303265045' }], down, downOrg.sandbox.serverKey);
    expect(refused.status).toBe(201);
    expect(refused.body.taxIds[0].verification.status).toBe('unavailable');
  });

  it('checks EU VAT ids only, never an id whose check digits fail, and never an id the customer already has', async () => {
    asked = [];
    expect((await create([{ value: 'GB980780684' }, { value: '51824753556', country: 'AU' }])).status).toBe(201);
    expect((await create([{ value: 'FR40303265046' }])).status).toBe(400);
    expect(asked).toEqual([]);
    const customerId = uniqueId('vies');
    await server.request('POST', '/sandbox/api/v1/customers/', { key: org.sandbox.serverKey, body: { customerId, taxIds: [{ value: 'FR40303265045' }] } });
    expect(asked).toHaveLength(1);
    const again = await server.request('PATCH', `/sandbox/api/v1/customers/${customerId}/`, { key: org.sandbox.serverKey, body: { taxIds: [{ value: 'FR40303265045' }, { value: 'GB980780684' }] } });
    expect(again.status).toBe(200);
    expect(again.body.taxIds[0].verification.status).toBe('verified');
    expect(asked).toHaveLength(1);
  });
});
