/**
 * What other modules may use of the portal: opening a portal session for a customer
 * (e.g. after a sign-in by email code), and finding which seller a portal URL names.
 * `openPortalSession` throws the 400 errors of POST /portal/session/ for an unknown
 * customer or one without an email.
 */
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { environmentOfSlug } from './repo.js';

export { deleteSignInsBefore } from './sign-in/repo.js';
import { PortalSessions, type PortalSessionOpened, type PortalSessionRequest } from './sessions.js';

export type { PortalSessionOpened, PortalSessionRequest } from './sessions.js';

/** Opens a portal session (token, email, customerPortalUrl, url = the signed link, expiresAt). */
export function openPortalSession(
  deps: { db: Db; clock: Clock; ttlMs: number },
  request: PortalSessionRequest,
): Promise<PortalSessionOpened> {
  return new PortalSessions(deps.db, deps.clock, deps.ttlMs).open(request);
}

/** The organization and environment of a portal URL's slug (`/portal/{slug}/`), or undefined. */
export function portalOwner(
  db: Db,
  slug: string,
  environment: 'sandbox' | 'production',
): Promise<{ organizationId: string; organizationName: string; environmentId: string } | undefined> {
  return environmentOfSlug(db, slug, environment);
}
