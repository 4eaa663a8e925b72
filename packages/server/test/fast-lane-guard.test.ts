import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyCache } from '../src/http/auth.js';
import { environmentRewriter } from '../src/http/environment.js';
import { FastLane } from '../src/http/fast-lane.js';
import { LatencyHistogram } from '../src/http/latency-histogram.js';
import type { KeyRecord } from '../src/modules/tenancy/queries.js';

const KEY: KeyRecord = {
  id: 'key-1',
  kind: 'server',
  organizationId: 'org-1',
  environmentId: 'env-1',
  environmentKind: 'production',
  partnerId: null,
  revoked: false,
};

/**
 * The lane on a bare server whose "framework" answers 418: a lane route whose
 * answer throws must hand the request on, not crash the process, and say so (a log
 * line and a count; issue 26, item 6).
 */
describe('the fast lane when a route throws', () => {
  let server: Server;
  let base: string;
  const answered = { count: 0, inc: () => answered.count++ };
  const failed = { count: 0, inc: () => failed.count++ };
  const logged: Array<{ details: Record<string, unknown>; message: string }> = [];
  const log = { error: (details: object, message: string) => logged.push({ details: details as Record<string, unknown>, message }) };

  beforeAll(async () => {
    const lane = new FastLane(true);
    const registry = new Registry();
    lane.attach({
      keys: { cached: (secret: string) => (secret === 'sk_live_cached' ? KEY : undefined) } as unknown as KeyCache,
      rewriteUrl: environmentRewriter(new Map()),
      rateLimit: { max: 100, hit: () => ({ count: 1, resetMs: 1000 }) },
      recorder: { latency: new LatencyHistogram('lane_guard_seconds', 'test', [0.01], registry), requestLog: null },
      trustProxy: false,
      answered,
      failed,
      log,
    });
    const route = { required: ['customer_id'], optional: [], keys: ['server', 'client'] as const };
    lane.route('/api/v1/throws/', { ...route, url: '/api/v1/throws/', answer: () => { throw new Error('boom'); } });
    lane.route('/api/v1/fine/', { ...route, url: '/api/v1/fine/', answer: () => Buffer.from('{"ok":true}') });
    server = lane.serverFactory((_req, res) => {
      res.writeHead(418, { 'content-type': 'text/plain' });
      res.end('framework');
    }, {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (path: string, key = 'sk_live_cached') => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });

  it('hands the request to the framework and keeps serving', async () => {
    const thrown = await get('/api/v1/throws?customer_id=c1');
    expect(thrown.status).toBe(418);
    expect(await thrown.text()).toBe('framework');
    const fine = await get('/api/v1/fine?customer_id=c1');
    expect(fine.status).toBe(200);
    expect(await fine.json()).toEqual({ ok: true });
    expect(answered.count).toBe(1);
    expect(failed.count).toBe(1);
    expect(logged).toEqual([{ details: { err: new Error('boom'), method: 'GET', url: '/api/v1/throws?customer_id=c1' }, message: expect.stringContaining('fast lane step failed') }]);
  });

  it('leaves to the framework what it cannot answer: an unknown key, a missing name', async () => {
    expect((await get('/api/v1/fine?customer_id=c1', 'sk_live_other')).status).toBe(418);
    expect((await get('/api/v1/fine?feature_id=f1')).status).toBe(418);
    expect(answered.count).toBe(1);
    expect(failed.count).toBe(1);
  });
});
