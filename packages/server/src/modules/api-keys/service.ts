import type { ApiKey, ApiKeyCreate, CreatedApiKey } from '@billow/contract';
import type { EnvironmentKind } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import type { PageRequest } from '../../lib/pagination.js';
import { recordAudit, type AuditableScope } from '../audit/queries.js';
import { createEnvironmentKeyIn, environmentKeyPage, lockEnvironmentKey, revokeLockedKey, type EnvironmentKeyRow } from '../tenancy/service.js';
import { apiKeyAlreadyRevoked, apiKeyNotFound, ownKeyRevoked } from './errors.js';

/** Who manages an environment's keys: a request's scope (a server key, or a session allowed to). */
export interface ApiKeyScope extends AuditableScope {
  organizationId: string;
  environmentId: string;
  environment: EnvironmentKind;
  /** The id of the key that makes the request (`session:…` for a session). */
  keyId: string;
}

/** Forgets a key in this process's key cache at once (the other processes hear the revocation's notice). */
export type ForgetKey = (keyHash: string) => void;

const RESOURCE = 'api_key';

function keyView(row: EnvironmentKeyRow, environment: EnvironmentKind): ApiKey {
  return {
    prefix: row.prefix,
    kind: row.kind === 'client' ? 'client' : 'server',
    name: row.name,
    environment,
    createdOn: row.created_at.toISOString(),
    revokedOn: row.revoked_at ? row.revoked_at.toISOString() : null,
  };
}

/** What the audit log keeps of a key: its public parts, never the secret nor its hash. */
const audited = (view: ApiKey) => ({ prefix: view.prefix, kind: view.kind, name: view.name, revokedOn: view.revokedOn });

/**
 * An environment's API keys through the API (issue 29, "Developers"; decision 0084): listed by
 * prefix, made (the secret in the answer only) and revoked, each change audited in its own
 * transaction. Minting, hashing, storing and announcing a revocation are the tenancy module's.
 */
export class ApiKeyService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly forget: ForgetKey,
  ) {}

  async list(scope: ApiKeyScope, page: PageRequest): Promise<{ count: number; results: ApiKey[] }> {
    const { count, rows } = await environmentKeyPage(this.db, scope, { limit: page.pageSize, offset: page.offset });
    return { count, results: rows.map((row) => keyView(row, scope.environment)) };
  }

  async create(scope: ApiKeyScope, input: ApiKeyCreate): Promise<CreatedApiKey> {
    const name = input.name?.trim() || null;
    return inTransaction(this.db, async (tx) => {
      const { secret, row } = await createEnvironmentKeyIn(tx, this.clock, scope, { kind: input.kind, name });
      const view = keyView(row, scope.environment);
      await recordAudit(tx, scope, { action: 'api_key.created', resourceType: RESOURCE, resourceId: view.prefix, after: audited(view) }, this.clock.now());
      return { ...view, key: secret };
    });
  }

  /** Revokes the environment's key with this prefix; this process forgets it at once, the others on the notice. */
  async revoke(scope: ApiKeyScope, prefix: string): Promise<ApiKey> {
    const { view, hash } = await inTransaction(this.db, async (tx) => {
      const key = await lockEnvironmentKey(tx, scope, prefix);
      if (!key) throw apiKeyNotFound(prefix);
      if (key.revoked_at) throw apiKeyAlreadyRevoked(key.prefix);
      if (key.id === scope.keyId) throw ownKeyRevoked(key.prefix);
      const before = keyView(key, scope.environment);
      const revokedAt = await revokeLockedKey(tx, this.clock, key);
      const after = { ...before, revokedOn: revokedAt.toISOString() };
      await recordAudit(tx, scope, { action: 'api_key.revoked', resourceType: RESOURCE, resourceId: key.prefix, before: audited(before), after: audited(after) }, revokedAt);
      return { view: after, hash: key.key_hash };
    });
    this.forget(hash);
    return view;
  }
}
