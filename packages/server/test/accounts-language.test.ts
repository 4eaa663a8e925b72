import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';
import { signedInMember } from './accounts-support.js';

/** Issue 29: the dashboard's language, the person's own choice kept on their account (decision 0108). */
let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
});
afterAll(() => server.close());

describe("the dashboard's language", () => {
  it('is null until chosen, then the session of every later sign-in carries it; null goes back to the browser', async () => {
    const person = await signedInMember(server, org, 'viewer');
    expect((await person.dashboard('GET', '/session')).body.user.language).toBeNull();
    const chosen = await person.dashboard('PUT', '/language', { language: 'de' });
    expect(chosen.status, chosen.text).toBe(204);
    expect((await person.dashboard('GET', '/session')).body.user.language).toBe('de');
    const again = await server.request('POST', '/dashboard/api/sign-in', { body: { email: person.email, password: person.password } });
    expect(again.body.user.language).toBe('de');
    expect((await person.dashboard('PUT', '/language', { language: null })).status).toBe(204);
    expect((await person.dashboard('GET', '/session')).body.user.language).toBeNull();
  });

  it("changes only the person's own account", async () => {
    const one = await signedInMember(server, org, 'owner');
    const other = await signedInMember(server, org, 'support');
    expect((await one.dashboard('PUT', '/language', { language: 'ja' })).status).toBe(204);
    expect((await other.dashboard('GET', '/session')).body.user.language).toBeNull();
  });

  it('refuses a language the dashboard does not speak, or no CSRF token, and changes nothing', async () => {
    const person = await signedInMember(server, org, 'admin');
    await person.dashboard('PUT', '/language', { language: 'fr' });
    const unknown = await person.dashboard('PUT', '/language', { language: 'xx' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toEqual(expect.any(String));
    expect((await person.dashboard('PUT', '/language', {})).status).toBe(400);
    expect((await person.dashboard('PUT', '/language', { language: 'es' }, { csrf: false })).status).toBe(401);
    expect((await person.dashboard('GET', '/session')).body.user.language).toBe('fr');
  });
});
