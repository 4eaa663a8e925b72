/**
 * The webhook scenario's receivers: real HTTP servers on 127.0.0.1, in the bench's
 * process, that answer every POST with 200 at once and note, per delivery, the
 * `webhook-id` (the event's id) and when the request's body had arrived.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receipt {
  /** Which receiver (0, 1, 2…). */
  receiver: number;
  eventId: string;
  /** Date.now() once the whole body arrived. */
  at: number;
}

export class WebhookReceivers {
  readonly receipts: Receipt[] = [];
  /** Receipts per receiver and event id: more than 1 is a duplicate. */
  private readonly seen = new Map<string, number>();
  private readonly servers: http.Server[] = [];

  private constructor() {}

  static async start(count: number): Promise<WebhookReceivers> {
    const receivers = new WebhookReceivers();
    for (let i = 0; i < count; i++) receivers.servers.push(await receivers.listen(i));
    return receivers;
  }

  private listen(index: number): Promise<http.Server> {
    const server = http.createServer((req, res) => {
      req.on('data', () => undefined);
      req.on('end', () => {
        const eventId = String(req.headers['webhook-id'] ?? '');
        this.receipts.push({ receiver: index, eventId, at: Date.now() });
        const key = `${index}:${eventId}`;
        this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
  }

  get urls(): string[] {
    return this.servers.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
  }

  /** (receiver, event) pairs received at least once, so far. */
  get pairs(): number {
    return this.seen.size;
  }

  /** Receipts of these events beyond the first for each receiver. */
  duplicates(eventIds: ReadonlySet<string>): number {
    let n = 0;
    for (const [key, count] of this.seen) if (eventIds.has(key.slice(key.indexOf(':') + 1))) n += count - 1;
    return n;
  }

  /** The first receipt of each (receiver, event) of these events. */
  firstReceipts(eventIds: ReadonlySet<string>): Receipt[] {
    const first = new Map<string, Receipt>();
    for (const receipt of this.receipts) {
      const key = `${receipt.receiver}:${receipt.eventId}`;
      if (eventIds.has(receipt.eventId) && !first.has(key)) first.set(key, receipt);
    }
    return [...first.values()];
  }

  async close(): Promise<void> {
    await Promise.all(
      this.servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  }
}
