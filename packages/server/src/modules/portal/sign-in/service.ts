/**
 * Sign-in to the portal by a one-time email code (decision 0038). Every request for a code
 * records a sign-in, whether or not the email belongs to a customer, so that the page and
 * the limits answer alike for both; only a known email is written a message (after the
 * transaction: the outbox sends it). A sign-in belongs to the browser that asked (a hash of
 * its cookie), expires, takes a few wrong codes, and opens the portal once.
 */
import { randomUUID } from 'node:crypto';
import type { SignInConfig } from '../../../config.js';
import type { Db } from '../../../db/connect.js';
import { inTransaction, type Tx } from '../../../db/transaction.js';
import type { Clock } from '../../../lib/clock.js';
import { sha256Hex } from '../../../lib/crypto.js';
import { isEmail } from '../../checkout/form.js';
import { customersWithEmail, type CustomerRow } from '../../customers/queries.js';
import type { NewMessage } from '../../mail/queries.js';
import { codeHash, codeMatches, newCode, normalizedCode } from './code.js';
import { codeMessage } from './message.js';
import { translator, type PageLanguage } from '../../../page-kit/i18n.js';
import { pageLanguageOf } from '../../../page-kit/locale.js';
import * as repo from './repo.js';

/** The seller whose portal is signed in to, from the portal's URL. */
export interface PortalPlace {
  organizationId: string;
  organizationName: string;
  environmentId: string;
  environment: 'sandbox' | 'production';
}

/** What sign-in needs of the outbox (modules/mail). */
export interface SignInMail {
  canSend(environment: 'sandbox' | 'production'): boolean;
  queue(tx: Tx, message: NewMessage): Promise<string | null>;
  deliverSoon(id: string): void;
}

export type StartOutcome =
  | { kind: 'started'; id: string }
  | { kind: 'invalid_email' }
  | { kind: 'limited' }
  | { kind: 'unavailable' };

/** Why a sign-in can no longer be used: the page says so and offers a new code. */
export type SignInGone = 'missing' | 'expired' | 'used' | 'spent';

export type VerifyOutcome =
  | { kind: 'gone'; reason: SignInGone }
  | { kind: 'bad_code'; attemptsLeft: number; wrong: boolean; email: string }
  | { kind: 'signed_in'; customerId: string }
  | { kind: 'choose'; customers: CustomerRow[] }
  | { kind: 'no_account' };

export interface SignInDeps {
  db: Db;
  clock: Clock;
  config: SignInConfig;
  mail: SignInMail;
  secret: () => Promise<string>;
}

const browserHash = (browser: string) => sha256Hex(`portal-sign-in-browser:${browser}`);

export class SignInService {
  constructor(private readonly deps: SignInDeps) {}

  /**
   * Records a sign-in for `email` from this browser and address, and writes the code to a known
   * email: in the language of the customer's locale, else the page's (`pageLanguage`).
   */
  async start(place: PortalPlace, sentEmail: string | undefined, browser: string, address: string, pageLanguage: PageLanguage = 'en'): Promise<StartOutcome> {
    const email = (sentEmail ?? '').trim().toLowerCase();
    if (!isEmail(email) || email.length > 254) return { kind: 'invalid_email' };
    if (!this.deps.mail.canSend(place.environment)) return { kind: 'unavailable' };
    const { db, clock, config } = this.deps;
    const now = clock.now();
    const since = new Date(now.getTime() - config.windowMs);
    const id = randomUUID();
    const code = newCode();
    const secret = await this.deps.secret();
    const queued = await inTransaction(db, async (tx) => {
      const limited =
        (await repo.countOfEmail(tx, place.environmentId, email, since, now)) >= config.perEmail ||
        (await repo.countOfAddress(tx, address, since, now)) >= config.perAddress;
      if (limited) return { limited: true as const };
      const expiresAt = new Date(now.getTime() + config.codeTtlMs);
      await repo.insertSignIn(tx, {
        id,
        organization_id: place.organizationId,
        environment_id: place.environmentId,
        email,
        code_hash: codeHash(secret, id, code),
        browser_hash: browserHash(browser),
        client_address: address,
        created_at: now,
        expires_at: expiresAt,
      });
      const customers = await customersWithEmail(tx, place.environmentId, email);
      if (customers.length === 0) return { limited: false as const, messageId: null };
      const lang = customers.map((c) => pageLanguageOf(c.locale)).find((l) => l !== null) ?? pageLanguage;
      const message = codeMessage(place.organizationName, code, config.codeTtlMs, translator(lang));
      const messageId = await this.deps.mail.queue(tx, { ...place, to: email, ...message, sendBefore: expiresAt });
      return { limited: false as const, messageId };
    });
    if (queued.limited) return { kind: 'limited' };
    if (queued.messageId) this.deps.mail.deliverSoon(queued.messageId);
    return { kind: 'started', id };
  }

  /** The sign-in as its code page shows it, or why it cannot be used. */
  async find(place: PortalPlace, id: string, browser: string): Promise<repo.SignInRow | SignInGone> {
    const row = await repo.findSignIn(this.deps.db, id, place.environmentId, browserHash(browser));
    return row ? (this.goneReason(row) ?? row) : 'missing';
  }

  /** Checks a code: the customer it signs in, the customers to choose between, or what is wrong. */
  async verify(place: PortalPlace, id: string, browser: string, sentCode: string | undefined): Promise<VerifyOutcome> {
    const secret = await this.deps.secret();
    const now = this.deps.clock.now();
    return inTransaction(this.deps.db, async (tx): Promise<VerifyOutcome> => {
      const row = await repo.lockSignIn(tx, id, place.environmentId, browserHash(browser));
      if (!row) return { kind: 'gone', reason: 'missing' };
      const gone = this.goneReason(row);
      if (gone) return { kind: 'gone', reason: gone };
      if (!row.verified_at) {
        const code = normalizedCode(sentCode);
        // Something that is not six digits is a typing mistake: it costs no attempt.
        if (!code) return { kind: 'bad_code', attemptsLeft: this.deps.config.attempts - row.attempts, wrong: false, email: row.email };
        if (!codeMatches(secret, row.id, code, row.code_hash)) {
          await repo.countWrongCode(tx, row.id);
          const left = this.deps.config.attempts - row.attempts - 1;
          return left > 0 ? { kind: 'bad_code', attemptsLeft: left, wrong: true, email: row.email } : { kind: 'gone', reason: 'spent' };
        }
      }
      const customers = await customersWithEmail(tx, place.environmentId, row.email);
      if (customers.length === 1) {
        await repo.markUsed(tx, row.id, now);
        return { kind: 'signed_in', customerId: customers[0]!.customer_id };
      }
      if (customers.length === 0) {
        await repo.markUsed(tx, row.id, now);
        return { kind: 'no_account' };
      }
      if (!row.verified_at) await repo.markVerified(tx, row.id, now);
      return { kind: 'choose', customers };
    });
  }

  /** After a verified code, the customer record chosen among those sharing the email. */
  async choose(place: PortalPlace, id: string, browser: string, customerPk: string | undefined): Promise<VerifyOutcome> {
    const now = this.deps.clock.now();
    return inTransaction(this.deps.db, async (tx): Promise<VerifyOutcome> => {
      const row = await repo.lockSignIn(tx, id, place.environmentId, browserHash(browser));
      if (!row || !row.verified_at) return { kind: 'gone', reason: 'missing' };
      const gone = this.goneReason(row);
      if (gone) return { kind: 'gone', reason: gone };
      const customers = await customersWithEmail(tx, place.environmentId, row.email);
      const chosen = customers.find((c) => c.id === customerPk);
      if (!chosen) return customers.length > 0 ? { kind: 'choose', customers } : { kind: 'no_account' };
      await repo.markUsed(tx, row.id, now);
      return { kind: 'signed_in', customerId: chosen.customer_id };
    });
  }

  /**
   * Used, expired or out of attempts. A verified sign-in (several customers share the email)
   * keeps the code's lifetime again from its verification for the choice.
   */
  private goneReason(row: repo.SignInRow): SignInGone | null {
    if (row.used_at) return 'used';
    const now = this.deps.clock.now().getTime();
    const until = row.verified_at ? row.verified_at.getTime() + this.deps.config.codeTtlMs : row.expires_at.getTime();
    if (until <= now) return 'expired';
    if (!row.verified_at && row.attempts >= this.deps.config.attempts) return 'spent';
    return null;
  }
}
