import { Algorithm, hash, verify } from '@node-rs/argon2';
import { Secret, TOTP } from 'otpauth';

/** argon2id with the library's defaults (19 MiB, 2 passes: OWASP's minimum), as a PHC string. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: Algorithm.Argon2id });
}

/** A hash of nothing anyone knows, checked when the email is unknown, so that both answers take as long. */
const DECOY = hashPassword('billow decoy password, never set');

export async function passwordMatches(stored: string | null, presented: string): Promise<boolean> {
  if (stored === null) {
    await verify(await DECOY, presented).catch(() => false);
    return false;
  }
  return verify(stored, presented).catch(() => false);
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
