import path from 'node:path';

export type Role = 'all' | 'core' | 'edge' | 'worker';
export type EnvironmentKind = 'sandbox' | 'production';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  credentialsFile: string;
  publicUrl: string | null;
  hostEnvironments: Map<string, EnvironmentKind>;
  logLevel: string;
  bodyLimitBytes: number;
  rateLimit: { max: number; windowMs: number };
  redisUrl: string | null;
  keyCacheTtlMs: number;
  trustProxy: boolean;
  shutdownTimeoutMs: number;
}

export class ConfigError extends Error {}

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

/** The only place that reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.BILLOW_DATA_DIR || './.billow/data');
  return {
    port: integer(env, 'PORT', 4000),
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || null,
    dataDir,
    credentialsFile: path.join(path.dirname(dataDir), 'credentials.json'),
    publicUrl: env.BILLOW_PUBLIC_URL ? env.BILLOW_PUBLIC_URL.replace(/\/$/, '') : null,
    hostEnvironments: parseHostEnvironments(env.BILLOW_HOST_ENVIRONMENTS),
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimitBytes: integer(env, 'BILLOW_BODY_LIMIT_BYTES', 1024 * 1024, 1),
    rateLimit: {
      max: integer(env, 'BILLOW_RATE_LIMIT_MAX', 100, 1),
      windowMs: integer(env, 'BILLOW_RATE_LIMIT_WINDOW_MS', 1000, 1),
    },
    redisUrl: env.REDIS_URL || null,
    keyCacheTtlMs: integer(env, 'BILLOW_KEY_CACHE_TTL_MS', 5000),
    trustProxy: env.BILLOW_TRUST_PROXY === 'true' || env.BILLOW_TRUST_PROXY === '1',
    shutdownTimeoutMs: integer(env, 'BILLOW_SHUTDOWN_TIMEOUT_MS', 10000, 1),
  };
}
