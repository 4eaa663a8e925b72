import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { slugify } from '../../lib/slug.js';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Tx } from '../../db/transaction.js';
import type { EnvironmentKind } from '../../config.js';
import { mintEnvironmentKey, mintPartnerKey, hashKey } from './keys.js';
import * as repo from './repo.js';

export { KEY_REVOKED_CHANNEL } from './repo.js';

export const ENVIRONMENTS: readonly EnvironmentKind[] = ['sandbox', 'production'];

export interface EnvironmentKeys {
  serverKey: string;
  clientKey: string;
}

export interface CreatedOrganization {
  organizationId: string;
  slug: string;
  sandbox: EnvironmentKeys;
  production: EnvironmentKeys;
}

export class TenancyError extends Error {
  constructor(
    readonly code: 'not_found' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

export interface OrganizationInput {
  name: string;
  ownerEmail?: string | null;
  partnerId?: string | null;
  partnerExternalId?: string | null;
}

/** Chosen under a transaction-scoped lock, so two organizations created at once never pick the same slug. */
async function uniqueSlug(tx: Tx, name: string): Promise<string> {
  await repo.lockOrganizationCreation(tx);
  const base = slugify(name, 'org');
  const taken = await repo.slugsLike(tx, base);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

async function createKey(
  tx: Tx,
  clock: Clock,
  organizationId: string,
  environmentId: string,
  environment: EnvironmentKind,
  kind: 'server' | 'client',
  name: string | null = null,
) {
  const minted = mintEnvironmentKey(kind, environment);
  const id = newId();
  const createdAt = clock.now();
  await repo.insertKey(tx, { id, kind, organizationId, environmentId, partnerId: null, prefix: minted.prefix, hash: minted.hash, name, createdAt });
  return { ...minted, id, createdAt };
}

/** Creates an organization with both environments and a server and client key in each. */
export async function createOrganizationIn(tx: Tx, clock: Clock, input: OrganizationInput): Promise<CreatedOrganization> {
  const id = newId();
  const now = clock.now();
  const slug = await uniqueSlug(tx, input.name);
  await repo.insertOrganization(tx, {
    id,
    name: input.name,
    slug,
    ownerEmail: input.ownerEmail ?? null,
    partnerId: input.partnerId ?? null,
    partnerExternalId: input.partnerExternalId ?? null,
    createdAt: now,
  });
  const keys = {} as Record<EnvironmentKind, EnvironmentKeys>;
  for (const kind of ENVIRONMENTS) {
    const environmentId = newId();
    await repo.insertEnvironment(tx, { id: environmentId, organizationId: id, kind, createdAt: now });
    const server = await createKey(tx, clock, id, environmentId, kind, 'server');
    const client = await createKey(tx, clock, id, environmentId, kind, 'client');
    keys[kind] = { serverKey: server.secret, clientKey: client.secret };
  }
  return { organizationId: id, slug, sandbox: keys.sandbox, production: keys.production };
}

/**
 * Creates an organization unless the database has one already (null then).
 * Processes starting together on an empty database create one between them, not one each.
 */
export function createFirstOrganization(db: Db, clock: Clock, input: OrganizationInput): Promise<CreatedOrganization | null> {
  return inTransaction(db, async (tx) => {
    await repo.lockOrganizationCreation(tx);
    if ((await repo.countOrganizations(tx)) > 0) return null;
    return createOrganizationIn(tx, clock, input);
  });
}

/** Whether every one of these keys belongs to the organization and is not revoked. */
export async function keysStillWork(db: Db, organizationId: string, keys: string[]): Promise<boolean> {
  return (await repo.countLiveKeys(db, organizationId, keys.map(hashKey))) === keys.length;
}

export function createOrganization(db: Db, clock: Clock, input: OrganizationInput): Promise<CreatedOrganization> {
  if (!input.name.trim()) throw new TenancyError('invalid', 'An organization needs a name');
  return inTransaction(db, (tx) => createOrganizationIn(tx, clock, input));
}

export async function createEnvironmentKey(
  db: Db,
  clock: Clock,
  organizationId: string,
  environment: EnvironmentKind,
  kind: 'server' | 'client',
  /** What the key is for, as the dashboard shows it (at most 100 characters); none when blank. */
  name: string | null = null,
): Promise<{ key: string; prefix: string; name: string | null }> {
  const named = name?.trim() || null;
  if (named && named.length > 100) throw new TenancyError('invalid', 'A key name has at most 100 characters');
  return inTransaction(db, async (tx) => {
    const env = await repo.findEnvironment(tx, organizationId, environment);
    if (!env) throw new TenancyError('not_found', `No organization with id ${organizationId}`);
    const minted = await createKey(tx, clock, organizationId, env.id, environment, kind, named);
    return { key: minted.secret, prefix: minted.prefix, name: named };
  });
}

/** A key of an environment as the API lists it: never its hash. */
export interface EnvironmentKeyRow {
  id: string;
  kind: 'server' | 'client' | 'partner';
  prefix: string;
  name: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

/**
 * Makes a server or client key of the scope's environment in the caller's transaction (the API's
 * `POST /api-keys/`, audited there): minted and stored hashed as every key is. The secret is in
 * the answer only.
 */
export async function createEnvironmentKeyIn(
  tx: Tx,
  clock: Clock,
  scope: repo.KeyScope & { environment: EnvironmentKind },
  input: { kind: 'server' | 'client'; name: string | null },
): Promise<{ secret: string; row: EnvironmentKeyRow }> {
  const minted = await createKey(tx, clock, scope.organizationId, scope.environmentId, scope.environment, input.kind, input.name);
  const row = { id: minted.id, kind: input.kind, prefix: minted.prefix, name: input.name, created_at: minted.createdAt, revoked_at: null };
  return { secret: minted.secret, row };
}

/** A page of the environment's keys (revoked ones too), newest first, and how many there are. */
export async function environmentKeyPage(db: Db, scope: repo.KeyScope, page: { limit: number; offset: number }) {
  const [count, rows] = await Promise.all([repo.countEnvironmentKeys(db, scope), repo.environmentKeys(db, scope, page)]);
  return { count, rows: rows as EnvironmentKeyRow[] };
}

/** The environment's key with this prefix, locked until the caller's transaction ends; undefined when there is none. */
export async function lockEnvironmentKey(tx: Tx, scope: repo.KeyScope, prefix: string) {
  return repo.lockEnvironmentKey(tx, scope, prefix);
}

/**
 * Revokes a key found by `lockEnvironmentKey`, in the caller's transaction, and announces it as
 * `revokeKey` does: every running server forgets it once the transaction commits.
 */
export async function revokeLockedKey(tx: Tx, clock: Clock, key: { id: string; key_hash: string }): Promise<Date> {
  const at = clock.now();
  await repo.revokeKeyById(tx, key.id, at);
  await repo.announceKeyRevoked(tx, key.key_hash);
  return at;
}

export async function listOrganizationKeys(db: Db, organizationId: string) {
  const org = await repo.findOrganization(db, organizationId);
  if (!org) throw new TenancyError('not_found', `No organization with id ${organizationId}`);
  const rows = await repo.listKeys(db, organizationId);
  return rows.map((r) => ({
    prefix: r.prefix,
    name: r.name,
    kind: r.kind,
    environment: r.environment,
    createdAt: r.created_at.toISOString(),
    revokedAt: r.revoked_at ? r.revoked_at.toISOString() : null,
  }));
}

/** Revokes by public prefix, or by the whole key. Returns the revoked key's hash. */
export async function revokeKey(db: Db, clock: Clock, prefixOrKey: string): Promise<{ prefix: string; hash: string }> {
  const given = prefixOrKey.trim();
  return inTransaction(db, async (tx) => {
    let prefix = given;
    const byHash = await repo.findKeyPrefixByHash(tx, hashKey(given));
    if (byHash) prefix = byHash.prefix;
    const revoked = await repo.revokeKeyByPrefix(tx, prefix, clock.now());
    if (revoked) {
      await repo.announceKeyRevoked(tx, revoked.key_hash);
      return { prefix: revoked.prefix, hash: revoked.key_hash };
    }
    const existing = await repo.findKeyByPrefix(tx, prefix);
    if (existing) throw new TenancyError('invalid', `The key ${prefix} is already revoked`);
    throw new TenancyError('not_found', `No key with prefix ${prefix}`);
  });
}

export async function createPartnerWithKey(db: Db, clock: Clock, name: string) {
  return inTransaction(db, async (tx) => {
    const partnerId = newId();
    const now = clock.now();
    await repo.insertPartner(tx, { id: partnerId, name, createdAt: now });
    const minted = mintPartnerKey();
    await repo.insertKey(tx, {
      id: newId(),
      kind: 'partner',
      organizationId: null,
      environmentId: null,
      partnerId,
      prefix: minted.prefix,
      hash: minted.hash,
      createdAt: now,
    });
    return { partnerId, partnerKey: minted.secret, prefix: minted.prefix };
  });
}

export interface BlockState {
  organizationId: string;
  blocked: boolean;
  blockedAt: string | null;
  blockedReason: string | null;
}

/**
 * Blocks an organization from taking payments (`block` given) or lifts the
 * block (null). Blocking again keeps the original time, and the reason unless
 * a new one is given. `changed` says whether the state moved.
 */
export async function setOrganizationBlock(
  db: Db,
  clock: Clock,
  organizationId: string,
  block: { reason: string | undefined } | null,
): Promise<BlockState & { changed: boolean }> {
  return inTransaction(db, async (tx) => {
    const found = await repo.lockOrganizationBlock(tx, organizationId);
    if (!found) throw new TenancyError('not_found', `No organization with id ${organizationId}`);
    const updated = await repo.setOrganizationBlock(
      tx,
      organizationId,
      block
        ? { blocked_at: found.blocked_at ?? clock.now(), blocked_reason: block.reason ?? found.blocked_reason }
        : { blocked_at: null, blocked_reason: null },
    );
    return {
      organizationId,
      blocked: updated.blocked_at !== null,
      blockedAt: updated.blocked_at ? updated.blocked_at.toISOString() : null,
      blockedReason: updated.blocked_reason,
      changed: (found.blocked_at !== null) !== (updated.blocked_at !== null),
    };
  });
}
