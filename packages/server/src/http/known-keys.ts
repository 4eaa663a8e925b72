import { setTimeout as sleep } from 'node:timers/promises';
import { hashKey, prefixOfSecret } from '../modules/tenancy/keys.js';

/** The hashes of the keys (not revoked) that have these public prefixes. */
export type KeyPrefixLoader = (prefixes: string[]) => Promise<{ prefix: string; keyHash: string }[]>;

/** Characters of a key's SHA-256 kept in memory: 64 bits tell a key from a guess; the lookup that follows checks all of it. */
const HASH_CHARS = 16;
/** Prefixes asked for within this long are read in one query. */
const BATCH_MS = 50;
const MAX_BATCH = 500;
/** Keys remembered; past it, the memory starts over. */
const MAX_REMEMBERED = 10_000;

interface Batch {
  prefixes: Set<string>;
  read: Promise<void>;
}

/**
 * What a blocked address's key is checked against before its hash is looked up (decision
 * 0055). A key's public prefix (`sk_live_` and 8 characters) names at most one key: the
 * prefixes blocked addresses present are read from the database in batches (one indexed
 * query per 50 ms at most, whatever the rate of guesses), and the keys found are
 * remembered with the head of their hash. A secret whose prefix is a key's and whose hash
 * matches is a key that will verify; anything else is a guess, refused without a lookup.
 * The batch that answers a request is read after it arrived, so a key made a moment
 * before, by any process, is found.
 */
export class KnownKeys {
  private readonly heads = new Map<string, string>();
  private batch: Batch | null = null;

  constructor(private readonly load: KeyPrefixLoader) {}

  /** True when `secret` is, by prefix and hash, a key that exists (whether it was revoked since is the lookup's to tell). */
  async vouchesFor(secret: string): Promise<boolean> {
    const prefix = prefixOfSecret(secret);
    if (prefix === null) return false;
    if (!this.heads.has(prefix)) await this.read(prefix).catch(() => undefined);
    const head = this.heads.get(prefix);
    return head !== undefined && hashKey(secret).slice(0, HASH_CHARS) === head;
  }

  private read(prefix: string): Promise<void> {
    if (this.batch === null || this.batch.prefixes.size >= MAX_BATCH) this.batch = this.nextBatch();
    this.batch.prefixes.add(prefix);
    return this.batch.read;
  }

  private nextBatch(): Batch {
    const prefixes = new Set<string>();
    const batch: Batch = {
      prefixes,
      read: sleep(BATCH_MS, undefined, { ref: false }).then(async () => {
        if (this.batch === batch) this.batch = null;
        const rows = await this.load([...prefixes]);
        if (this.heads.size + rows.length > MAX_REMEMBERED) this.heads.clear();
        for (const row of rows) this.heads.set(row.prefix, row.keyHash.slice(0, HASH_CHARS));
      }),
    };
    return batch;
  }
}
