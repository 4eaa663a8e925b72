import { connectDatabase } from '@billow/server';
import { describe, expect, it } from 'vitest';
import { DATABASE_KIND, POSTGRES_URL, createOrganization, parseJsonLine, runCli, runOk, workspacePerTest } from './support.js';

const SECRET_KEY = 'sk_live_51CliTestAccountKey000000000009876';
const WEBHOOK_SECRET = 'whsec_clitestsigningsecret00000000005432';

const workspaces = workspacePerTest();

/** Every stored provider column of the organization, read after the command has exited. */
async function storedRows(organizationId: string): Promise<string> {
  const database = await connectDatabase({ databaseUrl: POSTGRES_URL, dataDir: POSTGRES_URL ? null : workspaces.current.dataDir });
  try {
    const rows = await database.db.selectFrom('payment_providers').selectAll().where('organization_id', '=', organizationId).execute();
    return JSON.stringify(rows);
  } finally {
    await database.close();
  }
}

describe(`billow provider on ${DATABASE_KIND}`, () => {
  it('sets Stripe for production, prints hints and the webhook URL, stores the keys sealed; show and remove', async () => {
    const { organizationId } = await createOrganization(workspaces.current.env);
    const args = ['provider', 'set', '--org', organizationId, '--env', 'production', '--stripe-secret-key', SECRET_KEY, '--stripe-webhook-secret', WEBHOOK_SECRET];
    const out = await runOk(args, workspaces.current.env);
    expect(out).toMatch(/Stripe \(live mode\) takes the payments of production now/);
    expect(out).toContain('sk_live_…9876');
    expect(out).toMatch(/webhook URL +<your public URL>\/providers\/stripe\/webhook\/[0-9a-f-]{36}/);
    expect(out).not.toContain(SECRET_KEY);
    const stored = await storedRows(organizationId);
    expect(stored).toContain('sk_live_…9876');
    expect(stored).not.toContain(SECRET_KEY.slice(8));
    expect(stored).not.toContain(WEBHOOK_SECRET.slice(6));
    const shown = parseJsonLine(await runOk(['provider', 'show', '--org', organizationId, '--env', 'production'], workspaces.current.env));
    expect(shown).toMatchObject({ provider: 'stripe', mode: 'live', secretKeyHint: 'sk_live_…9876', webhookSecretHint: 'whsec_…5432' });
    expect(await runOk(['provider', 'remove', '--org', organizationId, '--env', 'production'], workspaces.current.env)).toMatch(/Removed/);
    expect(parseJsonLine(await runOk(['provider', 'show', '--org', organizationId, '--env', 'production'], workspaces.current.env))).toBeNull();
  });

  it('takes the secrets from the environment, and refuses bad keys and live keys in the sandbox in one line', async () => {
    const { organizationId } = await createOrganization(workspaces.current.env);
    const fromEnv = await runOk(['provider', 'set', '--org', organizationId, '--env', 'sandbox', '--json'], {
      ...workspaces.current.env,
      STRIPE_SECRET_KEY: 'sk_test_51CliTestAccountKey000000001111',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    });
    expect(parseJsonLine(fromEnv)).toMatchObject({ mode: 'test', secretKeyHint: 'sk_test_…1111' });
    const live = await runCli(['provider', 'set', '--org', organizationId, '--env', 'sandbox', '--stripe-secret-key', SECRET_KEY, '--stripe-webhook-secret', WEBHOOK_SECRET], workspaces.current.env);
    expect(live.code).toBe(1);
    expect(live.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^billow: --stripe-secret-key: the sandbox takes only test-mode keys/)]);
    const bad = await runCli(['provider', 'set', '--org', organizationId, '--env', 'production', '--stripe-secret-key', 'nope', '--stripe-webhook-secret', WEBHOOK_SECRET], workspaces.current.env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^billow: --stripe-secret-key: must be a Stripe secret key/);
    const missing = await runCli(['provider', 'set', '--org', organizationId, '--env', 'production'], { ...workspaces.current.env, STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^billow: give --stripe-secret-key/);
    const help = await runOk(['provider', 'set', '--help'], workspaces.current.env);
    expect(help).toMatch(/--stripe-secret-key/);
    expect(help).toMatch(/STRIPE_WEBHOOK_SECRET/);
  });
});
