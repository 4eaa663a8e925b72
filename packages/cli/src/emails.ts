/** `billow emails show|set`: which emails the buyers of an environment get (issue 28), without the HTTP service. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import type * as BillowAdmin from '@billow/server/admin';
import type { DatabaseHandle } from '@billow/server/admin';

type Server = typeof BillowAdmin;

export interface EmailCommandParts {
  withDatabase<T>(work: (database: DatabaseHandle, billow: Server) => Promise<T>): Promise<T>;
  organizationIdArg(value: string): string;
  environmentArg(value: string): 'sandbox' | 'production';
}

/** The switches, by flag and by the API's field name. */
const SWITCHES = [
  ['--receipts <on|off>', 'receipts', 'a receipt, with the invoice PDF, for every successful payment'],
  ['--refunds <on|off>', 'refunds', 'a refund notice, with the credit note PDF'],
  ['--payment-failed <on|off>', 'paymentFailed', "a notice of a failed renewal payment, with the invoice's pay link and the next try"],
  ['--payment-retry-failed <on|off>', 'paymentRetryFailed', 'a notice of each failed retry, the final notice before cancellation included'],
  ['--cancelled-unpaid <on|off>', 'cancelledUnpaid', 'a notice that a subscription was cancelled because it could not be paid'],
  ['--subscription-cancelled <on|off>', 'subscriptionCancelled', 'a notice when a subscription is cancelled with immediate effect'],
  ['--cancellation-scheduled <on|off>', 'cancellationScheduled', 'a notice when a subscription is set to end later'],
  ['--subscription-ended <on|off>', 'subscriptionEnded', 'a notice when a subscription reaches the end it was set to'],
  ['--trial-ending <on|off>', 'trialEnding', 'a reminder before a free trial ends'],
  ['--upcoming-renewal <on|off>', 'upcomingRenewal', 'a reminder before a yearly renewal, with the amount and how to cancel'],
  ['--card-expiring <on|off>', 'cardExpiring', 'a reminder when the card on file expires before the next renewal'],
] as const;

/** How many days before what they announce the reminders are sent, by flag and field. */
const DAYS = [
  ['--trial-ending-days <days>', 'trialEndingDays', 'days before a trial ends'],
  ['--upcoming-renewal-days <days>', 'upcomingRenewalDays', 'days before a yearly renewal'],
  ['--card-expiring-days <days>', 'cardExpiringDays', 'days before the card expires'],
] as const;

function onOff(value: string): boolean {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new InvalidArgumentError('use on or off');
}

/** A whole number of days; its range is checked by the server's rules (the same as the API's). */
function wholeDays(value: string): number {
  if (!/^\d{1,4}$/.test(value)) throw new InvalidArgumentError('use a whole number of days');
  return Number(value);
}

const nameOf = (flag: string) => flag.split(' ')[0]!.slice(2);
const words = (settings: Record<string, boolean | number>) =>
  [
    ...SWITCHES.map(([flag, field]) => `${nameOf(flag)} ${settings[field] ? 'on' : 'off'}`),
    ...DAYS.map(([flag, field]) => `${nameOf(flag)} ${String(settings[field])}`),
  ].join(', ');

export function registerEmailCommands(program: Command, parts: EmailCommandParts): void {
  const emails = program
    .command('emails')
    .description('Which emails buyers get from an environment (receipts, refunds, failed payments, cancellations, reminders) and when reminders go out');
  const target = (command: Command) =>
    command
      .requiredOption('--org <id>', 'organization id (a UUID)', parts.organizationIdArg)
      .addOption(new Option('--env <environment>', 'sandbox or production').argParser(parts.environmentArg).makeOptionMandatory());

  target(emails.command('show').description("Print an environment's email settings as JSON")).action(async (options: { org: string; env: 'sandbox' | 'production' }) => {
    const view = await parts.withDatabase((database, { emails: admin, systemClock }) => admin.showEmailSettings(database.db, systemClock, options.org, options.env));
    process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
  });

  const set = target(emails.command('set').description('Switch emails on or off, or set when reminders go out; the settings not given are kept'));
  for (const [flag, , description] of SWITCHES) set.option(flag, description, onOff);
  for (const [flag, , description] of DAYS) set.option(flag, description, wholeDays);
  set.action(async (options: Record<string, unknown> & { org: string; env: 'sandbox' | 'production' }) => {
    const fields = [...SWITCHES, ...DAYS].map(([, field]) => field);
    const update = Object.fromEntries(fields.flatMap((field) => (options[field] === undefined ? [] : [[field, options[field]]])));
    if (Object.keys(update).length === 0) return program.error('error: give at least one setting (see --help)');
    const view = await parts.withDatabase((database, { emails: admin, systemClock }) =>
      admin.updateEmailSettings(database.db, systemClock, options.org, options.env, update),
    );
    process.stdout.write(`Emails of ${options.env}: ${words(view)}\n`);
  });
}
