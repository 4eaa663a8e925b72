/**
 * `billow catalog schema|pull|diff|apply|promote` (issue 31): the catalog as a file in the
 * seller's repository, applied to any Billow through its API with a server key. Unlike
 * the admin commands it never opens a database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { CatalogFile } from '@billow/contract';
import { BillowConnectionError, BillowError } from '@billow/sdk';
import { apiRoot, connect, type Api, type EnvironmentName, type Target } from './api.js';
import { ApplyError, applyDiff } from './apply.js';
import { diffCatalog, fingerprintOf, type CatalogDiff } from './diff.js';
import { CatalogFileError, SCHEMA_FILE, catalogText, readCatalogFile, schemaText } from './file.js';
import { MIGRATION_MODES, migrateSubscribers, type MigrationMode } from './migrate.js';
import { readRemote } from './remote.js';
import { renderDiff } from './render.js';
import { recordFingerprint, recordedFingerprint } from './state.js';

/** Exit codes: 1 `diff --exit-code` found changes; 2 the run failed or was refused. */
const CHANGES = 1;
const REFUSED = 2;

class Refusal extends Error {}

interface TargetOptions {
  baseUrl: string;
  env: EnvironmentName;
  file: string;
}

function environmentArg(value: string): EnvironmentName {
  if (value !== 'sandbox' && value !== 'production') throw new InvalidArgumentError('use sandbox or production');
  return value;
}

/** The server key of an environment: BILLOW_SANDBOX_KEY or BILLOW_PRODUCTION_KEY, else BILLOW_API_KEY. */
function keyOf(environment: EnvironmentName, allowGeneric: boolean): string {
  const name = `BILLOW_${environment.toUpperCase()}_KEY`;
  const key = process.env[name] ?? (allowGeneric ? process.env.BILLOW_API_KEY : undefined);
  if (!key) throw new Refusal(`set ${name}${allowGeneric ? ' (or BILLOW_API_KEY)' : ''} to a server key of ${environment}`);
  return key;
}

const targetOf = (options: { baseUrl: string }, environment: EnvironmentName, allowGeneric = true): Target => ({
  baseUrl: options.baseUrl,
  environment,
  key: keyOf(environment, allowGeneric),
});

const progress = (line: string) => process.stderr.write(`${line}\n`);
const print = (text: string): void => {
  process.stdout.write(text);
};
const where = (target: Target) => `${target.environment} (${apiRoot(target)})`;

/** Runs a command's work; its expected failures are one message and exit code 2. */
async function guarded(work: () => Promise<number | void>): Promise<void> {
  try {
    const code = await work();
    if (code) process.exitCode = code;
  } catch (error) {
    if (error instanceof CatalogFileError || error instanceof BillowError || error instanceof BillowConnectionError || error instanceof ApplyError || error instanceof Refusal) {
      process.stderr.write(`billow: ${error.message}\n`);
      process.exitCode = REFUSED;
      return;
    }
    throw error;
  }
}

function withTarget(command: Command, fileRole: string): Command {
  return command
    .option('--base-url <url>', 'the Billow server (default $BILLOW_BASE_URL, else http://localhost:4000)', process.env.BILLOW_BASE_URL ?? 'http://localhost:4000')
    .addOption(new Option('--env <environment>', 'sandbox or production').argParser(environmentArg).default('sandbox'))
    .option('--file <path>', fileRole, 'catalog.yaml');
}

async function planFor(file: CatalogFile, api: Api): Promise<{ diff: CatalogDiff; remote: Awaited<ReturnType<typeof readRemote>> }> {
  const remote = await readRemote(api, progress);
  return { diff: diffCatalog(file, remote), remote };
}

/** Applies a checked diff, records what the environment holds after, and moves subscribers if asked. */
async function applyAndRecord(api: Api, file: CatalogFile, options: { file?: string; migrateSubscribers: MigrationMode; json?: boolean }, planned: Awaited<ReturnType<typeof planFor>>): Promise<void> {
  const { diff, remote } = planned;
  if (diff.problems.length > 0) throw new Refusal(`nothing was applied:\n${diff.problems.map((p) => `  ${p}`).join('\n')}`);
  const root = apiRoot(api.target);
  let applied;
  try {
    applied = await applyDiff(api, file, remote, diff, progress, { updatePricing: options.migrateSubscribers === 'at-renewal' });
  } finally {
    if (options.file) recordFingerprint(options.file, root, fingerprintOf(await readRemote(api)));
  }
  const migrated = options.migrateSubscribers === 'now' ? await migrateSubscribers(api, file, progress) : 0;
  if (options.json) {
    print(`${JSON.stringify({ environment: api.target.environment, applied, migratedSubscriptions: migrated })}\n`);
    return;
  }
  print(applied.length === 0 ? `No changes: ${where(api.target)} already matches.\n` : `Applied ${applied.length} change(s) to ${where(api.target)}.\n`);
  if (options.migrateSubscribers === 'now') print(`Moved ${migrated} subscription(s) to the versions on sale.\n`);
  if (options.migrateSubscribers === 'at-renewal' && applied.some((c) => c.kind === 'plan' && c.publishes != null)) {
    print('Subscribers of the plans published move to the new versions at their next renewal.\n');
  }
}

function migrationOption(): Option {
  return new Option('--migrate-subscribers <mode>', 'subscribers of a plan that gets a new version: never (they keep theirs), at-renewal (they move at their next renewal), now (at once, prorated)')
    .choices([...MIGRATION_MODES])
    .default('never');
}

export function registerCatalogCommands(program: Command): void {
  const catalog = program
    .command('catalog')
    .description('The catalog as a file (products, features, plans, prices, entitlements, discounts, promotions): pull, diff, apply, promote')
    .addHelpText(
      'after',
      `
These commands talk to a Billow server through its API, never to a database. Keys come from
the environment: BILLOW_SANDBOX_KEY and BILLOW_PRODUCTION_KEY (server keys), or BILLOW_API_KEY
for the one environment of --env. See docs/pricing-as-code.md.`,
    );
  catalog
    .command('schema')
    .description(`Print the catalog file's JSON Schema (pull writes it beside the file as ${SCHEMA_FILE})`)
    .action(() => {
      print(schemaText());
    });
  registerPull(catalog);
  registerDiff(catalog);
  registerApply(catalog);
  registerPromote(catalog);
}

function registerPull(catalog: Command): void {
  withTarget(catalog.command('pull').description("Write the environment's catalog to the file"), 'where to write the catalog').action((options: TargetOptions) =>
    guarded(async () => {
      const remote = await readRemote(connect(targetOf(options, options.env)), progress);
      fs.writeFileSync(options.file, catalogText(remote.file));
      fs.writeFileSync(path.join(path.dirname(path.resolve(options.file)), SCHEMA_FILE), schemaText());
      const { products, features, plans, discounts, promotions } = remote.file;
      print(`Wrote ${options.file}: ${products.length} product(s), ${features.length} feature(s), ${plans.length} plan(s), ${discounts.length} discount(s), ${promotions.length} promotion(s).\n`);
    }),
  );
}

function registerDiff(catalog: Command): void {
  withTarget(catalog.command('diff').description('Show exactly what apply would change'), 'the catalog file')
    .option('--json', 'print the changes as JSON')
    .option('--exit-code', 'exit with 1 when there are changes (for CI)')
    .action((options: TargetOptions & { json?: boolean; exitCode?: boolean }) =>
      guarded(async () => {
        const file = readCatalogFile(options.file);
        const api = connect(targetOf(options, options.env));
        const { diff } = await planFor(file, api);
        recordFingerprint(options.file, apiRoot(api.target), diff.fingerprint);
        print(options.json ? `${JSON.stringify({ environment: options.env, ...diff })}\n` : renderDiff(diff, where(api.target)));
        if (diff.problems.length > 0) return REFUSED;
        return options.exitCode && diff.changes.length > 0 ? CHANGES : 0;
      }),
    );
}

function registerApply(catalog: Command): void {
  withTarget(catalog.command('apply').description('Make the environment match the file: create, update, archive; a changed plan gets a new version'), 'the catalog file')
    .addOption(migrationOption())
    .option('--force', 'apply even if the environment changed since the last diff')
    .option('--json', 'print what was applied as JSON')
    .action((options: TargetOptions & { migrateSubscribers: MigrationMode; force?: boolean; json?: boolean }) =>
      guarded(async () => {
        const file = readCatalogFile(options.file);
        const api = connect(targetOf(options, options.env));
        const planned = await planFor(file, api);
        const recorded = recordedFingerprint(options.file, apiRoot(api.target));
        if (recorded && recorded !== planned.diff.fingerprint && !options.force) {
          throw new Refusal(`${where(api.target)} changed since the last diff (fingerprint ${recorded}, now ${planned.diff.fingerprint}): run diff again and review it, or apply with --force`);
        }
        if (!options.json) print(renderDiff(planned.diff, where(api.target)));
        await applyAndRecord(api, file, options, planned);
      }),
    );
}

function registerPromote(catalog: Command): void {
  catalog
    .command('promote')
    .description("Apply one environment's catalog to another (default sandbox to production), after showing the diff")
    .option('--base-url <url>', 'the Billow server (default $BILLOW_BASE_URL, else http://localhost:4000)', process.env.BILLOW_BASE_URL ?? 'http://localhost:4000')
    .addOption(new Option('--from <environment>', 'the environment whose catalog is copied').argParser(environmentArg).default('sandbox'))
    .addOption(new Option('--to <environment>', 'the environment that is changed').argParser(environmentArg).default('production'))
    .addOption(migrationOption())
    .option('--dry-run', 'show the diff only')
    .action((options: { baseUrl: string; from: EnvironmentName; to: EnvironmentName; migrateSubscribers: MigrationMode; dryRun?: boolean }) =>
      guarded(async () => {
        if (options.from === options.to) throw new Refusal('--from and --to name the same environment');
        const source = await readRemote(connect(targetOf(options, options.from, false)), progress);
        const api = connect(targetOf(options, options.to, false));
        const planned = await planFor(source.file, api);
        print(renderDiff(planned.diff, where(api.target)));
        if (options.dryRun) return planned.diff.problems.length > 0 ? REFUSED : 0;
        await applyAndRecord(api, source.file, options, planned);
      }),
    );
}
