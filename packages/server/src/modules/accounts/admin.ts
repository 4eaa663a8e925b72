/** The operator's commands for the seller's people (`billow user create`), without the HTTP service. */
import { ROLES } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { MemberRole } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { createMember } from './people.service.js';

/** A user command that cannot be carried out, in words for the operator. */
export class UserAdminError extends Error {}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The dashboard's one-time sign-in page for a token, under the server's root URL. */
export const welcomeLink = (rootUrl: string, token: string): string => `${rootUrl.replace(/\/+$/, '')}/dashboard/welcome?token=${token}`;

/**
 * Makes `email` a member of the organization with `role` (an account is made when the email has
 * none) and answers a one-time sign-in link, valid for an hour.
 */
export async function createUser(
  db: Db,
  clock: Clock,
  input: { organizationId: string; email: string; role: string; name?: string | undefined; rootUrl: string },
): Promise<{ userId: string; link: string }> {
  if (!EMAIL.test(input.email) || input.email.length > 254) throw new UserAdminError(`--email: "${input.email}" is not an email address`);
  if (!(ROLES as readonly string[]).includes(input.role)) throw new UserAdminError(`--role: use one of ${ROLES.join(', ')}`);
  try {
    const created = await createMember(db, clock, { ...input, role: input.role as MemberRole });
    return { userId: created.userId, link: welcomeLink(input.rootUrl, created.signInToken) };
  } catch (error) {
    const detail = (error as { detail?: unknown }).detail;
    if (typeof detail === 'string') throw new UserAdminError(detail);
    throw error;
  }
}
