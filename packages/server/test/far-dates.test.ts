import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';
import { apiOf, createEndpoint, type Api } from './webhook-fixtures.js';

/**
 * Dates at the far end of the calendar (issue 24, item 13): the embedded database
 * answered 500 where PostgreSQL answered 200. Every list filter and the replay
 * take them and answer the same on both, with nothing found in the future.
 */
let server: TestServer;
let org: TestOrg;
let api: Api;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  api = apiOf(server, org, 'sandbox');
});
afterAll(() => server.close());

const LISTS = ['/orders/', '/transaction/', '/refunds/', '/checkout/sessions/', '/webhook/logs/'];
const FAR = ['9999-12-31', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999-01:00', '275760-09-13'];

describe('list filters at the end of the calendar', () => {
  const cases = LISTS.flatMap((path) =>
    FAR.flatMap((date) => [`end_date=${encodeURIComponent(date)}`, `start_date=${encodeURIComponent(date)}`].map((query) => [path, query] as const)),
  );

  it.each(cases)('GET %s?%s answers as PostgreSQL does', async (path, query) => {
    const res = await api('GET', `${path}?${query}`);
    // Years past 9999 are not dates of the day format (YYYY-MM-DD): 400, never 500.
    if (query.includes('275760')) {
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('validation_error');
      return;
    }
    expect(res.status, res.text).toBe(200);
    expect(res.body.count).toBe(0);
  });
});

describe('webhook replay until the end of the calendar', () => {
  it.each(['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999-01:00', '9999-12-31T23:59:59.999-14:00'])(
    'until=%s queues the events since, as PostgreSQL does',
    async (until) => {
      const endpoint = await createEndpoint(api, { url: 'https://hooks.example/far' });
      const since = new Date(Date.now() - 60_000).toISOString();
      const res = await api('POST', `/webhook/endpoints/${endpoint.id}/replay/`, { since, until });
      expect(res.status, res.text).toBe(202);
      expect(res.body).toEqual({ queued: expect.any(Number) });
    },
  );
});
