/** `billow user create` and the start-up sign-in link (issue 29, item 1). */
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { DATABASE_KIND, api, createOrganization, killServers, makeWorkspace, runCli, runOk, startServer, workspacePerTest } from './support.js';

const workspaces = workspacePerTest();
afterEach(() => killServers());

const LINK = /(http:\/\/\S+)\/dashboard\/welcome\?token=([A-Za-z0-9]+)/;

async function signInWith(url: string, token: string) {
  return api(`${url}/dashboard/api/sign-in/link`, 'POST', { body: { token } });
}

describe(`billow user on ${DATABASE_KIND}`, () => {
  it('makes a member with a role and prints a one-time sign-in link that the server takes once', async () => {
    const { organizationId } = await createOrganization(workspaces.current.env, 'Acme');
    const printed = await runOk(['user', 'create', '--org', organizationId, '--email', 'ada@example.com', '--role', 'owner', '--name', 'Ada'], workspaces.current.env);
    expect(printed).toMatch(new RegExp(`^ada@example.com is owner of ${organizationId}\\.\\nSign in once, within an hour: http://localhost:\\d+/dashboard/welcome\\?token=[A-Za-z0-9]+\\n$`));
    const token = LINK.exec(printed)![2]!;
    const server = await startServer(workspaces.current);
    const first = await signInWith(server.url, token);
    expect(first.status).toBe(200);
    expect(first.body.user).toMatchObject({ email: 'ada@example.com', name: 'Ada' });
    expect(first.body.memberships).toEqual([{ organizationId, organizationName: 'Acme', role: 'owner' }]);
    expect((await signInWith(server.url, token)).status).toBe(401);
  });

  it('refuses a bad email, role or organization in one line, exit status 1', async () => {
    const { organizationId } = await createOrganization(workspaces.current.env, 'Acme');
    const refused = async (args: string[], message: RegExp) => {
      const result = await runCli(['user', 'create', ...args], workspaces.current.env);
      expect([result.code, result.stderr.trim().split('\n').length], result.stderr).toEqual([1, 1]);
      expect(result.stderr).toMatch(message);
    };
    await refused(['--org', organizationId, '--email', 'not-an-email', '--role', 'owner'], /--email: "not-an-email" is not an email address/);
    await refused(['--org', organizationId, '--email', 'a@example.com', '--role', 'king'], /king.*(owner, admin, developer, support, viewer|choices)/);
    await refused(['--org', '00000000-0000-4000-8000-000000000000', '--email', 'a@example.com', '--role', 'owner'], /No organization 00000000-0000-4000-8000-000000000000/);
  });

  it("prints the demo owner's one-time sign-in link at the first start, and signs in with it", async () => {
    // A database with no organization (on PostgreSQL, one of its own): the start that creates the demo organization.
    const fresh = await makeWorkspace({ emptyDatabase: true });
    onTestFinished(async () => {
      await killServers();
      await fresh.cleanup();
    });
    const server = await startServer(fresh);
    const match = LINK.exec(server.stdout());
    expect(match, server.stdout()).not.toBeNull();
    expect(server.stdout()).toMatch(/Sign in to the dashboard as owner@demo-software\.example \(owner; the link works once, for a day\):/);
    const signedIn = await signInWith(server.url, match![2]!);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.memberships[0]).toMatchObject({ organizationName: 'Demo', role: 'owner' });
  });
});
