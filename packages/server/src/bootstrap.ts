import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import { inTransaction } from './db/transaction.js';
import type { Clock } from './lib/clock.js';
import { hashKey } from './modules/tenancy/keys.js';
import { countOrganizations } from './modules/tenancy/repo.js';
import { createOrganizationIn, type CreatedOrganization } from './modules/tenancy/service.js';

/** Advisory lock key under which one starting process at a time may create the demo organization. */
const DEMO_ORGANIZATION_LOCK = 7_100_222;

export type Credentials = Omit<CreatedOrganization, 'slug'>;

export function credentialsJson(org: CreatedOrganization | Credentials): Credentials {
  return { organizationId: org.organizationId, sandbox: org.sandbox, production: org.production };
}

function readCredentials(file: string): Credentials | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Credentials;
    return parsed?.organizationId && parsed.sandbox?.serverKey && parsed.production?.serverKey ? parsed : null;
  } catch {
    return null;
  }
}

async function stillValid(db: Db, credentials: Credentials): Promise<boolean> {
  const hashes = [credentials.sandbox, credentials.production].flatMap((k) => [k.serverKey, k.clientKey]).map(hashKey);
  const rows = await db
    .selectFrom('api_keys')
    .select('id')
    .where('key_hash', 'in', hashes)
    .where('revoked_at', 'is', null)
    .where('organization_id', '=', credentials.organizationId)
    .execute();
  return rows.length === hashes.length;
}

export function writeCredentials(file: string, credentials: Credentials): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
  fs.chmodSync(file, 0o600);
}

export type FirstStart =
  | { kind: 'created'; credentials: Credentials }
  | { kind: 'reused'; credentials: Credentials }
  | { kind: 'existing' };

/**
 * On a database with no organization, creates a demo one and writes its keys to
 * the credentials file; on later starts, reuses that file while its keys work.
 */
export async function ensureDemoOrganization(db: Db, clock: Clock, config: Config): Promise<FirstStart> {
  const saved = readCredentials(config.credentialsFile);
  if (saved && (await stillValid(db, saved))) return { kind: 'reused', credentials: saved };
  // Processes starting together on an empty PostgreSQL database must create one organization, not one each.
  const created = await inTransaction(db, async (tx) => {
    await sql`select pg_advisory_xact_lock(${DEMO_ORGANIZATION_LOCK})`.execute(tx);
    if ((await countOrganizations(tx)) > 0) return null;
    return createOrganizationIn(tx, clock, { name: 'Demo' });
  });
  if (!created) return { kind: 'existing' };
  const credentials = credentialsJson(created);
  writeCredentials(config.credentialsFile, credentials);
  return { kind: 'created', credentials };
}
