import type { AcceptInvitation } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Tx } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { newSecretToken, tokenHash } from '../../lib/session-tokens.js';
import type { MailOutbox } from '../mail/queries.js';
import { tokenNotValid, wrongCredentials } from './errors.js';
import type { PageLanguage } from '../../page-kit/i18n.js';
import { pageLanguageOf } from '../../page-kit/locale.js';
import { passwordResetMessage, signInLinkMessage, type PeopleMessage } from './messages.js';
import { hashPassword, passwordMatches } from './passwords.js';
import { issueSignInToken, SIGN_IN_LINK_MS, userOfEmail } from './people.service.js';
import { queuePeopleMail } from './people-mail.js';
import * as repo from './repo.js';
import type { Client, SessionService, SignedIn } from './sessions.service.js';
import { LinkRequestLimiter } from './link-request-limit.js';

const RESET_MS = 60 * 60 * 1000;

/**
 * The ways in without a password: accepting an invitation (which sets one), a reset by email,
 * a sign-in link by email. Asking for a link or a reset answers the same whether the email
 * is known or not (202), so that it tells nobody who has an account.
 */
export class RecoveryService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mail: MailOutbox,
    private readonly sessions: SessionService,
    private readonly limiter: LinkRequestLimiter = new LinkRequestLimiter(),
  ) {}

  /**
   * Accepts an invitation: the account is made, or, for an email that has one, found (its password
   * must then be given and is kept); the membership added, and a session opened.
   */
  async acceptInvitation(input: AcceptInvitation, client: Client, previousToken: string | null): Promise<SignedIn> {
    const passwordHash = await hashPassword(input.password);
    const now = this.clock.now();
    return inTransaction(this.db, async (tx) => {
      const invitation = await repo.acceptInvitation(tx, tokenHash(input.token), now);
      if (!invitation) throw tokenNotValid('invitation');
      const existing = await repo.findUserByEmail(tx, invitation.email);
      // An account that has a password proves it: an invitation alone never opens someone's existing account.
      if (existing?.password_hash && !(await passwordMatches(existing.password_hash, input.password))) throw wrongCredentials();
      const userId = existing?.id ?? (await userOfEmail(tx, this.clock, { email: invitation.email, name: input.name, passwordHash }));
      // Someone who had an account without a password (signed in by links only) sets it now; a password already set is kept.
      if (existing && existing.password_hash === null) await repo.updateUser(tx, existing.id, { password_hash: passwordHash, name: existing.name || input.name.trim() }, now);
      await repo.insertMembership(tx, { id: newId(), organization_id: invitation.organization_id, user_id: userId, role: invitation.role, created_at: now });
      return this.sessions.open(tx, userId, client, previousToken);
    });
  }

  /**
   * Mails a one-time link to the email's account, if there is one and it belongs to an organization,
   * by SMTP only (decision 0078). Without SMTP, `billow user create` prints one.
   */
  private async mailLink(
    email: string,
    clientAddress: string,
    browser: PageLanguage | null,
    write: (tx: Tx, userId: string, organizationName: string, lang: PageLanguage) => Promise<PeopleMessage & { sendBefore: Date }>,
  ): Promise<void> {
    await this.limiter.take(email, clientAddress, this.clock.now().getTime());
    const messageId = await inTransaction(this.db, async (tx) => {
      const user = await repo.findUserByEmail(tx, email.trim().toLowerCase());
      const organization = user && (await repo.membershipsOfUser(tx, user.id))[0];
      if (!user || !organization) return null;
      // The language the person chose for the dashboard, else the one of the browser that asked.
      const message = await write(tx, user.id, organization.organization_name, pageLanguageOf(user.language) ?? browser ?? 'en');
      return queuePeopleMail(tx, this.mail, { ...message, organizationId: organization.organization_id, to: user.email });
    });
    if (messageId) this.mail.deliverSoon(messageId);
  }

  async requestReset(email: string, baseUrl: string, clientAddress: string, browser: PageLanguage | null = null): Promise<void> {
    await this.mailLink(email, clientAddress, browser, async (tx, userId, organizationName, lang) => {
      const token = newSecretToken();
      const now = this.clock.now();
      const expiresAt = new Date(now.getTime() + RESET_MS);
      await repo.insertToken(tx, { token_hash: tokenHash(token), kind: 'password_reset', user_id: userId, created_at: now, expires_at: expiresAt });
      return { ...passwordResetMessage(lang, organizationName, `${baseUrl}/dashboard/reset-password?token=${token}`), sendBefore: expiresAt };
    });
  }

  async requestSignInLink(email: string, baseUrl: string, clientAddress: string, browser: PageLanguage | null = null): Promise<void> {
    await this.mailLink(email, clientAddress, browser, async (tx, userId, organizationName, lang) => {
      const token = await issueSignInToken(tx, this.clock, userId);
      return { ...signInLinkMessage(lang, organizationName, `${baseUrl}/dashboard/welcome?token=${token}`), sendBefore: new Date(this.clock.now().getTime() + SIGN_IN_LINK_MS) };
    });
  }

  /** Sets a new password from a reset link: every session ends, the lockout is lifted. */
  async reset(token: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    const now = this.clock.now();
    await inTransaction(this.db, async (tx) => {
      const userId = await repo.consumeToken(tx, tokenHash(token), 'password_reset', now);
      if (!userId) throw tokenNotValid('password reset');
      await repo.updateUser(tx, userId, { password_hash: passwordHash, failed_sign_ins: 0, locked_until: null }, now);
      await repo.revokeSessionsOfUser(tx, userId, now);
    });
  }
}
