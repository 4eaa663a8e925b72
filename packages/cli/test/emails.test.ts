/** `billow emails show|set` (issue 28, item 1): the email switches of an environment from the command line, on the database directly. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_KIND, assertBuilt, createOrganization, makeWorkspace, migratedTemplate, runCli, runOk, type Workspace } from './support.js';

let template: Workspace | null;
beforeAll(async () => {
  assertBuilt();
  template = await migratedTemplate();
});
afterAll(() => template?.cleanup());

let workspace: Workspace;
beforeEach(async () => {
  workspace = await makeWorkspace({ copyOf: template });
});
afterEach(() => workspace.cleanup());

const show = async (organizationId: string, env: string) => JSON.parse(await runOk(['emails', 'show', '--org', organizationId, '--env', env], workspace.env));

describe(`billow emails on ${DATABASE_KIND}`, () => {
  it('switches kinds off and on in one environment, keeps the others, and refuses bad values in one line', async () => {
    const { organizationId } = await createOrganization(workspace.env, 'Acme');
    const allOn = { receipts: true, refunds: true, paymentFailed: true, subscriptionEnded: true };
    expect(await show(organizationId, 'production')).toEqual(allOn);
    const printed = await runOk(['emails', 'set', '--org', organizationId, '--env', 'production', '--receipts', 'off', '--payment-failed', 'off'], workspace.env);
    expect(printed).toBe('Emails of production: receipts off, refunds on, payment-failed off, subscription-ended on\n');
    expect(await show(organizationId, 'production')).toEqual({ ...allOn, receipts: false, paymentFailed: false });
    expect(await show(organizationId, 'sandbox')).toEqual(allOn);

    for (const args of [['--receipts', 'maybe'], []]) {
      const result = await runCli(['emails', 'set', '--org', organizationId, '--env', 'production', ...args], workspace.env);
      expect([result.code, result.stderr.trim().split('\n').length], result.stderr).toEqual([1, 1]);
    }
    const unknown = await runCli(['emails', 'show', '--org', '00000000-0000-4000-8000-000000000000', '--env', 'sandbox'], workspace.env);
    expect([unknown.code, unknown.stderr.trim()]).toEqual([1, 'billow: No organization 00000000-0000-4000-8000-000000000000']);
    expect(await show(organizationId, 'production')).toEqual({ ...allOn, receipts: false, paymentFailed: false });
  });
});
