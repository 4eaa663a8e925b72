import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { connectDatabase } from '@billow/server';
import { describe, expect, it } from 'vitest';
import { DATABASE_KIND, POSTGRES_URL, createOrganization, makeWorkspace, parseJsonLine, runCli, runOk, type RunResult, workspacePerTest } from './support.js';

const workspaces = workspacePerTest();

/** The organization's row, read after the command has exited (and released the data directory). */
async function blockOf(organizationId: string) {
  const database = await connectDatabase({ databaseUrl: POSTGRES_URL, dataDir: POSTGRES_URL ? null : workspaces.current.dataDir });
  try {
    return await database.db
      .selectFrom('organizations')
      .select(['blocked_at', 'blocked_reason'])
      .where('id', '=', organizationId)
      .executeTakeFirstOrThrow();
  } finally {
    await database.close();
  }
}

function expectOneLineError(result: RunResult, message: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^billow: /);
  expect(lines[0]).toMatch(message);
}

describe(`billow org block / unblock on ${DATABASE_KIND}`, () => {
  it('blocks with a reason, keeps the first time when blocked again, and unblocks', async () => {
    const { organizationId } = await createOrganization(workspaces.current.env);
    const other = await createOrganization(workspaces.current.env, 'Bystander');
    expect(await blockOf(organizationId)).toEqual({ blocked_at: null, blocked_reason: null });

    const blocked = await runOk(['org', 'block', organizationId, '--reason', 'Chargebacks under review'], workspaces.current.env);
    expect(blocked).toBe(`Blocked organization ${organizationId}. Reason: Chargebacks under review\n`);
    const first = await blockOf(organizationId);
    expect(first.blocked_at).toBeInstanceOf(Date);
    expect(first.blocked_reason).toBe('Chargebacks under review');
    expect(await blockOf(other.organizationId)).toEqual({ blocked_at: null, blocked_reason: null });

    const again = await runOk(['org', 'block', organizationId], workspaces.current.env);
    expect(again).toMatch(new RegExp(`^Organization ${organizationId} was already blocked \\(since \\S+Z\\)\\. Reason: Chargebacks under review\\n$`));
    expect(await blockOf(organizationId)).toEqual(first);

    const json = parseJsonLine(await runOk(['org', 'block', organizationId, '--reason', 'Fraud', '--json'], workspaces.current.env));
    expect(json).toEqual({
      organizationId,
      blocked: true,
      blockedAt: first.blocked_at!.toISOString(),
      blockedReason: 'Fraud',
    });

    expect(await runOk(['org', 'unblock', organizationId], workspaces.current.env)).toBe(`Unblocked organization ${organizationId}.\n`);
    expect(await blockOf(organizationId)).toEqual({ blocked_at: null, blocked_reason: null });
    expect(await runOk(['org', 'unblock', organizationId], workspaces.current.env)).toBe(`Organization ${organizationId} was not blocked.\n`);
    expect(parseJsonLine(await runOk(['org', 'unblock', organizationId, '--json'], workspaces.current.env))).toEqual({
      organizationId,
      blocked: false,
      blockedAt: null,
      blockedReason: null,
    });

    // Blocked again after an unblock: a new time, and no old reason.
    expect(await runOk(['org', 'block', organizationId], workspaces.current.env)).toBe(`Blocked organization ${organizationId}.\n`);
    expect((await blockOf(organizationId)).blocked_reason).toBeNull();
  });

  it('an unknown organization is a one-line error; so are a bad id and an empty reason', async () => {
    const unknown = randomUUID();
    expectOneLineError(await runCli(['org', 'block', unknown], workspaces.current.env), new RegExp(`No organization with id ${unknown}`));
    expectOneLineError(await runCli(['org', 'unblock', unknown], workspaces.current.env), new RegExp(`No organization with id ${unknown}`));
    const [badId, emptyReason, missing] = await Promise.all([
      runCli(['org', 'block', 'acme'], workspaces.current.env),
      runCli(['org', 'block', unknown, '--reason', '  '], workspaces.current.env),
      runCli(['org', 'unblock'], workspaces.current.env),
    ]);
    expectOneLineError(badId, /'acme'.*UUID/);
    expectOneLineError(emptyReason, /--reason.*give a reason/);
    expectOneLineError(missing, /missing required argument 'organizationId'/);
  });

  it('has help for both commands, reached without opening the database', async () => {
    const fresh = await makeWorkspace();
    try {
      const [org, block, unblock] = await Promise.all([
        runCli(['org', '--help'], fresh.env),
        runCli(['org', 'block', '--help'], fresh.env),
        runCli(['org', 'unblock', '--help'], fresh.env),
      ]);
      expect(org.stdout).toMatch(/^\s+block .*\n/m);
      expect(org.stdout).toMatch(/^\s+unblock .*\n/m);
      expect(block.code).toBe(0);
      expect(block.stdout).toContain('Usage: billow org block [options] <organizationId>');
      expect(block.stdout).toContain('--reason <text>');
      expect(block.stdout).toContain('--json');
      expect(unblock.code).toBe(0);
      expect(unblock.stdout).toContain('Usage: billow org unblock [options] <organizationId>');
      expect(existsSync(fresh.dataDir)).toBe(false);
    } finally {
      await fresh.cleanup();
    }
  });
});
