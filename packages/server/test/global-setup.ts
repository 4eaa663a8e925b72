/**
 * Runs once per `npm test`, before any worker starts. On the embedded database it
 * migrates one in-memory PGlite and saves a dump of its data directory, so that each
 * test server starts from a copy (about 0.2 s) instead of running initdb and every
 * migration (about 1 s). On PostgreSQL it applies the migrations once, before test
 * files start opening connections in parallel.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../src/db/connect.js';
import { migrate } from '../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a migrated embedded database, or null on PostgreSQL. */
    pgliteTemplate: string | null;
    /**
     * A migrated embedded database on disk, closed, or null on PostgreSQL: the tests that run
     * `billow` processes copy it (cli/test/support.ts, migratedTemplate) rather than each
     * file migrating one of its own, which took seconds per file.
     */
    pgliteDataDir: string | null;
  }
}

/** Migrates an embedded database in `dataDir`, and closes it. */
async function migrateOnDisk(dataDir: string): Promise<void> {
  const database = await connectDatabase({ databaseUrl: null, dataDir, poolSize: 1 });
  try {
    await migrate(database.db);
  } finally {
    await database.close();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const databaseUrl = process.env.DATABASE_URL || null;
  const dumpDir = databaseUrl ? null : await fs.promises.mkdtemp(path.join(os.tmpdir(), 'billow-test-template-'));
  const onDisk = dumpDir ? migrateOnDisk(path.join(dumpDir, 'data')) : Promise.resolve();
  const database = await connectDatabase({ databaseUrl, dataDir: null, poolSize: 1 });
  try {
    await migrate(database.db);
    if (database.dumpDataDir && dumpDir) {
      const dumpFile = path.join(dumpDir, 'migrated.tar');
      const dump = await database.dumpDataDir();
      await fs.promises.writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
      project.provide('pgliteTemplate', dumpFile);
    } else {
      project.provide('pgliteTemplate', null);
    }
  } finally {
    await database.close();
    await onDisk;
  }
  project.provide('pgliteDataDir', dumpDir ? path.join(dumpDir, 'data') : null);
  return async () => {
    if (dumpDir) await fs.promises.rm(dumpDir, { recursive: true, force: true });
  };
}
