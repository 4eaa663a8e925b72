import type {
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookLogListQuery,
  WebhookReplay,
  WebhookSecretRotation,
} from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Executor } from '../../db/transaction.js';
import type { PageRequest } from '../../lib/pagination.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { DAY_MS } from '../../lib/time.js';
import { dateRange } from '../ledger/format.js';
import { endpointGone, endpointNotFound, logNotFound, replayEmptyRange, replayTooOld, tooManyEndpoints, urlRefused } from './errors.js';
import { keptAnswer, writeKeeping, type AnswerKeeper } from '../../db/answer-keeper.js';
import { recordAudit, type AuditableScope } from '../audit/queries.js';
import * as repo from './repo.js';
import { newSigningSecret, type SecretBox } from './secrets.js';
import { refuseUrl, targetRules } from './url-guard.js';
import { endpointView, logDetailView, logView } from './view.js';

/** Whose endpoints; a request's scope also says who changes them, for the audit log (decision 0077). */
export interface WebhookScope extends AuditableScope {
  organizationId: string;
  environmentId: string;
  environment: 'sandbox' | 'production';
}

const MAX_ENDPOINTS = 16;
const DEFAULT_GRACE_HOURS = 24;
const HOUR_MS = 3_600_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** null: every type. */
function eventTypesOf(types: readonly string[] | undefined): string[] | null {
  if (!types || types.includes('*')) return null;
  return [...types];
}

export class WebhookService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly secretBox: () => Promise<SecretBox>,
    private readonly logRetentionMs: number,
    private readonly sandboxPrivateTargets: boolean,
  ) {}

  async create(scope: WebhookScope, body: WebhookEndpointCreate, keep?: AnswerKeeper) {
    const refused = await refuseUrl(body.url, targetRules(scope.environment, this.sandboxPrivateTargets));
    if (refused) throw urlRefused(refused);
    const box = await this.secretBox();
    const id = newId();
    const secret = newSigningSecret();
    const now = this.clock.now();
    return inTransaction(this.db, async (tx) => {
      if ((await repo.countEndpoints(tx, scope.environmentId)) >= MAX_ENDPOINTS) throw tooManyEndpoints(MAX_ENDPOINTS);
      const row = await repo.insertEndpoint(tx, {
        id,
        environment_id: scope.environmentId,
        organization_id: scope.organizationId,
        url: body.url,
        description: body.description ?? '',
        event_types: eventTypesOf(body.eventTypes),
        enabled: body.enabled ?? true,
        disabled_reason: null,
        secret_sealed: box.seal(secret, id),
        previous_secret_sealed: null,
        previous_secret_expires_at: null,
        standard_signature: body.standardSignature ?? false,
        failing_since: null,
        created_at: now,
        modified_at: now,
      });
      await recordAudit(tx, scope, { action: 'webhook_endpoint.created', resourceType: 'webhook_endpoint', resourceId: id, after: endpointView(row) }, now);
      return keptAnswer(keep, tx, { ...endpointView(row), secret });
    });
  }

  async list(scope: WebhookScope, page: PageRequest) {
    const [count, rows] = await Promise.all([repo.countEndpoints(this.db, scope.environmentId), repo.listEndpoints(this.db, scope.environmentId, page)]);
    return { count, results: rows.map(endpointView) };
  }

  async get(scope: WebhookScope, id: string) {
    return endpointView(await this.find(scope, id));
  }

  async update(scope: WebhookScope, id: string, body: WebhookEndpointUpdate) {
    if (body.url !== undefined) {
      const refused = await refuseUrl(body.url, targetRules(scope.environment, this.sandboxPrivateTargets));
      if (refused) throw urlRefused(refused);
    }
    const row = await inTransaction(this.db, async (tx) => {
      const current = await this.find(scope, id, tx);
      const enabling = body.enabled === true && !current.enabled;
      const updated = await repo.updateEndpoint(tx, id, {
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.eventTypes !== undefined ? { event_types: eventTypesOf(body.eventTypes) } : {}),
        ...(body.standardSignature !== undefined ? { standard_signature: body.standardSignature } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled, disabled_reason: null } : {}),
        // Enabled again: the run of failures that disabled it starts over.
        ...(enabling ? { consecutive_failures: 0, failing_since: null } : {}),
        modified_at: this.clock.now(),
      });
      const change = { action: 'webhook_endpoint.updated' as const, resourceType: 'webhook_endpoint', resourceId: id, before: endpointView(current), after: endpointView(updated) };
      await recordAudit(tx, scope, change, this.clock.now());
      // The deliveries that waited while it was disabled go out now, not at the next poll.
      if (enabling) await repo.announceDeliveries(tx);
      return updated;
    });
    return endpointView(row);
  }

  async delete(scope: WebhookScope, id: string): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      const current = await this.find(scope, id, tx);
      if (!(await repo.deleteEndpoint(tx, scope.environmentId, id))) throw endpointNotFound(id);
      await recordAudit(tx, scope, { action: 'webhook_endpoint.deleted', resourceType: 'webhook_endpoint', resourceId: id, before: endpointView(current) }, this.clock.now());
    });
  }

  /** A new secret, shown once; the previous one signs too (a second signature) for the grace period. */
  async rotateSecret(scope: WebhookScope, id: string, body: WebhookSecretRotation, keep?: AnswerKeeper) {
    const box = await this.secretBox();
    const secret = newSigningSecret();
    const now = this.clock.now();
    const graceMs = (body.gracePeriodHours ?? DEFAULT_GRACE_HOURS) * HOUR_MS;
    return inTransaction(this.db, async (tx) => {
      const current = await this.find(scope, id, tx);
      const row = await repo.updateEndpoint(tx, id, {
        secret_sealed: box.seal(secret, id),
        previous_secret_sealed: graceMs > 0 ? current.secret_sealed : null,
        previous_secret_expires_at: graceMs > 0 ? new Date(now.getTime() + graceMs) : null,
        modified_at: now,
      });
      await recordAudit(tx, scope, { action: 'webhook_endpoint.secret_rotated', resourceType: 'webhook_endpoint', resourceId: id, after: { gracePeriodHours: graceMs / HOUR_MS } }, now);
      return keptAnswer(keep, tx, { ...endpointView(row), secret });
    });
  }

  /** Every event of the environment in the range, that the endpoint takes, queued for it again. */
  async replay(scope: WebhookScope, id: string, body: WebhookReplay, keep?: AnswerKeeper) {
    const now = this.clock.now();
    const since = new Date(body.since);
    const until = body.until ? new Date(body.until) : now;
    const days = Math.round(this.logRetentionMs / DAY_MS);
    if (since.getTime() < now.getTime() - this.logRetentionMs) throw replayTooOld(days);
    if (since >= until) throw replayEmptyRange();
    const endpoint = await this.find(scope, id);
    return writeKeeping(this.db, keep, (db) => queueAndAnnounce(db, endpoint, { since, until }));
  }

  async listLogs(scope: WebhookScope, query: WebhookLogListQuery, page: PageRequest) {
    const now = this.clock.now();
    const range = dateRange(query.start_date, query.end_date);
    const oldest = new Date(now.getTime() - this.logRetentionMs);
    const filter: repo.LogFilter = {
      environmentId: scope.environmentId,
      from: range.from && range.from > oldest ? range.from : oldest,
      to: range.before ? new Date(range.before.getTime() - 1) : now,
      ...(query.status ? { success: query.status === 'success' } : {}),
      ...(query.event_type ? { eventType: query.event_type } : {}),
    };
    // An id that cannot exist matches nothing (and never reaches a uuid column).
    for (const [value, key] of [[query.event_id, 'eventId'], [query.endpoint, 'endpointId']] as const) {
      if (value === undefined) continue;
      if (!UUID.test(value)) return { count: 0, results: [] };
      filter[key] = value;
    }
    const { count, rows } = await repo.listAttempts(this.db, filter, page);
    return { count, results: rows.map(logView) };
  }

  async getLog(scope: WebhookScope, id: string) {
    const row = UUID.test(id) ? await repo.findAttempt(this.db, scope.environmentId, id) : undefined;
    if (!row) throw logNotFound(id);
    return logDetailView(row);
  }

  /** The logged event, sent once more to the endpoint of the log (now, without waiting on other deliveries). */
  async resend(scope: WebhookScope, logId: string, keep?: AnswerKeeper) {
    const row = UUID.test(logId) ? await repo.findAttempt(this.db, scope.environmentId, logId) : undefined;
    if (!row) throw logNotFound(logId);
    const endpoint = await repo.findEndpoint(this.db, scope.environmentId, row.endpoint_id);
    if (!endpoint) throw endpointGone(row.endpoint_id);
    return writeKeeping(this.db, keep, (db) => queueAndAnnounce(db, endpoint, { eventId: row.event_id }));
  }

  private async find(scope: WebhookScope, id: string, db: Parameters<typeof repo.findEndpoint>[0] = this.db): Promise<repo.EndpointRow> {
    const row = UUID.test(id) ? await repo.findEndpoint(db, scope.environmentId, id, db !== this.db) : undefined;
    if (!row) throw endpointNotFound(id);
    return row;
  }
}

/** Queues deliveries again (resend, replay) and wakes the dispatchers for them. */
async function queueAndAnnounce(db: Executor, endpoint: repo.EndpointRow, selection: Parameters<typeof repo.queueEventsFor>[2]): Promise<{ queued: number }> {
  const queued = await repo.queueEventsFor(db, endpoint, selection);
  if (queued > 0) await repo.announceDeliveries(db);
  return { queued };
}
