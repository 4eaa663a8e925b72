#!/usr/bin/env node
import v8 from 'node:v8';
import { Command, InvalidArgumentError, Option } from 'commander';
import type * as BillowAdmin from '@billow/server/admin';
import type { DatabaseHandle } from '@billow/server/admin';
import { printTable } from './table.js';
import { registerEmailCommands } from './emails.js';
import { registerAnalyticsCommands } from './analytics.js';
import { registerProfileCommands } from './profile.js';
import { registerUserCommands } from './users.js';
import { registerCatalogCommands } from './catalog/commands.js';

type Server = typeof BillowAdmin;

/**
 * Code loads only for commands that run: help and usage errors stay instant, and admin
 * commands load the database and organizations, not the HTTP service (`start` does).
 */
const loadServer = (): Promise<Server> => import('@billow/server/admin');
const loadService = () => import('@billow/server');

const program = new Command();

program
  .name('billow')
  .description('Billow: billing, catalog and entitlements for software sellers')
  .configureOutput({ outputError: (message, write) => write(oneLineUsageError(message)) })
  .addHelpText(
    'after',
    `
Configuration comes from the environment (the same for every command):
  DATABASE_URL        PostgreSQL connection URL; without it, the embedded database
  BILLOW_DATA_DIR     embedded database directory (default ./.billow/data)
  PORT, HOST          where \`start\` listens (default 4000, 0.0.0.0)`,
  );

/**
 * V8's allocation-site pretenuring, left on, can decide under load that a site allocating
 * per-request objects makes long-lived ones and place them straight in the old generation:
 * the old generation then fills at megabytes a second, each scavenge takes milliseconds and
 * every mark-compact stalls the requests in flight (decision 0041 has the measurements).
 * V8 reads this flag at every collection, so setting it here, before the server loads, works.
 */
function servingHeapFlags(): void {
  if (process.env.BILLOW_V8_PRETENURING === 'on') return;
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}

/** Commander's usage errors as one line in the style of ours, e.g. for a bad --env. */
function oneLineUsageError(message: string): string {
  return `billow: ${message.replace(/^error: /, '').trim()} (see --help)\n`;
}

/**
 * Opens the database, runs `work`, and always closes it again. Applies pending
 * migrations first unless told not to, so admin commands work on a new database.
 */
async function withDatabase<T>(
  work: (database: DatabaseHandle, billow: Server) => Promise<T>,
  options: { migrateFirst: boolean } = { migrateFirst: true },
): Promise<T> {
  const billow = await loadServer();
  const database = await billow.openDatabase(billow.loadConfig());
  try {
    if (options.migrateFirst) await billow.migrate(database.db);
    return await work(database, billow);
  } finally {
    await database.close();
  }
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function organizationIdArg(value: string): string {
  if (!UUID.test(value)) throw new InvalidArgumentError('expected a UUID, as `org create` prints it');
  return value;
}

function environmentArg(value: string): 'sandbox' | 'production' {
  if (value !== 'sandbox' && value !== 'production') throw new InvalidArgumentError('use sandbox or production');
  return value;
}

const MAX_WORKERS = 256;

function workersArg(value: string): number {
  if (!/^[1-9][0-9]*$/.test(value) || Number(value) > MAX_WORKERS) {
    throw new InvalidArgumentError(`expected a whole number of processes from 1 to ${MAX_WORKERS}`);
  }
  return Number(value);
}

function kindArg(value: string): 'server' | 'client' {
  if (value !== 'server' && value !== 'client') throw new InvalidArgumentError('use server or client');
  return value;
}

program
  .command('start')
  .description('Serve the Core and Edge APIs and run background work')
  .addOption(
    new Option('--role <role>', 'what this process does: all; api (Core and Edge, no background work); core; edge; worker (background work only)')
      .choices(['all', 'api', 'core', 'edge', 'worker'])
      .default('all'),
  )
  .addOption(
    new Option(
      '--workers <n>',
      'server processes sharing the port, each with its own caches kept coherent by the change feed; ' +
        'PostgreSQL only; background work runs in one of them',
    )
      .argParser(workersArg)
      .default(1),
  )
  .addHelpText(
    'after',
    `
--workers N runs N processes on one port (node:cluster): use up to one per core that
Billow may have. It needs DATABASE_URL: the embedded database can be opened by one
process only. Rate limits count per process unless REDIS_URL is set, and /metrics
answers for the process that takes the request. See docs/scaling.md.`,
  )
  .action(async (options: { role: 'all' | 'api' | 'core' | 'edge' | 'worker'; workers: number }) => {
    servingHeapFlags();
    const { startBillow } = await loadService();
    await startBillow({ role: options.role, workers: options.workers });
  });

program
  .command('migrate')
  .description('Apply pending database migrations')
  .action(async () => {
    await withDatabase(
      async (database, { migrate }) => {
        const applied = await migrate(database.db);
        process.stdout.write(
          applied.length === 0
            ? `The database (${database.location}) is up to date.\n`
            : `Applied ${applied.length} migration(s) to ${database.location}:\n${applied.map((n) => `  ${n}\n`).join('')}`,
        );
      },
      { migrateFirst: false },
    );
  });

const org = program.command('org').description('Manage organizations');
org
  .command('create')
  .description('Create an organization with sandbox and production environments and their keys')
  .requiredOption('--name <name>', 'the organization name')
  .option('--json', 'print the result as JSON')
  .action(async (options: { name: string; json?: boolean }) => {
    const created = await withDatabase((database, { tenancy, systemClock }) =>
      tenancy.createOrganization(database.db, systemClock, { name: options.name }),
    );
    if (options.json) {
      const { credentialsJson } = await loadServer();
      print(credentialsJson(created));
      return;
    }
    process.stdout.write(`Created organization ${options.name} (${created.organizationId}).\n\n`);
    printTable(
      ['environment', 'kind', 'key'],
      [
        ['sandbox', 'server', created.sandbox.serverKey],
        ['sandbox', 'client', created.sandbox.clientKey],
        ['production', 'server', created.production.serverKey],
        ['production', 'client', created.production.clientKey],
      ],
    );
    process.stdout.write('\nKeep these keys safe: they are not shown again.\n');
  });

/** Sets or clears an organization's block; unknown ids are a one-line error. */
function setBlocked(organizationId: string, block: { reason: string | undefined } | null) {
  return withDatabase((database, { tenancy, systemClock }) =>
    tenancy.setOrganizationBlock(database.db, systemClock, organizationId, block),
  );
}

function reasonArg(value: string): string {
  const reason = value.trim();
  if (!reason) throw new InvalidArgumentError('give a reason, or leave the option out');
  if (reason.length > 500) throw new InvalidArgumentError('at most 500 characters');
  return reason;
}

org
  .command('block')
  .description('Block an organization: charges and new purchases are refused until it is unblocked')
  .argument('<organizationId>', 'organization id (a UUID)', organizationIdArg)
  .option('--reason <text>', 'why it is blocked (kept with the organization)', reasonArg)
  .option('--json', 'print the result as JSON')
  .action(async (organizationId: string, options: { reason?: string; json?: boolean }) => {
    const { changed, ...state } = await setBlocked(organizationId, { reason: options.reason });
    if (options.json) {
      print(state);
      return;
    }
    const reason = state.blockedReason ? ` Reason: ${state.blockedReason}` : '';
    process.stdout.write(
      changed
        ? `Blocked organization ${organizationId}.${reason}\n`
        : `Organization ${organizationId} was already blocked (since ${state.blockedAt}).${reason}\n`,
    );
  });

org
  .command('unblock')
  .description('Lift the block of an organization')
  .argument('<organizationId>', 'organization id (a UUID)', organizationIdArg)
  .option('--json', 'print the result as JSON')
  .action(async (organizationId: string, options: { json?: boolean }) => {
    const { changed, ...state } = await setBlocked(organizationId, null);
    if (options.json) {
      print(state);
      return;
    }
    process.stdout.write(
      changed ? `Unblocked organization ${organizationId}.\n` : `Organization ${organizationId} was not blocked.\n`,
    );
  });

const keys = program.command('keys').description('Manage API keys');
keys
  .command('create')
  .description('Create a server or client key in one environment of an organization')
  .requiredOption('--org <id>', 'organization id (a UUID)', organizationIdArg)
  .addOption(new Option('--env <environment>', 'sandbox or production').argParser(environmentArg).makeOptionMandatory())
  .addOption(new Option('--kind <kind>', 'server or client').argParser(kindArg).makeOptionMandatory())
  .option('--name <name>', 'what the key is for, as the dashboard lists it (at most 100 characters)')
  .option('--json', 'print the result as JSON')
  .action(async (options: { org: string; env: 'sandbox' | 'production'; kind: 'server' | 'client'; name?: string; json?: boolean }) => {
    const created = await withDatabase((database, { tenancy, systemClock }) =>
      tenancy.createEnvironmentKey(database.db, systemClock, options.org, options.env, options.kind, options.name ?? null),
    );
    if (options.json) {
      print({ key: created.key, prefix: created.prefix, name: created.name, environment: options.env, kind: options.kind });
      return;
    }
    const named = created.name ? ` named "${created.name}"` : '';
    process.stdout.write(`Created a ${options.env} ${options.kind} key${named}:\n\n  ${created.key}\n\nIt is not shown again.\n`);
  });

keys
  .command('list')
  .description("List an organization's keys (prefixes only; keys are stored hashed)")
  .requiredOption('--org <id>', 'organization id (a UUID)', organizationIdArg)
  .option('--json', 'print the result as JSON')
  .action(async (options: { org: string; json?: boolean }) => {
    const rows = await withDatabase((database, { tenancy }) =>
      tenancy.listOrganizationKeys(database.db, options.org),
    );
    if (options.json) {
      print(rows);
      return;
    }
    printTable(
      ['prefix', 'environment', 'kind', 'created', 'status', 'name'],
      rows.map((r) => [r.prefix, r.environment, r.kind, r.createdAt, r.revokedAt ? `revoked ${r.revokedAt}` : 'active', r.name ?? '']),
    );
  });

keys
  .command('revoke')
  .description('Revoke a key by its prefix (as `keys list` shows it) or by the whole key')
  .argument('<keyPrefix>', 'the key prefix, e.g. sk_test_AbCd1234')
  .action(async (prefix: string) => {
    const revoked = await withDatabase((database, { tenancy, systemClock }) =>
      tenancy.revokeKey(database.db, systemClock, prefix),
    );
    process.stdout.write(`Revoked ${revoked.prefix}.\n`);
  });

const provider = program.command('provider').description("Configure an environment's payment provider (Stripe)");
provider
  .command('set')
  .description("Take payments in an environment on the seller's Stripe account (keys are stored sealed; see docs/going-live.md)")
  .requiredOption('--org <id>', 'organization id (a UUID)', organizationIdArg)
  .addOption(new Option('--env <environment>', 'sandbox or production').argParser(environmentArg).makeOptionMandatory())
  .option('--stripe-secret-key <key>', 'secret key (sk_live_…, sk_test_…) or restricted key (rk_…); default: $STRIPE_SECRET_KEY')
  .option('--stripe-webhook-secret <secret>', "signing secret (whsec_…) of the Stripe webhook endpoint; default: $STRIPE_WEBHOOK_SECRET")
  .option('--stripe-publishable-key <key>', "publishable key (pk_…), for Stripe's Payment Element on the hosted checkout page")
  .option('--json', 'print the result as JSON')
  .addHelpText(
    'after',
    `
The secrets can come from the environment instead of the command line (which other users of the
machine may see): STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET. Point a Stripe webhook endpoint at
  <your public URL>/providers/stripe/webhook/<environment id>
(the command prints it) for the events payment_intent.succeeded, payment_intent.payment_failed,
payment_intent.processing and charge.dispute.created.`,
  )
  .action(async (options: { org: string; env: 'sandbox' | 'production'; stripeSecretKey?: string; stripeWebhookSecret?: string; stripePublishableKey?: string; json?: boolean }) => {
    const secretKey = options.stripeSecretKey ?? process.env.STRIPE_SECRET_KEY;
    const webhookSecret = options.stripeWebhookSecret ?? process.env.STRIPE_WEBHOOK_SECRET;
    if (!secretKey) return program.error('error: give --stripe-secret-key (or set STRIPE_SECRET_KEY)');
    if (!webhookSecret) return program.error('error: give --stripe-webhook-secret (or set STRIPE_WEBHOOK_SECRET)');
    const view = await withDatabase((database, { providers, systemClock, loadConfig }) =>
      providers.setStripe(database.db, systemClock, loadConfig(), { organizationId: options.org, environment: options.env, secretKey, webhookSecret, publishableKey: options.stripePublishableKey ?? null }),
    );
    if (options.json) {
      print(view);
      return;
    }
    process.stdout.write(
      `Stripe (${view.mode} mode) takes the payments of ${options.env} now.
` +
        `  secret key      ${view.secretKeyHint}
  webhook secret  ${view.webhookSecretHint}
` +
        `  webhook URL     <your public URL>${view.webhookPath}
`,
    );
  });

provider
  .command('show')
  .description("Show an environment's payment provider (hints of its keys only)")
  .requiredOption('--org <id>', 'organization id (a UUID)', organizationIdArg)
  .addOption(new Option('--env <environment>', 'sandbox or production').argParser(environmentArg).makeOptionMandatory())
  .action(async (options: { org: string; env: 'sandbox' | 'production' }) => {
    const view = await withDatabase((database, { providers }) => providers.showProvider(database.db, options.org, options.env));
    print(view);
  });

provider
  .command('remove')
  .description('Forget the Stripe keys of an environment (production purchases answer 428 again)')
  .requiredOption('--org <id>', 'organization id (a UUID)', organizationIdArg)
  .addOption(new Option('--env <environment>', 'sandbox or production').argParser(environmentArg).makeOptionMandatory())
  .action(async (options: { org: string; env: 'sandbox' | 'production' }) => {
    const removed = await withDatabase((database, { providers }) => providers.removeProvider(database.db, options.org, options.env));
    process.stdout.write(removed ? `Removed the payment provider of ${options.env}.
` : `${options.env} had no payment provider.
`);
  });

registerProfileCommands(program, { withDatabase, organizationIdArg, environmentArg });
registerEmailCommands(program, { withDatabase, organizationIdArg, environmentArg });
registerAnalyticsCommands(program, { withDatabase, organizationIdArg, environmentArg });
registerUserCommands(program, { withDatabase, organizationIdArg });
registerCatalogCommands(program);

const partnerKey = program.command('partner-key').description('Manage partner keys for organization provisioning');
partnerKey
  .command('create')
  .description('Create a partner and its key, for the /partner/organizations/ API')
  .option('--name <name>', 'the partner name', 'Partner')
  .option('--json', 'print the result as JSON')
  .action(async (options: { name: string; json?: boolean }) => {
    const created = await withDatabase((database, { tenancy, systemClock }) =>
      tenancy.createPartnerWithKey(database.db, systemClock, options.name),
    );
    if (options.json) {
      print({ partnerKey: created.partnerKey });
      return;
    }
    process.stdout.write(
      `Created partner ${options.name}. Its key (send it as X-Billow-Partner-Key; not shown again):\n\n  ${created.partnerKey}\n`,
    );
  });

const JOB_STATES = ['dead', 'failed', 'pending', 'running'] as const;

function jobStateArg(value: string): (typeof JOB_STATES)[number] {
  if (!(JOB_STATES as readonly string[]).includes(value)) throw new InvalidArgumentError(`use ${JOB_STATES.join(', ')}`);
  return value as (typeof JOB_STATES)[number];
}

function jobIdArg(value: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(value)) throw new InvalidArgumentError('expected a job id, as `jobs list` prints it');
  return Number(value);
}

/** The first line of a stored error (the rest is its stack). */
const firstLine = (text: string | null) => (text ?? '').split('\n')[0] ?? '';

const jobs = program.command('jobs').description('Inspect background jobs and requeue dead ones');
jobs
  .command('list')
  .description('List the newest jobs that have not succeeded (at most 100), or those in one state')
  .addOption(new Option('--state <state>', `one of ${JOB_STATES.join(', ')}`).argParser(jobStateArg))
  .option('--json', 'print the result as JSON')
  .action(async (options: { state?: (typeof JOB_STATES)[number]; json?: boolean }) => {
    const rows = await withDatabase((database, billow) => billow.jobs.listJobs(database.db, { state: options.state }));
    if (options.json) {
      print(rows);
      return;
    }
    printTable(
      ['id', 'name', 'state', 'attempts', 'run at', 'key', 'last error'],
      rows.map((r) => [String(r.id), r.name, r.state, String(r.attempts), r.runAt ?? 'at once', r.key ?? '', firstLine(r.lastError)]),
    );
  });

jobs
  .command('retry')
  .description('Put a dead job back in the queue, due at once, with a fresh count of attempts')
  .argument('<id>', 'the job id, as `jobs list` prints it', jobIdArg)
  .action(async (id: number) => {
    const job = await withDatabase((database, billow) => billow.jobs.retryDeadJob(database.db, id));
    process.stdout.write(`Requeued job ${job.id} (${job.name}): a worker runs it at its next look at the queue.\n`);
  });

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH']);
/** SQLSTATE classes 08 (connection), 28 (authorization) and 3D (no such database): a DATABASE_URL problem. */
const CONNECTION_REFUSED = /^(08|28|3D)[0-9A-Z]{3}$/;

/** One line for the errors a user can fix; the stack only for the unexpected ones. */
async function failure(error: unknown): Promise<string> {
  const { tenancy, providers, profiles, emails, users, ConfigError, DataDirectoryLockedError, JobError } = await loadServer();
  if (
    error instanceof tenancy.TenancyError ||
    error instanceof users.UserAdminError ||
    error instanceof providers.ProviderAdminError ||
    error instanceof profiles.ProfileAdminError ||
    error instanceof emails.EmailAdminError ||
    error instanceof ConfigError ||
    error instanceof DataDirectoryLockedError ||
    error instanceof JobError
  ) {
    return error.message;
  }
  const code = String((error as NodeJS.ErrnoException | null)?.code ?? '');
  const message = error instanceof Error ? error.message : String(error);
  if (UNREACHABLE.has(code)) return `Could not reach the database: ${message}`;
  if (CONNECTION_REFUSED.test(code)) return `The database refused the connection: ${message}`;
  if (code === 'EADDRINUSE') return `${message}: another process is listening there; set PORT`;
  return error instanceof Error ? (error.stack ?? message) : message;
}

program.parseAsync(process.argv).catch(async (error: unknown) => {
  process.stderr.write(`billow: ${await failure(error)}\n`);
  process.exit(1);
});
