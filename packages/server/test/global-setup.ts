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
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const databaseUrl = process.env.DATABASE_URL || null;
  const database = await connectDatabase({ databaseUrl, dataDir: null, poolSize: 1 });
  let dumpDir: string | null = null;
  try {
    await migrate(database.db);
    if (database.dumpDataDir) {
      dumpDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'billow-test-template-'));
      const dumpFile = path.join(dumpDir, 'migrated.tar');
      const dump = await database.dumpDataDir();
      await fs.promises.writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
      project.provide('pgliteTemplate', dumpFile);
    } else {
      project.provide('pgliteTemplate', null);
    }
  } finally {
    await database.close();
  }
  return async () => {
    if (dumpDir) await fs.promises.rm(dumpDir, { recursive: true, force: true });
  };
}
