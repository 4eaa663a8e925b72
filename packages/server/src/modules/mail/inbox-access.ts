import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { instanceSecret } from '../instance-secrets/secret.js';
import { sandboxOf } from './repo.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The secret link of a sandbox's development inbox (decision 0038): `<environment id>.<HMAC>`
 * under an instance secret. Whoever holds it reads the sandbox's messages (sign-in codes
 * among them), so it is handed only to a server key (GET /sandbox/api/v1/mail/inbox/) and
 * printed at start-up for the demo organization; changing BILLOW_SECRET revokes every link.
 */
export class InboxAccess {
  private readonly secret: () => Promise<string>;

  constructor(db: Db, clock: Clock, configured: string | null) {
    this.secret = instanceSecret(db, clock, configured, 'mail_inbox');
  }

  async keyFor(environmentId: string): Promise<string> {
    const mac = createHmac('sha256', await this.secret()).update(`mail-inbox:${environmentId}`).digest('base64url');
    return `${environmentId}.${mac}`;
  }

  /** The environment a key opens, or null for a key that is not one of ours. */
  async environmentOf(key: string): Promise<string | null> {
    const [environmentId, given, ...rest] = key.split('.');
    if (!environmentId || !given || rest.length > 0 || !UUID.test(environmentId)) return null;
    const expected = Buffer.from(await this.keyFor(environmentId));
    const sent = Buffer.from(key);
    return expected.length === sent.length && timingSafeEqual(expected, sent) ? environmentId : null;
  }
}

/** The inbox page's URL under a root URL. */
export const inboxUrl = (rootUrl: string, key: string): string => `${rootUrl}/sandbox/mail/inbox/${key}/`;

/** The inbox page of an organization's sandbox (printed at start-up for the demo organization). */
export async function sandboxInboxUrl(db: Db, clock: Clock, configuredSecret: string | null, organizationId: string, rootUrl: string): Promise<string | null> {
  const environmentId = await sandboxOf(db, organizationId);
  return environmentId ? inboxUrl(rootUrl, await new InboxAccess(db, clock, configuredSecret).keyFor(environmentId)) : null;
}
