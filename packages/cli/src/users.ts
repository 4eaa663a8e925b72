/** `billow user create` (issue 29): a person of an organization with a role, and a one-time sign-in link. */
import { Option, type Command } from 'commander';
import type * as BillowAdmin from '@billow/server/admin';
import type { DatabaseHandle } from '@billow/server/admin';

type Server = typeof BillowAdmin;

export interface UserCommandParts {
  withDatabase<T>(work: (database: DatabaseHandle, billow: Server) => Promise<T>): Promise<T>;
  organizationIdArg(value: string): string;
}

const ROLES = ['owner', 'admin', 'developer', 'support', 'viewer'];

export function registerUserCommands(program: Command, parts: UserCommandParts): void {
  const user = program.command('user').description("The seller's people who sign in to the dashboard");
  user
    .command('create')
    .description('Make someone a member of an organization with a role, and print a one-time sign-in link')
    .requiredOption('--org <id>', 'organization id (a UUID)', parts.organizationIdArg)
    .requiredOption('--email <email>', 'their email address (their account, made if it does not exist)')
    .addOption(new Option('--role <role>', 'what they may do (see docs/dashboard.md, "Roles")').choices(ROLES).makeOptionMandatory())
    .option('--name <name>', 'their name, as the team page shows it')
    .addHelpText('after', '\nThe link works once, for an hour; later they sign in with a password or ask for a link by email.')
    .action(async (options: { org: string; email: string; role: string; name?: string }) => {
      const { link } = await parts.withDatabase(async (database, { users, systemClock, loadConfig }) => {
        const config = loadConfig();
        const rootUrl = config.publicUrl ?? `http://localhost:${config.port}`;
        return users.createUser(database.db, systemClock, { organizationId: options.org, email: options.email, role: options.role, name: options.name, rootUrl });
      });
      process.stdout.write(`${options.email} is ${options.role} of ${options.org}.\nSign in once, within an hour: ${link}\n`);
    });
}
