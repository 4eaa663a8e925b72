/**
 * The ceilings Billow is compared with, run as a child process of the bench:
 *   node ceiling-server.js json   GET /json returns a fixed JSON body (the framework's ceiling)
 *   node ceiling-server.js pg     GET /customers/:id reads one row by primary key through a pg Pool
 * Both listen on 127.0.0.1:$PORT and answer GET /healthz once ready.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';

type Mode = 'json' | 'pg';

/** The same pool size Billow's PostgreSQL connection uses (src/db/connect.ts). */
const POOL_SIZE = 10;
const FIXED_BODY = { id: 'cus_fixed', customerId: 'bench-fixed', name: 'Bench customer', isArchived: false };

function routeJson(app: FastifyInstance): void {
  app.get('/json', async () => FIXED_BODY);
}

function routePg(app: FastifyInstance, pool: pg.Pool): void {
  app.get<{ Params: { id: string } }>('/customers/:id', async (request, reply) => {
    const result = await pool.query('SELECT * FROM customers WHERE id = $1', [request.params.id]);
    const row: unknown = result.rows[0];
    if (!row) return reply.code(404).send({ detail: 'not found' });
    return row;
  });
}

function parseMode(value: string | undefined): Mode {
  if (value === 'json' || value === 'pg') return value;
  throw new Error(`usage: ceiling-server.js json|pg (got ${value ?? 'nothing'})`);
}

async function main(): Promise<void> {
  const mode = parseMode(process.argv[2]);
  const port = Number(process.env.PORT);
  const app = Fastify({ logger: false });
  let pool: pg.Pool | null = null;
  if (mode === 'pg') {
    pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });
    routePg(app, pool);
  } else {
    routeJson(app);
  }
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.listen({ port, host: '127.0.0.1' });

  const shutdown = () => {
    void app
      .close()
      .then(() => pool?.end())
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
