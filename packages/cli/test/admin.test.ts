import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { connectDatabase } from '@billow/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DATABASE_KIND,
  POSTGRES_URL,
  api,
  assertBuilt,
  createOrganization,
  killServers,
  makeWorkspace,
  migratedTemplate,
  parseJsonLine,
  runCli,
  runOk,
  startServer,
  type RunResult,
  type Workspace,
} from './support.js';

let template: Workspace | null;
beforeAll(async () => {
  assertBuilt();
  template = await migratedTemplate();
});
afterAll(() => template?.cleanup());

// Each test has its own database: a copy of the migrated template (or a fresh one where the test says so).
let workspace: Workspace;
beforeEach(async () => {
  workspace = await makeWorkspace({ copyOf: template });
});
afterEach(async () => {
  await killServers();
  await workspace.cleanup();
});

function expectOneLineError(result: RunResult, message: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^billow: /);
  expect(lines[0]).toMatch(message);
}

const SECRET = '[A-Za-z0-9]{40}';

describe(`billow admin commands on ${DATABASE_KIND}`, () => {
  it('org create --json prints exactly one line with the organization id and its four keys', async () => {
    // On a new database: admin commands apply the migrations themselves.
    const fresh = await makeWorkspace({ emptyDatabase: true });
    const stdout = await runOk(['org', 'create', '--name', 'Acme', '--json'], fresh.env).finally(() => fresh.cleanup());
    const created = parseJsonLine(stdout) as Record<string, any>;
    expect(Object.keys(created).sort()).toEqual(['organizationId', 'production', 'sandbox']);
    expect(Object.keys(created.sandbox).sort()).toEqual(['clientKey', 'serverKey']);
    expect(Object.keys(created.production).sort()).toEqual(['clientKey', 'serverKey']);
    expect(created.organizationId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(created.sandbox.serverKey).toMatch(new RegExp(`^sk_test_${SECRET}$`));
    expect(created.sandbox.clientKey).toMatch(new RegExp(`^ck_test_${SECRET}$`));
    expect(created.production.serverKey).toMatch(new RegExp(`^sk_live_${SECRET}$`));
    expect(created.production.clientKey).toMatch(new RegExp(`^ck_live_${SECRET}$`));
  });

  it('org create without --json prints a table of the keys', async () => {
    const stdout = await runOk(['org', 'create', '--name', 'Acme Tables'], workspace.env);
    expect(stdout).not.toMatch(/^\{/);
    expect(stdout).toMatch(/^Created organization Acme Tables \([0-9a-f-]{36}\)\./);
    expect(stdout).toMatch(/^environment\s+kind\s+key$/m);
    expect(stdout).toMatch(new RegExp(`^sandbox\\s+server\\s+sk_test_${SECRET}$`, 'm'));
    expect(stdout).toMatch(new RegExp(`^sandbox\\s+client\\s+ck_test_${SECRET}$`, 'm'));
    expect(stdout).toMatch(new RegExp(`^production\\s+server\\s+sk_live_${SECRET}$`, 'm'));
    expect(stdout).toMatch(new RegExp(`^production\\s+client\\s+ck_live_${SECRET}$`, 'm'));
  });

  it('keys create, list and revoke; a server on the same database refuses the revoked key only', async () => {
    const org = await createOrganization(workspace.env);
    const created = parseJsonLine(
      await runOk(['keys', 'create', '--org', org.organizationId, '--env', 'sandbox', '--kind', 'server', '--json'], workspace.env),
    ) as { key: string; prefix: string; environment: string; kind: string };
    expect(created).toEqual({
      key: expect.stringMatching(new RegExp(`^sk_test_${SECRET}$`)),
      prefix: expect.stringMatching(/^sk_test_[A-Za-z0-9]{8}$/),
      name: null,
      environment: 'sandbox',
      kind: 'server',
    });
    expect(created.key.startsWith(created.prefix)).toBe(true);

    const text = await runOk(['keys', 'create', '--org', org.organizationId, '--env', 'production', '--kind', 'client', '--name', '  Mobile app  '], workspace.env);
    expect(text).toMatch(new RegExp(`^Created a production client key named "Mobile app":\n\n  ck_live_${SECRET}\n`));
    expectOneLineError(
      await runCli(['keys', 'create', '--org', org.organizationId, '--env', 'sandbox', '--kind', 'client', '--name', 'x'.repeat(101)], workspace.env),
      /at most 100 characters/,
    );
    const clientKey = new RegExp(`ck_live_${SECRET}`).exec(text)?.[0];

    const revokedPrefix = created.prefix;
    expect((await runOk(['keys', 'revoke', revokedPrefix], workspace.env)).trim()).toBe(`Revoked ${revokedPrefix}.`);

    const listing = await runOk(['keys', 'list', '--org', org.organizationId], workspace.env);
    const allKeys = [org.sandbox.serverKey, org.sandbox.clientKey, org.production.serverKey, org.production.clientKey];
    for (const key of [...allKeys, created.key, clientKey ?? '']) {
      expect(listing).not.toContain(key);
      expect(listing).toContain(key.slice(0, 16));
    }
    expect(listing).toMatch(new RegExp(`^${revokedPrefix}\\s+sandbox\\s+server\\s+\\S+\\s+revoked \\S+$`, 'm'));
    const livePrefix = org.sandbox.serverKey.slice(0, revokedPrefix.length);
    expect(listing).toMatch(new RegExp(`^${livePrefix}\\s+sandbox\\s+server\\s+\\S+\\s+active$`, 'm'));
    expect(listing).toMatch(new RegExp(`^ck_live_\\S+\\s+production\\s+client\\s+\\S+\\s+active\\s+Mobile app$`, 'm'));
    expect(listing.trimEnd().split('\n')).toHaveLength(2 + 6);

    const rows = parseJsonLine(await runOk(['keys', 'list', '--org', org.organizationId, '--json'], workspace.env)) as any[];
    expect(rows).toHaveLength(6);
    for (const key of allKeys) expect(JSON.stringify(rows)).not.toContain(key);
    expect(rows.find((row) => row.prefix === revokedPrefix)).toEqual({
      prefix: revokedPrefix,
      name: null,
      kind: 'server',
      environment: 'sandbox',
      createdAt: expect.stringMatching(/Z$/),
      revokedAt: expect.stringMatching(/Z$/),
    });

    expectOneLineError(await runCli(['keys', 'revoke', revokedPrefix], workspace.env), /already revoked/);

    const server = await startServer(workspace, ['--role', 'core']);
    const customers = (base: string) => `${base}/api/v1/customers/`;
    const [revoked, live, production, client] = await Promise.all([
      api(customers(server.sandboxUrl), 'GET', { key: created.key }),
      api(customers(server.sandboxUrl), 'GET', { key: org.sandbox.serverKey }),
      api(customers(server.url), 'GET', { key: org.production.serverKey }),
      api(customers(server.url), 'GET', { key: clientKey }),
    ]);
    expect(revoked.status).toBe(401);
    expect(live.status).toBe(200);
    expect(production.status).toBe(200);
    // A client key is known (not 401) but may not list customers.
    expect(client.status).toBe(403);
  });

  // On PostgreSQL an admin command may run beside a server (on the embedded database it may not: see lifecycle.test.ts).
  it.skipIf(DATABASE_KIND === 'pglite')('keys revoke reaches a server already running on the database', async () => {
    const org = await createOrganization(workspace.env);
    const server = await startServer(workspace);
    const list = () => api(`${server.sandboxUrl}/api/v1/customers/`, 'GET', { key: org.sandbox.serverKey });
    expect((await list()).status).toBe(200);
    await runOk(['keys', 'revoke', org.sandbox.serverKey.slice(0, 16)], workspace.env);
    expect((await list()).status).toBe(401);
  });

  it('an unknown organization or key prefix is a one-line error with exit code 1', async () => {
    const unknownOrg = randomUUID();
    // One at a time: on the embedded database each command holds the data directory.
    const create = await runCli(['keys', 'create', '--org', unknownOrg, '--env', 'sandbox', '--kind', 'server'], workspace.env);
    const list = await runCli(['keys', 'list', '--org', unknownOrg], workspace.env);
    const revoke = await runCli(['keys', 'revoke', 'sk_test_NoSuchK3'], workspace.env);
    expectOneLineError(create, new RegExp(`No organization with id ${unknownOrg}`));
    expectOneLineError(list, new RegExp(`No organization with id ${unknownOrg}`));
    expectOneLineError(revoke, /No key with prefix sk_test_NoSuchK3/);
  });

  it('partner-key create --json prints only the key, and the key provisions organizations', async () => {
    const stdout = await runOk(['partner-key', 'create', '--name', 'Reseller', '--json'], workspace.env);
    const created = parseJsonLine(stdout) as Record<string, string>;
    expect(Object.keys(created)).toEqual(['partnerKey']);
    expect(created.partnerKey).toMatch(new RegExp(`^bpk_${SECRET}$`));

    const server = await startServer(workspace);
    const provision = (key: string) =>
      api(`${server.url}/api/v1/partner/organizations/`, 'POST', {
        headers: { 'X-Billow-Partner-Key': key },
        body: { externalId: `ext-${randomUUID()}`, email: `${randomUUID()}@example.com`, businessName: 'Shop' },
      });
    const [accepted, refused] = await Promise.all([
      provision(created.partnerKey ?? ''),
      provision(`bpk_${'x'.repeat(40)}`),
    ]);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    expect(accepted.body.sandboxServerKey).toMatch(/^sk_test_/);
    expect(refused.status).toBe(401);
    const customers = await api(`${server.sandboxUrl}/api/v1/customers/`, 'GET', { key: accepted.body.sandboxServerKey });
    expect(customers.status).toBe(200);
  });
});

describe(`billow migrate on ${DATABASE_KIND}`, () => {
  it('applies the migrations to an empty database, then has nothing to do', async () => {
    const empty = await makeWorkspace({ emptyDatabase: true });
    try {
      const first = await runOk(['migrate'], empty.env);
      expect(first).toMatch(/^Applied \d+ migration\(s\) to /);
      expect(first).toMatch(/^ {2}\d{14}_[a-z0-9_]+$/m);
      const second = await runOk(['migrate'], empty.env);
      expect(second).toMatch(/^The database \(.+\) is up to date\.\n$/);
      if (DATABASE_KIND === 'pglite') expect(existsSync(empty.lockFile)).toBe(false);
    } finally {
      await empty.cleanup();
    }
  });
});

/** Runs `work` on the workspace's database while no command has it open. */
async function withDb<T>(work: (db: Awaited<ReturnType<typeof connectDatabase>>['db']) => Promise<T>): Promise<T> {
  const database = await connectDatabase({ databaseUrl: POSTGRES_URL, dataDir: POSTGRES_URL ? null : workspace.dataDir });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

/** A job that ran out of attempts, as the runner leaves it. */
function insertDeadJob(name: string): Promise<number> {
  return withDb(async (db) => {
    const row = await db
      .insertInto('jobs')
      .values({
        name,
        payload: JSON.stringify({ invoiceId: 'INV-7' }),
        state: 'dead',
        attempts: 5,
        last_error: 'Error: provider unreachable\n    at charge (provider.ts:1:1)',
        finished_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

describe(`billow jobs on ${DATABASE_KIND}`, () => {
  it('lists dead jobs with their last error, requeues one, and refuses to requeue it twice', async () => {
    // Unique: on PostgreSQL the database is shared by every test file.
    const name = `test-dead-${randomUUID().slice(0, 8)}`;
    const id = await insertDeadJob(name);

    const listed = parseJsonLine(await runOk(['jobs', 'list', '--state', 'dead', '--json'], workspace.env)) as any[];
    expect(listed.find((job) => job.id === id)).toMatchObject({
      name,
      state: 'dead',
      attempts: 5,
      payload: { invoiceId: 'INV-7' },
      lastError: expect.stringContaining('provider unreachable'),
    });
    const table = await runOk(['jobs', 'list', '--state', 'dead'], workspace.env);
    const line = table.split('\n').find((l) => l.includes(name));
    expect(line).toMatch(new RegExp(`^${id} +${name} +dead +5 +at once +Error: provider unreachable$`));

    expect(await runOk(['jobs', 'retry', String(id)], workspace.env)).toBe(`Requeued job ${id} (${name}): a worker runs it at its next look at the queue.\n`);
    const requeued = await withDb((db) => db.selectFrom('jobs').select(['state', 'attempts', 'run_at']).where('id', '=', id).executeTakeFirst());
    expect(requeued).toEqual({ state: 'pending', attempts: 0, run_at: null });

    const again = await runCli(['jobs', 'retry', String(id)], workspace.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`billow: Job ${id} is pending, not dead: only dead jobs are retried by hand\n`);
    const unknown = await runCli(['jobs', 'retry', '987654321'], workspace.env);
    expect(unknown.stderr).toBe('billow: No job with id 987654321\n');
  });
});
