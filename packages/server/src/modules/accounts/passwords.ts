import type * as Argon2 from '@node-rs/argon2';
import { Secret, TOTP } from 'otpauth';

/** The argon2 binding, loaded by the first password hashed or checked: most processes (workers, the Edge, CLI commands) never do. */
let argon2: Promise<typeof Argon2> | null = null;
const argon2Of = () => (argon2 ??= import('@node-rs/argon2'));

/** argon2id with the library's defaults (19 MiB, 2 passes: OWASP's minimum), as a PHC string. */
export async function hashPassword(password: string): Promise<string> {
  const { Algorithm, hash } = await argon2Of();
  return hash(password, { algorithm: Algorithm.Argon2id });
}

/**
 * A hash of nothing anyone knows, checked when the email is unknown, so that both answers take
 * as long. Made by the first check, which waits for it whichever the email: the first answer
 * of a process takes as long for a known email as for an unknown one too.
 */
let decoy: Promise<string> | null = null;

export async function passwordMatches(stored: string | null, presented: string): Promise<boolean> {
  const { verify } = await argon2Of();
  const decoyHash = await (decoy ??= hashPassword('billow decoy password, never set'));
  return verify(stored ?? decoyHash, presented).then((matches) => matches && stored !== null, () => false);
}

export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

function totpOf(secret: string, label = ''): TOTP {
  return new TOTP({ issuer: 'Billow', label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

export const totpUrl = (secret: string, email: string): string => totpOf(secret, email).toString();

/** True for the current code, or the one just before or after (a clock a little off). */
export function totpMatches(secret: string, code: string, at: Date): boolean {
  return totpOf(secret).validate({ token: code, timestamp: at.getTime(), window: 1 }) !== null;
}

/** The code of `at` (tests, and the CLI's checks). */
export const totpCodeAt = (secret: string, at: Date): string => totpOf(secret).generate({ timestamp: at.getTime() });
