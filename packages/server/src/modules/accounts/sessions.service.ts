import type { Session } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Executor } from '../../db/transaction.js';
import type { EnvironmentKind } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { newSecretToken, tokenHash } from '../../lib/session-tokens.js';
import type { MemberRole } from '../../db/schema.js';
import { lockedOut, noSession, notAMember, roleMayNot, tokenNotValid, tooManyAttempts, totpRequired, wrongCredentials, wrongTotpCode } from './errors.js';
import { passwordMatches, totpMatches } from './passwords.js';
import { permissionFor, PERMISSION_WORDS, roleMay } from './roles.js';
import * as repo from './repo.js';
import type { Redis } from 'ioredis';
import { attemptWindow } from './attempt-window.js';
import { SignInLimiter } from './sign-in-limit.js';
import type { TotpVault } from './totp-vault.js';
import { sessionView } from './view.js';

const MINUTE = 60_000;

/** How long sessions last and how sign-ins are limited (decision 0076). */
export interface SessionSettings {
  /** A session unused this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in, however busy. */
  absoluteMs: number;
  /** Failed passwords in a row that lock an account, and for how long. */
  lockoutAfter: number;
  lockoutMs: number;
  /** Failed sign-ins per client address in the window before it is refused. */
  addressMax: number;
  addressWindowMs: number;
  /** A session's last use is written at most this often. */
  touchEveryMs: number;
}

export const DEFAULT_SESSION_SETTINGS: SessionSettings = {
  idleMs: 12 * 60 * MINUTE,
  absoluteMs: 7 * 24 * 60 * MINUTE,
  lockoutAfter: 5,
  lockoutMs: 15 * MINUTE,
  addressMax: 30,
  addressWindowMs: 15 * MINUTE,
  touchEveryMs: MINUTE,
};

/** Where a request comes from, as a session records it. */
export interface Client {
  address: string;
  userAgent: string;
}

/** A new session: the cookie's secret, and the session as the API answers it. */
export interface SignedIn {
  token: string;
  session: Session;
}

/** A session admitted as the credential of an organization's environment. */
export interface SessionCredential {
  sessionId: string;
  userId: string;
  email: string;
  role: MemberRole;
  environmentId: string;
}

export interface SignInInput {
  email: string;
  password: string;
  totpCode?: string | undefined;
}

/**
 * Sessions of the seller's people (decision 0076): sign-in by password (and a TOTP code
 * when the account has one) or by a one-time link, each making a new session (the token the
 * browser held before is revoked: rotated on sign-in); the session read back, listed, ended;
 * and admitted as an organization's server key, checked against the member's role.
 */
export class SessionService {
  private readonly limiter: SignInLimiter;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** Opens the sealed TOTP secrets (the account settings seal them with the same vault). */
    readonly totp: TotpVault,
    readonly settings: SessionSettings = DEFAULT_SESSION_SETTINGS,
    /** Shares the failed sign-ins per address between processes when set. */
    redis: Redis | null = null,
  ) {
    this.limiter = new SignInLimiter(settings.addressMax, attemptWindow(redis, 'billow-sign-in-address', settings.addressWindowMs));
  }

  private idleSince(now: Date): Date {
    return new Date(now.getTime() - this.settings.idleMs);
  }

  async signIn(input: SignInInput, client: Client, previousToken: string | null): Promise<SignedIn> {
    const now = this.clock.now();
    if (await this.limiter.blocked(client.address, now.getTime())) throw tooManyAttempts();
    const user = await repo.findUserByEmail(this.db, input.email.trim().toLowerCase());
    if (user?.locked_until && user.locked_until > now) throw lockedOut(Math.ceil((user.locked_until.getTime() - now.getTime()) / MINUTE));
    if (!(await passwordMatches(user?.password_hash ?? null, input.password)) || !user) {
      await this.failed(user?.id ?? null, client, now);
      throw wrongCredentials();
    }
    if (user.totp_enabled && user.totp_secret) {
      if (!input.totpCode) throw totpRequired();
      if (!totpMatches(await this.totp.open(user.totp_secret, user.id), input.totpCode, now)) {
        await this.failed(user.id, client, now);
        throw wrongTotpCode();
      }
    }
    return inTransaction(this.db, async (tx) => {
      await repo.updateUser(tx, user.id, { failed_sign_ins: 0, locked_until: null }, now);
      return this.open(tx, user.id, client, previousToken);
    });
  }

  /** Counts a failure against the address and the account; the account locks at the limit. */
  private async failed(userId: string | null, client: Client, now: Date): Promise<void> {
    await this.limiter.fail(client.address, now.getTime());
    if (!userId) return;
    const count = await repo.countFailedSignIn(this.db, userId);
    if (count >= this.settings.lockoutAfter) {
      await repo.updateUser(this.db, userId, { failed_sign_ins: 0, locked_until: new Date(now.getTime() + this.settings.lockoutMs) }, now);
    }
  }

  /** Signs in with a one-time link's token (an emailed link, the start-up link, `billow user create`). */
  async signInWithLink(token: string, client: Client, previousToken: string | null): Promise<SignedIn> {
    const now = this.clock.now();
    if (await this.limiter.blocked(client.address, now.getTime())) throw tooManyAttempts();
    const signedIn = await inTransaction(this.db, async (tx) => {
      const userId = await repo.consumeToken(tx, tokenHash(token), 'sign_in', now);
      if (!userId) return null;
      await repo.updateUser(tx, userId, { failed_sign_ins: 0, locked_until: null }, now);
      return this.open(tx, userId, client, previousToken);
    });
    if (signedIn) return signedIn;
    await this.limiter.fail(client.address, now.getTime());
    throw tokenNotValid('sign-in');
  }

  /** Opens a session for the user in the caller's transaction (revoking the browser's previous one). */
  async open(tx: Executor, userId: string, client: Client, previousToken: string | null): Promise<SignedIn> {
    const now = this.clock.now();
    if (previousToken) await repo.revokeSessionByHash(tx, tokenHash(previousToken), now);
    const token = newSecretToken();
    await repo.insertSession(tx, {
      id: newId(),
      user_id: userId,
      token_hash: tokenHash(token),
      created_at: now,
      expires_at: new Date(now.getTime() + this.settings.absoluteMs),
      client_address: client.address.slice(0, 100),
      user_agent: client.userAgent.slice(0, 500),
    });
    return { token, session: await this.describe(tx, userId, token) };
  }

  private async describe(db: Executor, userId: string, token: string): Promise<Session> {
    const [user, memberships] = await Promise.all([repo.findUser(db, userId), repo.membershipsOfUser(db, userId)]);
    if (!user) throw noSession();
    return sessionView(user, memberships, token);
  }

  /** The live session of this cookie's token, or 401; its use is recorded (the idle expiry counts from it). */
  async live(token: string | null): Promise<{ sessionId: string; userId: string; email: string }> {
    if (!token) throw noSession();
    const now = this.clock.now();
    const row = await repo.liveSession(this.db, tokenHash(token), now, this.idleSince(now));
    if (!row) throw noSession();
    await this.touch(row, now);
    return { sessionId: row.id, userId: row.user_id, email: row.email };
  }

  private async touch(row: { id: string; last_seen_at: Date }, now: Date): Promise<void> {
    if (now.getTime() - row.last_seen_at.getTime() >= this.settings.touchEveryMs) await repo.touchSession(this.db, row.id, now);
  }

  async current(token: string | null): Promise<Session> {
    const { userId } = await this.live(token);
    return this.describe(this.db, userId, token!);
  }

  async signOut(token: string | null): Promise<void> {
    if (token) await repo.revokeSessionByHash(this.db, tokenHash(token), this.clock.now());
  }

  /**
   * The session as the credential of the organization's environment, for a request to the
   * route `routeUrl` (decision 0076): 401 when the session is not live, 403 when its user is
   * not a member or the member's role may not do what the route does.
   */
  async admit(params: { token: string; organizationId: string; environment: EnvironmentKind; method: string; routeUrl: string }): Promise<SessionCredential> {
    const now = this.clock.now();
    const row = await repo.sessionCredential(this.db, { ...params, tokenHash: tokenHash(params.token), now, idleSince: this.idleSince(now) });
    if (!row) throw noSession();
    if (!row.role || !row.environment_id) throw notAMember();
    const permission = permissionFor(params.method, params.routeUrl);
    if (!roleMay(row.role, permission)) throw roleMayNot(row.role, PERMISSION_WORDS[permission]);
    await this.touch(row, now);
    return { sessionId: row.id, userId: row.user_id, email: row.email, role: row.role, environmentId: row.environment_id };
  }
}
