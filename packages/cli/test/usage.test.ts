import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, makeWorkspace, runCli, type RunResult, type Workspace } from './support.js';

// None of these commands may touch the database: they fail or finish while parsing arguments.
let workspace: Workspace;
beforeAll(async () => {
  assertBuilt();
  workspace = await makeWorkspace();
});
afterAll(() => workspace.cleanup());

const ORG_ID = '6f1c2a8e-0d5b-4c47-9a57-3b1e2d4c5f60';

/** Each command path with the options its help must mention. */
const COMMANDS: [string[], string[]][] = [
  [[], ['start', 'migrate', 'org', 'keys', 'partner-key', 'DATABASE_URL', 'BILLOW_DATA_DIR']],
  [['start'], ['--role', '--workers', 'DATABASE_URL', 'docs/scaling.md']],
  [['migrate'], []],
  [['org'], ['create', 'block', 'unblock']],
  [['org', 'create'], ['--name', '--json']],
  [['org', 'block'], ['organizationId', '--reason', '--json']],
  [['org', 'unblock'], ['organizationId', '--json']],
  [['keys'], ['create', 'list', 'revoke']],
  [['keys', 'create'], ['--org', '--env', '--kind', '--json']],
  [['keys', 'list'], ['--org']],
  [['keys', 'revoke'], ['keyPrefix']],
  [['partner-key'], ['create']],
  [['catalog'], ['schema', 'pull', 'diff', 'apply', 'promote', 'BILLOW_SANDBOX_KEY', 'BILLOW_PRODUCTION_KEY']],
  [['catalog', 'diff'], ['--base-url', '--env', '--file', '--json', '--exit-code']],
  [['catalog', 'apply'], ['--migrate-subscribers', '--force', '--json']],
  [['catalog', 'promote'], ['--from', '--to', '--dry-run']],
  [['partner-key', 'create'], ['--name', '--json']],
];

function expectUsageError(result: RunResult, mentions: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^billow: /);
  expect(lines[0]).toMatch(mentions);
}

describe('billow --help', () => {
  it('prints the usage of every command and subcommand and exits 0', async () => {
    const results = await Promise.all(COMMANDS.map(([path]) => runCli([...path, '--help'], workspace.env)));
    results.forEach((result, index) => {
      const [path, mentions] = COMMANDS[index] ?? [[], []];
      const label = `billow ${path.join(' ')} --help`;
      expect(result.code, `${label}: ${result.stderr}`).toBe(0);
      expect(result.stderr, label).toBe('');
      expect(result.stdout, label).toContain(`Usage: billow ${path.map((p) => `${p} `).join('')}`);
      for (const text of mentions) expect(result.stdout, label).toContain(text);
    });
    expect(existsSync(workspace.dataDir)).toBe(false);
  });
});

describe('argument errors', () => {
  it('refuses an unknown --role and names the allowed ones', async () => {
    const result = await runCli(['start', '--role', 'primary'], workspace.env);
    expectUsageError(result, /'primary'.*all, api, core, edge, worker/);
  });

  it('refuses a --workers that is not a whole number of processes from 1 to 256', async () => {
    const results = await Promise.all(['0', 'two', '1.5', '257'].map((n) => runCli(['start', '--workers', n], workspace.env)));
    for (const result of results) expectUsageError(result, /--workers.*from 1 to 256/);
    expect(existsSync(workspace.dataDir)).toBe(false);
  });

  it('refuses a bad --env, a bad --kind, a non-UUID --org and a missing option', async () => {
    const [env, kind, org, missing, unknown] = await Promise.all([
      runCli(['keys', 'create', '--org', ORG_ID, '--env', 'staging', '--kind', 'server'], workspace.env),
      runCli(['keys', 'create', '--org', ORG_ID, '--env', 'sandbox', '--kind', 'admin'], workspace.env),
      runCli(['keys', 'list', '--org', 'acme'], workspace.env),
      runCli(['keys', 'create', '--org', ORG_ID, '--env', 'sandbox'], workspace.env),
      runCli(['organisation', 'create'], workspace.env),
    ]);
    expectUsageError(env, /--env.*'staging'.*sandbox or production/);
    expectUsageError(kind, /--kind.*'admin'.*server or client/);
    expectUsageError(org, /--org.*'acme'.*UUID/);
    expectUsageError(missing, /--kind/);
    expectUsageError(unknown, /unknown command 'organisation'/);
    expect(existsSync(workspace.dataDir)).toBe(false);
  });

  it('reports an unreachable DATABASE_URL in one line', async () => {
    const result = await runCli(['migrate'], { ...workspace.env, DATABASE_URL: 'postgres://billow@127.0.0.1:1/billow' });
    expectUsageError(result, /Could not reach the database: .*ECONNREFUSED/);
  });

  it('reports an invalid setting in one line', async () => {
    const result = await runCli(['start'], { ...workspace.env, PORT: 'eighty' });
    expectUsageError(result, /PORT must be an integer/);
  });
});
