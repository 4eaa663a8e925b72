/** `billow profile show|set`: the seller's identity of an environment (issue 27), without the HTTP service. */
import fs from 'node:fs';
import { Option, type Command } from 'commander';
import type * as BillowAdmin from '@billow/server/admin';
import type { DatabaseHandle } from '@billow/server/admin';

type Server = typeof BillowAdmin;

export interface ProfileCommandParts {
  withDatabase<T>(work: (database: DatabaseHandle, billow: Server) => Promise<T>): Promise<T>;
  organizationIdArg(value: string): string;
  environmentArg(value: string): 'sandbox' | 'production';
}

/** The flags that set one field each, by the field's name in the API. */
const FIELD_FLAGS = [
  ['--display-name <name>', 'displayName', 'the name buyers see'],
  ['--legal-name <name>', 'legalName', 'the legal entity that sells, as on invoices'],
  ['--support-email <email>', 'supportEmail', 'where buyers write for help'],
  ['--support-url <url>', 'supportUrl', 'where buyers get help'],
  ['--website-url <url>', 'websiteUrl', "the seller's site"],
  ['--terms-url <url>', 'termsUrl', 'terms of sale'],
  ['--privacy-url <url>', 'privacyUrl', 'privacy policy'],
  ['--refund-policy-url <url>', 'refundPolicyUrl', 'refund policy'],
  ['--brand-color <#rrggbb>', 'brandColor', 'the colour of buttons and headings'],
  ['--invoice-prefix <prefix>', 'invoicePrefix', 'what invoice numbers start with, e.g. ACME'],
  ['--language <code>', 'defaultLanguage', 'en, de, fr, es or ja'],
  ['--time-zone <zone>', 'timeZone', 'IANA time zone of dates on documents, e.g. Europe/Berlin'],
] as const;

function camelOption(flag: string): string {
  return flag.split(' ')[0]!.replace(/^--/, '').replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** The update a `set` asks for: the file's fields (the API's body), then each flag over them. */
function updateOf(options: Record<string, unknown>): Record<string, unknown> {
  const update: Record<string, unknown> = {};
  if (typeof options.file === 'string') Object.assign(update, JSON.parse(fs.readFileSync(options.file, 'utf8')) as Record<string, unknown>);
  for (const [flag, field] of FIELD_FLAGS) {
    const value = options[camelOption(flag)];
    if (value !== undefined) update[field] = value === '' ? null : value;
  }
  return update;
}

export function registerProfileCommands(program: Command, parts: ProfileCommandParts): void {
  const profile = program.command('profile').description("The seller's identity on pages, invoices and emails (per environment)");
  const target = (command: Command) =>
    command
      .requiredOption('--org <id>', 'organization id (a UUID)', parts.organizationIdArg)
      .addOption(new Option('--env <environment>', 'sandbox or production').argParser(parts.environmentArg).makeOptionMandatory());

  target(profile.command('show').description("Print an environment's seller profile as JSON")).action(async (options: { org: string; env: 'sandbox' | 'production' }) => {
    const view = await parts.withDatabase((database, { profiles, systemClock }) => profiles.showProfile(database.db, systemClock, options.org, options.env));
    process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
  });

  const set = target(profile.command('set').description('Update fields of the seller profile; the ones not given are kept'))
    .option('--file <profile.json>', 'fields as the API takes them (PATCH /api/v1/seller-profile/): address and taxRegistrations go here')
    .addHelpText('after', '\nAn empty value clears a field (--terms-url ""). Flags win over the same field in --file.');
  for (const [flag, , description] of FIELD_FLAGS) set.option(flag, description);
  set.action(async (options: Record<string, unknown> & { org: string; env: 'sandbox' | 'production' }) => {
    let update: Record<string, unknown>;
    try {
      update = updateOf(options);
    } catch (error) {
      return program.error(`error: --file: ${error instanceof Error ? error.message : String(error)}`);
    }
    const view = await parts.withDatabase(async (database, { profiles, systemClock, bodyProblem, SellerProfileUpdate }) => {
      const problem = bodyProblem(SellerProfileUpdate, update);
      if (problem) throw new profiles.ProfileAdminError(Object.keys(update).length === 0 ? 'give at least one field to set (see --help)' : problem);
      return profiles.updateProfile(database.db, systemClock, options.org, options.env, update as Parameters<typeof profiles.updateProfile>[4]);
    });
    process.stdout.write(`Seller profile of ${options.env} updated (version ${view.version}): ${view.displayName}${view.legalName ? `, ${view.legalName}` : ''}\n`);
  });
}
