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
  ['--payment-failed <on|off>', 'paymentFailed', "a notice of a failed payment, with the invoice's pay link"],
  ['--subscription-ended <on|off>', 'subscriptionEnded', 'a notice when a subscription ends'],
] as const;

function onOff(value: string): boolean {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new InvalidArgumentError('use on or off');
}

const words = (settings: Record<string, boolean>) =>
  SWITCHES.map(([flag, field]) => `${flag.split(' ')[0]!.slice(2)} ${settings[field] ? 'on' : 'off'}`).join(', ');

export function registerEmailCommands(program: Command, parts: EmailCommandParts): void {
  const emails = program.command('emails').description('Which emails buyers get from an environment (receipts, refunds, failed payments, ended subscriptions)');
  const target = (command: Command) =>
    command
      .requiredOption('--org <id>', 'organization id (a UUID)', parts.organizationIdArg)
      .addOption(new Option('--env <environment>', 'sandbox or production').argParser(parts.environmentArg).makeOptionMandatory());

  target(emails.command('show').description("Print an environment's email switches as JSON")).action(async (options: { org: string; env: 'sandbox' | 'production' }) => {
    const view = await parts.withDatabase((database, { emails: admin, systemClock }) => admin.showEmailSettings(database.db, systemClock, options.org, options.env));
    process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
  });

  const set = target(emails.command('set').description('Switch emails on or off; the ones not given are kept'));
  for (const [flag, , description] of SWITCHES) set.option(flag, description, onOff);
  set.action(async (options: Record<string, unknown> & { org: string; env: 'sandbox' | 'production' }) => {
    const update = Object.fromEntries(SWITCHES.flatMap(([, field]) => (options[field] === undefined ? [] : [[field, options[field]]])));
    if (Object.keys(update).length === 0) return program.error('error: give at least one switch to set (see --help)');
    const view = await parts.withDatabase((database, { emails: admin, systemClock }) =>
      admin.updateEmailSettings(database.db, systemClock, options.org, options.env, update),
    );
    process.stdout.write(`Emails of ${options.env}: ${words(view)}\n`);
  });
}
