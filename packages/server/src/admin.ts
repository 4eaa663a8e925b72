/**
 * What the `billow` admin commands need (configuration, the database, migrations,
 * organizations and keys) without the HTTP server: an admin command loads in a
 * fraction of the time the whole service takes.
 */
import { connectDatabase, type DatabaseHandle } from './db/connect.js';
import type { Config } from './config.js';
import { DEFAULT_REPLICA_OPTIONS } from './db/replica.js';

export { loadConfig, ConfigError, type Config } from './config.js';
export { connectDatabase, type DatabaseHandle, type Db } from './db/connect.js';
export { DataDirectoryLockedError } from './db/lock.js';
export { migrate } from './db/migrate.js';
export { systemClock, type Clock } from './lib/clock.js';
export { credentialsJson, writeCredentials, type Credentials } from './bootstrap.js';
export * as tenancy from './modules/tenancy/service.js';
export * as jobs from './modules/jobs/service.js';
export { JobError } from './modules/jobs/errors.js';

export function openDatabase(config: Config): Promise<DatabaseHandle> {
  return connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    replicaUrl: config.replica?.url ?? null,
    ...(config.replica ? { replicaOptions: { ...DEFAULT_REPLICA_OPTIONS, maxWaitMs: config.replica.maxWaitMs } } : {}),
  });
}
export * as providers from './modules/payments/admin.js';
export * as profiles from './modules/seller-profile/admin.js';
export * as emails from './modules/mail/admin.js';
export * as users from './modules/accounts/admin.js';
export * as analytics from './modules/analytics/admin.js';
export { bodyProblem } from './http/validation.js';
export { EmailSettingsUpdate, SellerProfileUpdate } from '@billow/contract';
