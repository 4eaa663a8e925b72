import fs from 'node:fs';
import { MIGRATIONS_DIR } from '../paths.js';
import { sql } from 'kysely';
import type { Db } from './connect.js';

// Resolves to packages/server/src/db/migrations from both src/db and dist/db.
const MIGRATION_LOCK = 7_100_221;

export interface MigrationFile {
  version: string;
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): MigrationFile[] {
  return fs
    .readdirSync(dir)
    .filter((file) => /^\d{14}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: file.slice(0, 14),
      name: file.replace(/\.sql$/, ''),
      sql: fs.readFileSync(`${dir}/${file}`, 'utf8'),
    }));
}

/**
 * Applies pending migrations in order, each in its own transaction under an
 * advisory lock, so that processes starting together apply each one once.
 */
export async function migrate(db: Db, log: (line: string) => void = () => {}): Promise<string[]> {
  // Under the lock too: two processes creating it at once collide in pg_type.
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
    await sql`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version text PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`.execute(trx);
  });
  const applied: string[] = [];
  // One read finds a database that is up to date (every process start): a transaction per migration costs a commit each.
  const done = new Set((await db.selectFrom('schema_migrations').select('version').execute()).map((row) => row.version));
  for (const migration of readMigrations().filter((m) => !done.has(m.version))) {
    const ran = await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
      const done = await trx
        .selectFrom('schema_migrations')
        .select('version')
        .where('version', '=', migration.version)
        .executeTakeFirst();
      if (done) return false;
      await sql.raw(migration.sql).execute(trx);
      await trx.insertInto('schema_migrations').values({ version: migration.version }).execute();
      return true;
    });
    if (ran) {
      applied.push(migration.name);
      log(`applied migration ${migration.name}`);
    }
  }
  return applied;
}
