import type { Db } from '../../db/connect.js';
import { inTransaction, type Executor } from '../../db/transaction.js';
import type { MemberRole } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { newSecretToken, tokenHash } from '../../lib/session-tokens.js';
import { organizationNotFound } from './errors.js';
import { hashPassword } from './passwords.js';
import * as repo from './repo.js';

/** How long a one-time sign-in link works. */
export const SIGN_IN_LINK_MS = 60 * 60 * 1000;

export interface NewMember {
  organizationId: string;
  email: string;
  role: MemberRole;
  name?: string | undefined;
  password?: string | undefined;
  /** How long the sign-in link works; an hour unless told. */
  linkValidMs?: number | undefined;
}

export interface CreatedMember {
  userId: string;
  /** The token of a one-time sign-in link (`/dashboard/welcome?token=…`), valid for an hour. */
  signInToken: string;
}

/** The user of this email, made when there is none (email lower-cased; name and password kept when given). */
export async function userOfEmail(tx: Executor, clock: Clock, input: { email: string; name?: string | undefined; passwordHash?: string | null }): Promise<string> {
  const email = input.email.trim().toLowerCase();
  const existing = await repo.findUserByEmail(tx, email);
  if (existing) return existing.id;
  const id = newId();
  await repo.insertUser(tx, { id, email, name: input.name?.trim() ?? '', password_hash: input.passwordHash ?? null, created_at: clock.now() });
  return id;
}

/** A one-time sign-in token for the user, written in the caller's transaction. */
export async function issueSignInToken(tx: Executor, clock: Clock, userId: string, validMs = SIGN_IN_LINK_MS): Promise<string> {
  const token = newSecretToken();
  const now = clock.now();
  await repo.insertToken(tx, { token_hash: tokenHash(token), kind: 'sign_in', user_id: userId, created_at: now, expires_at: new Date(now.getTime() + validMs) });
  return token;
}

/**
 * Makes someone a member of an organization with a role (the operator's `billow user create`,
 * the demo organization's owner at the first start), with a one-time sign-in link. A person
 * who is already a member keeps their role.
 */
export async function createMember(db: Db, clock: Clock, input: NewMember): Promise<CreatedMember> {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return inTransaction(db, async (tx) => {
    if ((await repo.organizationName(tx, input.organizationId)) === undefined) throw organizationNotFound(input.organizationId);
    const userId = await userOfEmail(tx, clock, { email: input.email, name: input.name, passwordHash });
    await repo.insertMembership(tx, { id: newId(), organization_id: input.organizationId, user_id: userId, role: input.role, created_at: clock.now() });
    return { userId, signInToken: await issueSignInToken(tx, clock, userId, input.linkValidMs) };
  });
}
