import pg from 'pg';

/** `payload` is null after a reconnect, when notifications may have been missed. */
export type NotificationHandler = (payload: string | null) => void;

const RECONNECT_MS = 1000;

/**
 * LISTEN on its own PostgreSQL connection (pool connections come and go), and
 * reconnect after a failure, telling the handler that it may have missed some.
 */
export async function listenPostgres(
  url: string,
  channel: string,
  handler: NotificationHandler,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) handler(message.payload ?? null);
    });
    next.on('error', () => reconnect());
    await next.connect();
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = next;
  };

  const reconnect = () => {
    if (closed || timer) return;
    const broken = client;
    client = null;
    broken?.end().catch(() => undefined);
    timer = setTimeout(() => {
      timer = null;
      connect()
        .then(() => handler(null))
        .catch(() => reconnect());
    }, RECONNECT_MS);
    timer.unref();
  };

  await connect();
  return async () => {
    closed = true;
    if (timer) clearTimeout(timer);
    await client?.end().catch(() => undefined);
  };
}
