import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { findCustomer, findCustomerByPk, type CustomerRow } from '../customers/queries.js';
import { PortalAccessError, portalCustomerUnknown, portalCustomerWithoutEmail } from './errors.js';
import { writeKeeping, type AnswerKeeper } from '../../db/answer-keeper.js';
import * as repo from './repo.js';

/** The customer a portal session is opened for, and where its links point. */
export interface PortalSessionRequest {
  organizationId: string;
  environmentId: string;
  environment: 'sandbox' | 'production';
  /** The merchant's id of the customer (customers.customer_id). */
  customerId: string;
  /** Root URL printed in links, e.g. https://billing.example.com (the request's, or BILLOW_PUBLIC_URL). */
  baseUrl: string;
}

export interface PortalSessionOpened {
  token: string;
  email: string;
  customerPortalUrl: string;
  /** customerPortalUrl + '?token=' + token: the link that opens the portal. */
  url: string;
  expiresAt: Date;
}

/** Who a verified token lets in: one customer of one environment, until `expiresAt`. */
export interface PortalAccess {
  sessionId: string;
  organizationId: string;
  environmentId: string;
  environment: 'sandbox' | 'production';
  customer: CustomerRow;
  expiresAt: Date;
  token: string;
}

const TOKEN = /^cpt-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function portalUrl(baseUrl: string, environment: 'sandbox' | 'production', slug: string): string {
  return `${baseUrl}${environment === 'sandbox' ? '/sandbox' : ''}/portal/${encodeURIComponent(slug)}/`;
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Portal sessions (decision 0037): the token is `cpt-<session id>:<secret>`, the secret a
 * random UUID (122 random bits) of which only a SHA-256 is stored. A token opens the portal
 * of its one customer, in its one environment, until it expires, and only while the
 * customer still has the email it was opened for.
 */
export class PortalSessions {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  async open(request: PortalSessionRequest, keep?: AnswerKeeper): Promise<PortalSessionOpened> {
    const customer = await findCustomer(this.db, request.environmentId, request.customerId);
    if (!customer || customer.archived_at) throw portalCustomerUnknown();
    if (!customer.email) throw portalCustomerWithoutEmail();
    const slug = await repo.organizationSlug(this.db, request.organizationId);
    if (!slug) throw portalCustomerUnknown();
    const id = randomUUID();
    const secret = randomUUID();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.ttlMs);
    const session = { id, environment_id: request.environmentId, organization_id: request.organizationId, customer_id: customer.id };
    const token = `cpt-${id}:${secret}`;
    const customerPortalUrl = portalUrl(request.baseUrl, request.environment, slug);
    const opened = { token, email: customer.email, customerPortalUrl, url: `${customerPortalUrl}?token=${encodeURIComponent(token)}`, expiresAt };
    // The keeper serializes by the route's schema, which keeps only the fields the route answers.
    return writeKeeping(this.db, keep, async (db) => {
      await repo.insertSession(db, { ...session, email: customer.email!, secret_hash: sha256Hex(secret), created_at: now, expires_at: expiresAt });
      return opened;
    });
  }

  /** The access a token gives on the portal of `slug` in `environment`; PortalAccessError when none. */
  async verify(token: string | undefined, slug: string, environment: 'sandbox' | 'production'): Promise<PortalAccess> {
    if (!token) throw new PortalAccessError('missing');
    const match = TOKEN.exec(token.trim().toLowerCase());
    if (!match) throw new PortalAccessError('invalid');
    const session = await repo.findSession(this.db, match[1]!);
    if (!session || !sameHash(session.secret_hash, sha256Hex(match[2]!))) throw new PortalAccessError('invalid');
    const place = await repo.environmentOfSlug(this.db, slug, environment);
    // A token of another environment or another seller's portal opens nothing here.
    if (!place || place.environmentId !== session.environment_id) throw new PortalAccessError('invalid');
    if (session.expires_at.getTime() <= this.clock.now().getTime()) throw new PortalAccessError('expired');
    const customer = await findCustomerByPk(this.db, session.environment_id, session.customer_id);
    if (!customer || customer.archived_at || customer.email !== session.email) throw new PortalAccessError('invalid');
    return {
      sessionId: session.id,
      organizationId: session.organization_id,
      environmentId: session.environment_id,
      environment,
      customer,
      expiresAt: session.expires_at,
      token: `cpt-${match[1]}:${match[2]}`,
    };
  }
}
