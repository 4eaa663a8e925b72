import type { Db } from '../../db/connect.js';
import type { DashboardLanguage } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { currentPasswordRequired, sessionNotFound, totpAlreadyEnabled, totpNotEnabled, totpNotSetUp, wrongCredentials, wrongTotpCode } from './errors.js';
import { hashPassword, newTotpSecret, passwordMatches, totpMatches, totpUrl } from './passwords.js';
import * as repo from './repo.js';
import type { SessionService } from './sessions.service.js';

/** Who asks, from their live session. */
export interface Me {
  sessionId: string;
  userId: string;
  email: string;
}

/**
 * What a signed-in person changes of their own account: the password (every other session
 * ends), the second factor (set up, enabled by a first code, disabled by a code), and their
 * sessions (listed, revoked one by one).
 */
export class AccountService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sessions: SessionService,
  ) {}

  private async user(userId: string) {
    const user = await repo.findUser(this.db, userId);
    if (!user) throw wrongCredentials();
    return user;
  }

  /** Sets the password: the current one is needed once there is one (an account made by a link has none yet). */
  async changePassword(me: Me, currentPassword: string | undefined, newPassword: string): Promise<void> {
    const user = await this.user(me.userId);
    if (user.password_hash !== null) {
      if (currentPassword === undefined) throw currentPasswordRequired();
      if (!(await passwordMatches(user.password_hash, currentPassword))) throw wrongCredentials();
    }
    const hash = await hashPassword(newPassword);
    const now = this.clock.now();
    await inTransaction(this.db, async (tx) => {
      await repo.updateUser(tx, me.userId, { password_hash: hash, failed_sign_ins: 0, locked_until: null }, now);
      await repo.revokeSessionsOfUser(tx, me.userId, now, me.sessionId);
    });
  }

  /** A new secret, pending until a first code from it enables it. */
  async setUpTotp(me: Me): Promise<{ secret: string; otpauthUrl: string }> {
    const user = await this.user(me.userId);
    if (user.totp_enabled) throw totpAlreadyEnabled();
    const secret = newTotpSecret();
    await repo.updateUser(this.db, me.userId, { totp_pending_secret: await this.sessions.totp.seal(secret, me.userId) }, this.clock.now());
    return { secret, otpauthUrl: totpUrl(secret, user.email) };
  }

  async enableTotp(me: Me, code: string): Promise<void> {
    const user = await this.user(me.userId);
    if (user.totp_enabled) throw totpAlreadyEnabled();
    if (!user.totp_pending_secret) throw totpNotSetUp();
    const now = this.clock.now();
    if (!totpMatches(await this.sessions.totp.open(user.totp_pending_secret, me.userId), code, now)) throw wrongTotpCode();
    await repo.updateUser(this.db, me.userId, { totp_secret: user.totp_pending_secret, totp_pending_secret: null, totp_enabled: true }, now);
  }

  async disableTotp(me: Me, code: string): Promise<void> {
    const user = await this.user(me.userId);
    if (!user.totp_enabled || !user.totp_secret) throw totpNotEnabled();
    const now = this.clock.now();
    if (!totpMatches(await this.sessions.totp.open(user.totp_secret, me.userId), code, now)) throw wrongTotpCode();
    await repo.updateUser(this.db, me.userId, { totp_secret: null, totp_pending_secret: null, totp_enabled: false }, now);
  }

  /** The dashboard's language the person chose (null: the browser's again); their own account only. */
  async setLanguage(me: Me, language: DashboardLanguage | null): Promise<void> {
    await repo.updateUser(this.db, me.userId, { language }, this.clock.now());
  }

  async listSessions(me: Me) {
    const now = this.clock.now();
    const rows = await repo.liveSessionsOfUser(this.db, me.userId, now, new Date(now.getTime() - this.sessions.settings.idleMs));
    return {
      results: rows.map((row) => ({
        id: row.id,
        createdOn: row.created_at.toISOString(),
        lastSeenOn: row.last_seen_at.toISOString(),
        expiresOn: row.expires_at.toISOString(),
        clientAddress: row.client_address,
        userAgent: row.user_agent,
        current: row.id === me.sessionId,
      })),
    };
  }

  async revokeSession(me: Me, sessionId: string): Promise<void> {
    if (!(await repo.revokeSession(this.db, me.userId, sessionId, this.clock.now()))) throw sessionNotFound(sessionId);
  }
}
