/** `billow emails show|set` (issue 28, item 1): the email switches of an environment from the command line, on the database directly. */
import { describe, expect, it } from 'vitest';
import { DATABASE_KIND, createOrganization, runCli, runOk, workspacePerTest } from './support.js';

const workspaces = workspacePerTest();

const show = async (organizationId: string, env: string) => JSON.parse(await runOk(['emails', 'show', '--org', organizationId, '--env', env], workspaces.current.env));

const DEFAULTS = {
  receipts: true,
  refunds: true,
  paymentFailed: true,
  paymentRetryFailed: true,
  cancelledUnpaid: true,
  subscriptionCancelled: true,
  cancellationScheduled: true,
  subscriptionEnded: true,
  trialEnding: true,
  upcomingRenewal: true,
  cardExpiring: true,
  trialEndingDays: 3,
  upcomingRenewalDays: 7,
  cardExpiringDays: 30,
};

describe(`billow emails on ${DATABASE_KIND}`, () => {
  it('switches kinds and sets the reminders\' days in one environment, keeps the rest, and refuses bad values in one line', async () => {
    const { organizationId } = await createOrganization(workspaces.current.env, 'Acme');
    expect(await show(organizationId, 'production')).toEqual(DEFAULTS);
    const set = ['emails', 'set', '--org', organizationId, '--env', 'production'];
    const printed = await runOk([...set, '--receipts', 'off', '--payment-failed', 'off', '--card-expiring', 'off', '--trial-ending-days', '5'], workspaces.current.env);
    expect(printed).toBe(
      'Emails of production: receipts off, refunds on, payment-failed off, payment-retry-failed on, cancelled-unpaid on, subscription-cancelled on, ' +
        'cancellation-scheduled on, subscription-ended on, trial-ending on, upcoming-renewal on, card-expiring off, ' +
        'trial-ending-days 5, upcoming-renewal-days 7, card-expiring-days 30\n',
    );
    const expected = { ...DEFAULTS, receipts: false, paymentFailed: false, cardExpiring: false, trialEndingDays: 5 };
    expect(await show(organizationId, 'production')).toEqual(expected);
    expect(await show(organizationId, 'sandbox')).toEqual(DEFAULTS);

    for (const args of [['--receipts', 'maybe'], [], ['--trial-ending-days', 'three'], ['--upcoming-renewal-days', '91']]) {
      const result = await runCli([...set, ...args], workspaces.current.env);
      expect([result.code, result.stderr.trim().split('\n').length], result.stderr).toEqual([1, 1]);
      // The range is the API's, in its words.
      if (args[1] === '91') expect(result.stderr.trim()).toBe('billow: upcomingRenewalDays must be a whole number of days from 1 to 90');
    }
    const unknown = await runCli(['emails', 'show', '--org', '00000000-0000-4000-8000-000000000000', '--env', 'sandbox'], workspaces.current.env);
    expect([unknown.code, unknown.stderr.trim()]).toEqual([1, 'billow: No organization 00000000-0000-4000-8000-000000000000']);
    expect(await show(organizationId, 'production')).toEqual(expected);
  });
});
