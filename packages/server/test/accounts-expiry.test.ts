import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';
import { signedInMember } from './accounts-support.js';

/** Issue 29, item 1: sessions end when idle too long, and at their absolute expiry however busy. */
const HOUR = 3_600_000;
const clock = new ManualClock(new Date('2026-12-06T09:00:00Z'));
let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer({ clock });
  org = await server.createOrg();
});
afterAll(() => server.close());

describe('session expiry', () => {
  it('ends a session unused for 12 hours; use keeps it alive', async () => {
    const member = await signedInMember(server, org, 'viewer', clock);
    clock.advance(11 * HOUR);
    expect((await member.api('GET', '/api/v1/customers/')).status).toBe(200);
    clock.advance(11 * HOUR);
    expect((await member.dashboard('GET', '/session')).status).toBe(200);
    clock.advance(12 * HOUR + 1000);
    expect((await member.dashboard('GET', '/session')).status).toBe(401);
    expect((await member.api('GET', '/api/v1/customers/')).status).toBe(401);
  });

  it('ends a session 7 days after sign-in, however busy', async () => {
    const member = await signedInMember(server, org, 'viewer', clock);
    for (let hours = 0; hours < 7 * 24 - 10; hours += 10) {
      clock.advance(10 * HOUR);
      expect((await member.dashboard('GET', '/session')).status).toBe(200);
    }
    clock.advance(11 * HOUR);
    expect((await member.dashboard('GET', '/session')).status).toBe(401);
  });
});

describe('failed sign-ins from one address', () => {
  it('are refused past 30 in 15 minutes, whatever the emails, until the window moves on', async () => {
    const member = await signedInMember(server, org, 'viewer', clock);
    const attempt = (email: string, password = 'wrong password') => server.request('POST', '/dashboard/api/sign-in', { body: { email, password } });
    for (let i = 0; i < 30; i++) expect((await attempt(`nobody-${i}@example.com`)).status).toBe(401);
    const refused = await attempt(member.email, member.password);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('too_many_sign_ins');
    clock.advance(15 * 60_000 + 1000);
    expect((await attempt(member.email, member.password)).status).toBe(200);
  });
});
