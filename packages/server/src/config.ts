import path from 'node:path';
import { FAILPOINTS, type Failpoint } from './lib/failpoints.js';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './lib/retry-schedule.js';

export type Role = 'all' | 'api' | 'core' | 'edge' | 'worker';
export type EnvironmentKind = 'sandbox' | 'production';

/** Where uploaded media lives: `local` disk served by Billow, or an S3-compatible bucket. */
export type StorageKind = 'local' | 's3';

export interface S3Config {
  bucket: string;
  region: string;
  /** For S3-compatible services (MinIO, R2, ...); null uses AWS. */
  endpoint: string | null;
  forcePathStyle: boolean;
  /** Base URL (a CDN, or a public bucket) that serves objects under `public/`; null serves them through Billow. */
  publicUrl: string | null;
}

export interface MediaConfig {
  storage: StorageKind;
  /** Root directory of the local store. */
  dir: string;
  /** Largest file one presigned upload accepts. */
  maxUploadBytes: number;
  s3: S3Config | null;
}

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  /** A streaming replica of the database, for reads that may lag (decision 0123); PostgreSQL only. */
  replica: { url: string; maxWaitMs: number } | null;
  dataDir: string;
  credentialsFile: string;
  publicUrl: string | null;
  hostEnvironments: Map<string, EnvironmentKind>;
  logLevel: string;
  /** `auto`: human-readable lines when standard output is a terminal, JSON lines otherwise. */
  logFormat: LogFormat;
  bodyLimitBytes: number;
  rateLimit: { max: number; windowMs: number };
  /** How long a connection may take to send its headers, its whole request, and stay idle between requests. */
  timeouts: { headersMs: number; requestMs: number; keepAliveMs: number };
  /** How long a request holds its Idempotency-Key before a retry may take it over (its process died). */
  idempotencyLeaseMs: number;
  /** A payment still processing after this long belongs to a process that died: the recovery task completes it. */
  paymentRecoveryAfterMs: number;
  /** Crash points armed for tests of crash recovery (BILLOW_FAILPOINTS); empty in production. */
  failpoints: Failpoint[];
  /** Failed authentications (401) one client address may cause per window before it gets 429. */
  authFailureLimit: { max: number; windowMs: number };
  redisUrl: string | null;
  keyCacheTtlMs: number;
  trustProxy: boolean;
  /** BILLOW_EDGE_FAST_LANE: cached Edge reads answered ahead of Fastify (decision 0045); on unless `false` or `0`. */
  edgeFastLane: boolean;
  shutdownTimeoutMs: number;
  /** How long an activate_on_payment subscription change waits for its payment. */
  pendingUpdateTtlMs: number;
  /** Change streams (GET /entitlements/changes/) one environment may hold open in one process. */
  changeStreamLimit: number;
  /** Background jobs (decision 0027): how often an idle runner looks for due jobs, how long it holds one, how long succeeded ones are kept. */
  jobs: { pollIntervalMs: number; leaseMs: number; retentionMs: number };
  billing: { sweepIntervalMs: number; dunningDays: readonly number[]; concurrency: number };
  webhooks: WebhookConfig;
  /** Master secret for signed URLs; null: one is generated and kept in the database. */
  secret: string | null;
  /** The customer portal (decision 0037): how long a portal session's token opens the portal. */
  portal: { sessionTtlMs: number };
  media: MediaConfig;
  /**
   * BILLOW_STRIPE_API_URL: where Stripe's API is reached; null: Stripe's own host. Only for
   * tests and stand-ins (http://127.0.0.1:PORT); a seller never sets it.
   */
  stripeApiUrl: URL | null;
  mail: MailConfig;
  signIn: SignInConfig;
  taxIdCheck: TaxIdCheckConfig;
}

/**
 * The online check of buyers' tax ids (issue 27, item 5): `none` (the default) checks
 * format and check digits only; `vies` also asks the EU's VIES register about EU VAT ids.
 */
export interface TaxIdCheckConfig {
  online: 'none' | 'vies';
  /** BILLOW_VIES_URL: VIES's check-vat-number endpoint (its REST API), or a stand-in for tests. */
  viesUrl: string;
  /** BILLOW_VIES_TIMEOUT_MS: how long a check waits for VIES before it counts as unavailable. */
  timeoutMs: number;
}

const VIES_URL = 'https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number';

function parseTaxIdCheck(env: NodeJS.ProcessEnv): TaxIdCheckConfig {
  const raw = env.BILLOW_VIES_URL || VIES_URL;
  if (!/^https?:\/\/[^\s]+$/.test(raw)) throw new ConfigError(`BILLOW_VIES_URL must be an http(s) URL, got "${raw}"`);
  return {
    online: oneOf(env, 'BILLOW_TAX_ID_CHECK', ['none', 'vies'] as const, 'none'),
    viesUrl: raw,
    timeoutMs: integer(env, 'BILLOW_VIES_TIMEOUT_MS', 5_000, 100),
  };
}

/** Outgoing email (decision 0038): SMTP when configured; the sandbox keeps its messages in a development inbox instead. */
export interface MailConfig {
  /** smtp://user:password@host:587 or smtps://…:465; null: production sends no email. Never logged. */
  smtpUrl: string | null;
  /** The From header, e.g. "Acme Billing <billing@acme.example>"; required with smtpUrl. */
  from: string | null;
}

/** Portal sign-in by one-time email code (decision 0038). */
export interface SignInConfig {
  codeTtlMs: number;
  /** Wrong codes one sign-in may take before it is spent. */
  attempts: number;
  /** Codes one email, and one client address, may ask for per window. */
  perEmail: number;
  perAddress: number;
  windowMs: number;
}

/** Webhook delivery (decision 0031). */
export interface WebhookConfig {
  /** How often an idle dispatcher looks for due deliveries; 0: this process delivers none. */
  pollIntervalMs: number;
  /** Deliveries in flight at once per process. */
  concurrency: number;
  /** One attempt's limit, from connecting to the last byte read. */
  timeoutMs: number;
  /** Delays after each failed attempt; when spent, the delivery has failed. */
  retryScheduleMs: readonly number[];
  /** An endpoint failing every attempt for this long, at least `disableMinFailures` times, is disabled. */
  disableAfterMs: number;
  disableMinFailures: number;
  /** How long delivery logs are kept. */
  logRetentionMs: number;
  /**
   * Sandbox endpoints may point at private and local addresses (decision 0057): on by
   * default on the embedded database (one developer's machine), off on PostgreSQL,
   * where organizations may share the installation.
   */
  sandboxPrivateTargets: boolean;
}

export class ConfigError extends Error {}

export type LogFormat = 'auto' | 'pretty' | 'json';
const LOG_FORMATS: readonly LogFormat[] = ['auto', 'pretty', 'json'];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer of at least ${min}, got "${raw}"`);
  }
  return value;
}

function parseHostEnvironments(raw: string | undefined): Map<string, EnvironmentKind> {
  const map = new Map<string, EnvironmentKind>();
  if (!raw) return map;
  for (const entry of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [host, kind] = entry.split('=').map((s) => s.trim().toLowerCase());
    if (!host || (kind !== 'sandbox' && kind !== 'production')) {
      throw new ConfigError(
        `BILLOW_HOST_ENVIRONMENTS entries look like "api.example.com=production", got "${entry}"`,
      );
    }
    map.set(host, kind);
  }
  return map;
}

const MiB = 1024 * 1024;
/** S3 refuses a single POST upload above 5 GB. */
export const S3_MAX_UPLOAD_BYTES = 5 * 1024 * MiB;
const LOCAL_DEFAULT_MAX_UPLOAD_BYTES = 100 * MiB;
const MIN_SECRET_LENGTH = 32;

function flag(env: NodeJS.ProcessEnv, name: string, fallback = false): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return raw === 'true' || raw === '1';
}

/** Dunning: eight more attempts over fourteen days after a renewal fails (decision 0029). */
export const DEFAULT_DUNNING_RETRY_DAYS: readonly number[] = [1, 2, 3, 5, 7, 9, 11, 14];

/** Days after the first failure, comma-separated and increasing ("1,2,3,5,7,9,11,14"). */
export function parseDunningDays(raw: string | undefined): readonly number[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_DUNNING_RETRY_DAYS;
  const days = raw.split(',').map((part) => Number(part.trim()));
  const valid = days.every((d, i) => Number.isInteger(d) && d > 0 && d <= 365 && (i === 0 || d > days[i - 1]!));
  if (!valid || days.length > 30) {
    throw new ConfigError(`BILLOW_DUNNING_RETRY_DAYS must be increasing whole days between 1 and 365 (at most 30), got "${raw}"`);
  }
  return days;
}

function parseSecret(raw: string | undefined): string | null {
  if (!raw) return null;
  if (raw.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`BILLOW_SECRET must be at least ${MIN_SECRET_LENGTH} characters (for example \`openssl rand -hex 32\`)`);
  }
  return raw;
}

function parseStripeApiUrl(raw: string | undefined): URL | null {
  if (!raw) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ConfigError(`BILLOW_STRIPE_API_URL must be an http(s) URL, got "${raw}"`);
  }
  return url;
}

function parseMedia(env: NodeJS.ProcessEnv, dataDir: string): MediaConfig {
  const storage = env.BILLOW_STORAGE || 'local';
  if (storage !== 'local' && storage !== 's3') {
    throw new ConfigError(`BILLOW_STORAGE must be "local" or "s3", got "${storage}"`);
  }
  const dir = path.resolve(env.BILLOW_STORAGE_DIR || path.join(path.dirname(dataDir), 'files'));
  if (storage === 'local') {
    return { storage, dir, maxUploadBytes: integer(env, 'BILLOW_MEDIA_MAX_BYTES', LOCAL_DEFAULT_MAX_UPLOAD_BYTES, 1), s3: null };
  }
  const maxUploadBytes = integer(env, 'BILLOW_MEDIA_MAX_BYTES', S3_MAX_UPLOAD_BYTES, 1);
  if (maxUploadBytes > S3_MAX_UPLOAD_BYTES) {
    throw new ConfigError(`BILLOW_MEDIA_MAX_BYTES may be at most ${S3_MAX_UPLOAD_BYTES} (5 GB) with S3 storage`);
  }
  const bucket = env.BILLOW_S3_BUCKET;
  if (!bucket) throw new ConfigError('BILLOW_STORAGE=s3 needs BILLOW_S3_BUCKET');
  const publicUrl = env.BILLOW_S3_PUBLIC_URL ? env.BILLOW_S3_PUBLIC_URL.replace(/\/+$/, '') : null;
  // The dashboard's policy names its origin (decision 0103): it must have one.
  if (publicUrl && !/^https?:$/.test(URL.canParse(publicUrl) ? new URL(publicUrl).protocol : '')) {
    throw new ConfigError(`BILLOW_S3_PUBLIC_URL must be an http(s) URL, got "${publicUrl}"`);
  }
  return {
    storage,
    dir,
    maxUploadBytes,
    s3: {
      bucket,
      region: env.BILLOW_S3_REGION || env.AWS_REGION || 'us-east-1',
      endpoint: env.BILLOW_S3_ENDPOINT || null,
      forcePathStyle: flag(env, 'BILLOW_S3_FORCE_PATH_STYLE'),
      publicUrl,
    },
  };
}

function parseTimeouts(env: NodeJS.ProcessEnv): Config['timeouts'] {
  const timeouts = {
    headersMs: integer(env, 'BILLOW_HEADERS_TIMEOUT_MS', 10_000, 100),
    requestMs: integer(env, 'BILLOW_REQUEST_TIMEOUT_MS', 120_000, 100),
    keepAliveMs: integer(env, 'BILLOW_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100),
  };
  if (timeouts.headersMs > timeouts.requestMs) {
    throw new ConfigError('BILLOW_HEADERS_TIMEOUT_MS may not be longer than BILLOW_REQUEST_TIMEOUT_MS');
  }
  return timeouts;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function parseWebhooks(env: NodeJS.ProcessEnv): WebhookConfig {
  const embedded = !env.DATABASE_URL;
  const raw = env.BILLOW_WEBHOOK_RETRY_SCHEDULE || DEFAULT_RETRY_SCHEDULE;
  const retryScheduleMs = parseRetrySchedule(raw);
  if (!retryScheduleMs) {
    throw new ConfigError(`BILLOW_WEBHOOK_RETRY_SCHEDULE must be 1 to 30 delays like "5s,5m,2h,1d" (each at most 7d), got "${raw}"`);
  }
  return {
    pollIntervalMs: integer(env, 'BILLOW_WEBHOOK_POLL_INTERVAL_MS', 250, 0),
    concurrency: integer(env, 'BILLOW_WEBHOOK_CONCURRENCY', 128, 1),
    timeoutMs: integer(env, 'BILLOW_WEBHOOK_TIMEOUT_MS', 15_000, 100),
    retryScheduleMs,
    disableAfterMs: integer(env, 'BILLOW_WEBHOOK_DISABLE_AFTER_MS', 5 * DAY_MS, 0),
    disableMinFailures: integer(env, 'BILLOW_WEBHOOK_DISABLE_MIN_FAILURES', 20, 1),
    logRetentionMs: integer(env, 'BILLOW_WEBHOOK_LOG_RETENTION_MS', 30 * DAY_MS, 60_000),
    sandboxPrivateTargets: flag(env, 'BILLOW_WEBHOOK_SANDBOX_PRIVATE_TARGETS', embedded),
  };
}

function parseMail(env: NodeJS.ProcessEnv): MailConfig {
  const smtpUrl = env.BILLOW_SMTP_URL || null;
  const from = env.BILLOW_MAIL_FROM || null;
  if (smtpUrl) {
    let protocol = '';
    try {
      protocol = new URL(smtpUrl).protocol;
    } catch {
      // reported below, without echoing the URL: it may hold a password
    }
    if (protocol !== 'smtp:' && protocol !== 'smtps:') {
      throw new ConfigError('BILLOW_SMTP_URL must look like smtp://user:password@host:587 or smtps://user:password@host:465');
    }
    if (!from) throw new ConfigError('BILLOW_SMTP_URL needs BILLOW_MAIL_FROM (the From address, e.g. "Acme <billing@acme.example>")');
  }
  return { smtpUrl, from };
}

function parseSignIn(env: NodeJS.ProcessEnv): SignInConfig {
  const windowMs = integer(env, 'BILLOW_SIGN_IN_LIMIT_WINDOW_MS', 60 * 60 * 1000, 1000);
  // Sign-ins are purged after 7 days: a longer window would count fewer than it should.
  if (windowMs > 24 * 60 * 60 * 1000) throw new ConfigError('BILLOW_SIGN_IN_LIMIT_WINDOW_MS may be at most one day (86400000)');
  return {
    windowMs,
    codeTtlMs: integer(env, 'BILLOW_SIGN_IN_CODE_TTL_MS', 10 * 60 * 1000, 10_000),
    attempts: integer(env, 'BILLOW_SIGN_IN_CODE_ATTEMPTS', 5, 1),
    perEmail: integer(env, 'BILLOW_SIGN_IN_EMAIL_LIMIT', 5, 1),
    perAddress: integer(env, 'BILLOW_SIGN_IN_ADDRESS_LIMIT', 20, 1),
  };
}

function parseFailpoints(raw: string | undefined): Failpoint[] {
  const names = (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.find((name) => !(FAILPOINTS as readonly string[]).includes(name));
  if (unknown) throw new ConfigError(`BILLOW_FAILPOINTS: "${unknown}" is not one of ${FAILPOINTS.join(', ')}`);
  return names as Failpoint[];
}

function parseReplica(env: NodeJS.ProcessEnv): Config['replica'] {
  const url = env.DATABASE_REPLICA_URL;
  if (!url) return null;
  if (!env.DATABASE_URL) throw new ConfigError('DATABASE_REPLICA_URL is a replica of DATABASE_URL: set DATABASE_URL too (the embedded database has no replicas)');
  return { url, maxWaitMs: integer(env, 'BILLOW_REPLICA_MAX_WAIT_MS', 250, 0) };
}

/** The only place that reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.BILLOW_DATA_DIR || './.billow/data');
  return {
    port: integer(env, 'PORT', 4000),
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || null,
    replica: parseReplica(env),
    dataDir,
    credentialsFile: path.join(path.dirname(dataDir), 'credentials.json'),
    publicUrl: env.BILLOW_PUBLIC_URL ? env.BILLOW_PUBLIC_URL.replace(/\/$/, '') : null,
    hostEnvironments: parseHostEnvironments(env.BILLOW_HOST_ENVIRONMENTS),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', LOG_FORMATS, 'auto'),
    bodyLimitBytes: integer(env, 'BILLOW_BODY_LIMIT_BYTES', 1024 * 1024, 1),
    rateLimit: {
      max: integer(env, 'BILLOW_RATE_LIMIT_MAX', 100, 1),
      windowMs: integer(env, 'BILLOW_RATE_LIMIT_WINDOW_MS', 1000, 1),
    },
    timeouts: parseTimeouts(env),
    idempotencyLeaseMs: integer(env, 'BILLOW_IDEMPOTENCY_LEASE_MS', 60_000, 100),
    paymentRecoveryAfterMs: integer(env, 'BILLOW_PAYMENT_RECOVERY_AFTER_MS', 60_000, 100),
    failpoints: parseFailpoints(env.BILLOW_FAILPOINTS),
    authFailureLimit: {
      max: integer(env, 'BILLOW_AUTH_FAILURE_LIMIT_MAX', 30, 1),
      windowMs: integer(env, 'BILLOW_AUTH_FAILURE_WINDOW_MS', 60_000, 1000),
    },
    redisUrl: env.REDIS_URL || null,
    keyCacheTtlMs: integer(env, 'BILLOW_KEY_CACHE_TTL_MS', 5000),
    trustProxy: env.BILLOW_TRUST_PROXY === 'true' || env.BILLOW_TRUST_PROXY === '1',
    edgeFastLane: env.BILLOW_EDGE_FAST_LANE !== 'false' && env.BILLOW_EDGE_FAST_LANE !== '0',
    shutdownTimeoutMs: integer(env, 'BILLOW_SHUTDOWN_TIMEOUT_MS', 10000, 1),
    pendingUpdateTtlMs: integer(env, 'BILLOW_PENDING_UPDATE_TTL_MS', 23 * 60 * 60 * 1000, 1),
    changeStreamLimit: integer(env, 'BILLOW_CHANGE_STREAM_LIMIT', 10_000, 1),
    portal: { sessionTtlMs: integer(env, 'BILLOW_PORTAL_SESSION_TTL_MS', 60 * 60 * 1000, 1000) },
    jobs: {
      pollIntervalMs: integer(env, 'BILLOW_JOB_POLL_INTERVAL_MS', 1000, 10),
      leaseMs: integer(env, 'BILLOW_JOB_LEASE_MS', 5 * 60 * 1000, 1000),
      retentionMs: integer(env, 'BILLOW_JOB_RETENTION_MS', 7 * 24 * 60 * 60 * 1000, 0),
    },
    billing: {
      sweepIntervalMs: integer(env, 'BILLOW_BILLING_SWEEP_MS', 10_000, 0),
      dunningDays: parseDunningDays(env.BILLOW_DUNNING_RETRY_DAYS),
      concurrency: integer(env, 'BILLOW_BILLING_CONCURRENCY', 8, 1),
    },
    webhooks: parseWebhooks(env),
    secret: parseSecret(env.BILLOW_SECRET),
    media: parseMedia(env, dataDir),
    stripeApiUrl: parseStripeApiUrl(env.BILLOW_STRIPE_API_URL),
    mail: parseMail(env),
    signIn: parseSignIn(env),
    taxIdCheck: parseTaxIdCheck(env),
  };
}
