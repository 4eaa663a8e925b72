import type { Selectable } from 'kysely';
import type { AuditLogTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';

/** An entry as written: the table's columns (schema.ts), with before and after as values rather than stored JSON. */
export type AuditRow = Omit<Selectable<AuditLogTable>, 'seq' | 'before' | 'after'> & {
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

export async function insertEntry(db: Executor, row: AuditRow): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({ ...row, before: row.before === null ? null : JSON.stringify(row.before), after: row.after === null ? null : JSON.stringify(row.after) })
    .execute();
}

export interface AuditFilter {
  organizationId: string;
  actorId?: string | undefined;
  action?: string | undefined;
  resource?: string | undefined;
  start?: Date | undefined;
  end?: Date | undefined;
  /** Entries written before this one (its seq; newest first). */
  before?: string | undefined;
  limit: number;
}

export async function listEntries(db: Executor, filter: AuditFilter) {
  let query = db
    .selectFrom('audit_log as a')
    .leftJoin('environments as e', 'e.id', 'a.environment_id')
    .selectAll('a')
    .select('e.kind as environment_kind')
    .where('a.organization_id', '=', filter.organizationId);
  if (filter.actorId) query = query.where('a.actor_id', '=', filter.actorId);
  if (filter.action) query = query.where('a.action', '=', filter.action);
  if (filter.resource) query = query.where((eb) => eb.or([eb('a.resource_type', '=', filter.resource!), eb('a.resource_id', '=', filter.resource!)]));
  if (filter.start) query = query.where('a.created_at', '>=', filter.start);
  if (filter.end) query = query.where('a.created_at', '<', filter.end);
  if (filter.before) query = query.where('a.seq', '<', filter.before);
  return query.orderBy('a.seq', 'desc').limit(filter.limit).execute();
}
