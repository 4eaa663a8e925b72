import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connectDatabase, type DatabaseHandle } from '../src/db/connect.js';
import { migrate } from '../src/db/migrate.js';
import { openTestDatabase, startTestServer, type TestServer, type TestServerOptions } from './harness.js';

async function asAdmin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own: other test files' servers share DATABASE_URL (and, on PGlite, the
 * worker's database) and run any due job or stale payment they find with their own clocks (a
 * file whose clock is days ahead would expire this one's checkout sessions).
 */
async function ownDatabase(prefix: string): Promise<{ database: DatabaseHandle; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openTestDatabase();
    return { database, drop: () => database.close() };
  }
  const name = `billow_${prefix}_${randomBytes(6).toString('hex')}`;
  await asAdmin(url, `CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await connectDatabase({ databaseUrl: target.href, dataDir: null, poolSize: 5 });
  await migrate(database.db);
  return {
    database,
    drop: async () => {
      await database.close();
      await asAdmin(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** A test server on a database no other test file's server uses; the database is dropped when the server closes. */
export async function startIsolatedServer(prefix: string, options: TestServerOptions = {}): Promise<TestServer> {
  const own = await ownDatabase(prefix);
  const server = await startTestServer({ ...options, database: own.database });
  const close = server.close.bind(server);
  server.close = async () => {
    await close();
    await own.drop();
  };
  return server;
}
