/**
 * What other modules use of the audit log: recording a change made by a person or a key,
 * inside their own transaction (settings changes, with before and after; decision 0077).
 */
import type { AuditAction, AuditRouteAction } from '@billow/contract';
import type { Executor } from '../../db/transaction.js';
import { newTimeOrderedId } from '../../lib/crypto.js';
import { insertEntry } from './repo.js';

/** Who made a change, and from where, as a request's scope knows it. */
export interface AuditActor {
  type: 'user' | 'api_key';
  /** The user's id, or the key's visible prefix. */
  id: string;
  /** The user's email, or the key's prefix. */
  label: string;
  clientAddress: string;
}

/**
 * A scope that may carry its actor: a request's (http/scope.ts) does; an operator's command's
 * does not, and its changes are not in the log. `auditRecorded` tells the HTTP layer's
 * recorder that the change was already recorded in its transaction.
 */
export interface AuditableScope {
  organizationId: string;
  environmentId?: string | null;
  auditActor?: AuditActor | null;
  auditRecorded?: boolean;
}

export interface AuditChange {
  /** A change a service records by name (the contract's list), or the HTTP layer's record of an operation. */
  action: AuditAction | AuditRouteAction;
  resourceType: string;
  resourceId: string | null;
  before?: object | null;
  after?: object | null;
  /** null: the organization's own (its team), not one environment's. */
  environmentId?: string | null;
}

/** Records the change in the caller's transaction, when the scope knows who makes it. */
export async function recordAudit(tx: Executor, scope: AuditableScope, change: AuditChange, at: Date): Promise<void> {
  const actor = scope.auditActor;
  if (!actor) return;
  await insertEntry(tx, {
    id: newTimeOrderedId(at),
    organization_id: scope.organizationId,
    environment_id: change.environmentId === undefined ? (scope.environmentId ?? null) : change.environmentId,
    actor_type: actor.type,
    actor_id: actor.id,
    actor_label: actor.label,
    action: change.action,
    resource_type: change.resourceType,
    resource_id: change.resourceId,
    before: (change.before ?? null) as Record<string, unknown> | null,
    after: (change.after ?? null) as Record<string, unknown> | null,
    client_address: actor.clientAddress,
    created_at: at,
  });
  scope.auditRecorded = true;
}
