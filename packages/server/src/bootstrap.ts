import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import type { Clock } from './lib/clock.js';
import { createFirstOrganization, keysStillWork, type CreatedOrganization } from './modules/tenancy/service.js';
import { SellerProfileService, environmentsOf } from './modules/seller-profile/service.js';
import { createMember } from './modules/accounts/people.service.js';

/** The demo organization's owner, who signs in to the dashboard from the start-up link. */
export const DEMO_OWNER_EMAIL = 'owner@demo-software.example';
/** The start-up link works once, for a day (decision 0076). */
const START_LINK_MS = 24 * 60 * 60 * 1000;

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

function stillValid(db: Db, credentials: Credentials): Promise<boolean> {
  const keys = [credentials.sandbox, credentials.production].flatMap((k) => [k.serverKey, k.clientKey]);
  return keysStillWork(db, credentials.organizationId, keys);
}

export function writeCredentials(file: string, credentials: Credentials): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
  fs.chmodSync(file, 0o600);
}

export type FirstStart =
  | { kind: 'created'; credentials: Credentials; owner: { email: string; signInToken: string } }
  | { kind: 'reused'; credentials: Credentials }
  | { kind: 'existing' };

/**
 * On a database with no organization, creates a demo one and writes its keys to
 * the credentials file; on later starts, reuses that file while its keys work.
 */
export async function ensureDemoOrganization(db: Db, clock: Clock, config: Config): Promise<FirstStart> {
  const saved = readCredentials(config.credentialsFile);
  if (saved && (await stillValid(db, saved))) return { kind: 'reused', credentials: saved };
  const created = await createFirstOrganization(db, clock, { name: 'Demo' });
  if (!created) return { kind: 'existing' };
  await giveSampleProfile(db, clock, created);
  const owner = await createMember(db, clock, { organizationId: created.organizationId, email: DEMO_OWNER_EMAIL, role: 'owner', name: 'Demo owner', linkValidMs: START_LINK_MS });
  const credentials = credentialsJson(created);
  writeCredentials(config.credentialsFile, credentials);
  return { kind: 'created', credentials, owner: { email: DEMO_OWNER_EMAIL, signInToken: owner.signInToken } };
}

/**
 * A made-up seller, so that a newcomer's first checkout page and invoice show a complete
 * seller block; `billow profile set` (or PATCH /api/v1/seller-profile/) replaces it.
 */
export const SAMPLE_PROFILE = {
  displayName: 'Demo Software',
  legalName: 'Demo Software GmbH (sample data)',
  address: { line1: 'Beispielstraße 1', city: 'Berlin', postalCode: '10115', country: 'DE' },
  taxRegistrations: [{ country: 'DE', taxId: 'DE123456788' }],
  supportEmail: 'support@demo-software.example',
  websiteUrl: 'https://demo-software.example',
  termsUrl: 'https://demo-software.example/terms',
  privacyUrl: 'https://demo-software.example/privacy',
  refundPolicyUrl: 'https://demo-software.example/refunds',
  brandColor: '#2F5BD3',
  invoicePrefix: 'DEMO',
  timeZone: 'Europe/Berlin',
};

async function giveSampleProfile(db: Db, clock: Clock, created: CreatedOrganization): Promise<void> {
  const profiles = new SellerProfileService(db, clock);
  for (const environmentId of await environmentsOf(db, created.organizationId)) {
    await profiles.update({ organizationId: created.organizationId, environmentId }, SAMPLE_PROFILE);
  }
}
