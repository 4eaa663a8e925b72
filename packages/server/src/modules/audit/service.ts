import type { AuditEntry } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { badCursor, badPeriod } from './errors.js';
import * as repo from './repo.js';

export interface AuditQuery {
  actorId?: string | undefined;
  action?: string | undefined;
  resource?: string | undefined;
  start?: string | undefined;
  end?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** A page's cursor: the order number of its last entry, opaque to the caller. */
const encodeCursor = (row: { seq: string }) => Buffer.from(`audit:${row.seq}`).toString('base64url');

function decodeCursor(cursor: string): string {
  const seq = /^audit:([1-9][0-9]{0,17})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))?.[1];
  if (!seq) throw badCursor();
  return seq;
}

function entryView(row: Awaited<ReturnType<typeof repo.listEntries>>[number]): AuditEntry {
  return {
    id: row.id,
    actorType: row.actor_type,
    actorId: row.actor_id,
    actorLabel: row.actor_label,
    action: row.action,
    resource: row.resource_type,
    resourceId: row.resource_id,
    environment: row.environment_kind ?? null,
    before: row.before,
    after: row.after,
    clientAddress: row.client_address,
    createdOn: row.created_at.toISOString(),
  };
}

/** The audit log, read newest first, filtered; nothing here changes it (decision 0077). */
export class AuditService {
  constructor(private readonly db: Db) {}

  async list(organizationId: string, query: AuditQuery): Promise<{ results: AuditEntry[]; nextCursor: string | null }> {
    const start = query.start ? new Date(query.start) : undefined;
    const end = query.end ? new Date(query.end) : undefined;
    if (start && end && start >= end) throw badPeriod();
    const limit = query.limit ?? 50;
    const rows = await repo.listEntries(this.db, {
      organizationId,
      actorId: query.actorId,
      action: query.action,
      resource: query.resource,
      start,
      end,
      before: query.cursor ? decodeCursor(query.cursor) : undefined,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    return { results: page.map(entryView), nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!) : null };
  }
}
