/** `billow profile show|set` (issue 27, item 1): the API's rules from the command line, on the database directly. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_KIND, createOrganization, runCli, runOk, workspacePerTest } from './support.js';

const workspaces = workspacePerTest();

const show = async (organizationId: string, env: string) => JSON.parse(await runOk(['profile', 'show', '--org', organizationId, '--env', env], workspaces.current.env));

describe(`billow profile on ${DATABASE_KIND}`, () => {
  it('sets fields by flag and from a file, keeps the others, and shows the profile of one environment', async () => {
    const { organizationId } = await createOrganization(workspaces.current.env, 'Acme');
    expect(await show(organizationId, 'production')).toMatchObject({ displayName: 'Acme', legalName: null, version: 0 });
    const file = path.join(workspaces.current.root, 'profile.json');
    fs.writeFileSync(file, JSON.stringify({ address: { line1: '1 Rue de la Paix', city: 'Paris', country: 'FR' }, taxRegistrations: [{ country: 'FR', taxId: 'FR40303265045' }] }));
    const printed = await runOk(
      ['profile', 'set', '--org', organizationId, '--env', 'production', '--legal-name', 'Acme SAS', '--time-zone', 'Europe/Paris', '--support-email', 'help@acme.example', '--file', file],
      workspaces.current.env,
    );
    expect(printed).toBe('Seller profile of production updated (version 1): Acme, Acme SAS\n');
    expect(await show(organizationId, 'production')).toMatchObject({
      legalName: 'Acme SAS',
      timeZone: 'Europe/Paris',
      supportEmail: 'help@acme.example',
      address: { line1: '1 Rue de la Paix', city: 'Paris', country: 'FR' },
      taxRegistrations: [{ country: 'FR', taxId: 'FR40303265045', scheme: 'French VAT Number' }],
      version: 1,
    });
    expect(await show(organizationId, 'sandbox')).toMatchObject({ legalName: null, version: 0 });
  });

  it('refuses bad values in one line, exit status 1, and changes nothing', async () => {
    const { organizationId } = await createOrganization(workspaces.current.env, 'Acme');
    const refused = async (args: string[], message: RegExp) => {
      const result = await runCli(['profile', 'set', '--org', organizationId, '--env', 'sandbox', ...args], workspaces.current.env);
      expect([result.code, result.stderr.trim().split('\n').length]).toEqual([1, 1]);
      expect(result.stderr).toMatch(message);
    };
    await refused(['--time-zone', 'Mars/Olympus'], /timeZone: "Mars\/Olympus" is not an IANA time zone/);
    await refused(['--brand-color', 'green'], /brandColor/);
    await refused(['--file', path.join(workspaces.current.root, 'missing.json')], /--file: ENOENT/);
    expect(await show(organizationId, 'sandbox')).toMatchObject({ version: 0 });
  });
});
