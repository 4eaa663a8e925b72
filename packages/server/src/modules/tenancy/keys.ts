import { randomBase62, sha256Hex } from '../../lib/crypto.js';
import type { EnvironmentKind } from '../../config.js';

export type KeyKind = 'server' | 'client' | 'partner';

const ENVIRONMENT_TAG: Record<EnvironmentKind, string> = { sandbox: 'test', production: 'live' };
const KIND_TAG = { server: 'sk', client: 'ck' } as const;
const PARTNER_TAG = 'bpk';
const SECRET_LENGTH = 40;
/** Characters of the secret kept in the clear as the key's public prefix. */
const PREFIX_SECRET_CHARS = 8;

export interface MintedKey {
  secret: string;
  prefix: string;
  hash: string;
}

function mint(head: string): MintedKey {
  const secret = `${head}_${randomBase62(SECRET_LENGTH)}`;
  return { secret, prefix: secret.slice(0, head.length + 1 + PREFIX_SECRET_CHARS), hash: hashKey(secret) };
}

/** `sk_test_…`, `ck_live_…`: kind and environment readable at a glance. */
export function mintEnvironmentKey(kind: 'server' | 'client', environment: EnvironmentKind): MintedKey {
  return mint(`${KIND_TAG[kind]}_${ENVIRONMENT_TAG[environment]}`);
}

export function mintPartnerKey(): MintedKey {
  return mint(PARTNER_TAG);
}

const PREFIX_SHAPE = new RegExp(`^(?:[sc]k_(?:test|live)|${PARTNER_TAG})_[A-Za-z0-9]{${PREFIX_SECRET_CHARS}}$`);

/** The public prefix a presented secret has if it is a key (as `mint` cuts it); null when it cannot be one. */
export function prefixOfSecret(secret: string): string | null {
  const head = secret.indexOf('_', secret.startsWith(PARTNER_TAG) ? 0 : 3);
  const prefix = head === -1 ? '' : secret.slice(0, head + 1 + PREFIX_SECRET_CHARS);
  return PREFIX_SHAPE.test(prefix) ? prefix : null;
}

export function hashKey(secret: string): string {
  return sha256Hex(secret);
}

/** The environment a key's text claims, used only to word a 401 helpfully. */
export function claimedEnvironment(secret: string): EnvironmentKind | null {
  if (/^[sc]k_test_/.test(secret)) return 'sandbox';
  if (/^[sc]k_live_/.test(secret)) return 'production';
  return null;
}
