import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; created_at: string; data: { object: Record<string, any>; previous_attributes?: Record<string, any> } };
  at: number;
}

/** What the receiver does with the next request: answer with a status, hang, or close the connection. */
export type Behaviour = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'hang' | 'close';

/** A real HTTP server on 127.0.0.1 that records what it receives and answers as told. */
export class Receiver {
  readonly received: Received[] = [];
  /** TCP connections accepted, whether or not a request came on them. */
  connections = 0;
  private readonly server: http.Server;
  private plan: Behaviour[] = [];
  /** How it answers when nothing is planned. */
  fallback: Behaviour = { status: 200, body: 'ok' };
  private waiters: Array<() => void> = [];

  private constructor() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.answer(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    this.server.on('connection', () => void this.connections++);
  }

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** The next answers, in order; then the fallback. */
  next(...behaviours: Behaviour[]): this {
    this.plan.push(...behaviours);
    return this;
  }

  ofType(type: string): Received[] {
    return this.received.filter((r) => r.json.type === type);
  }

  /** Resolves once at least `n` requests arrived. */
  async waitFor(n: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < n) {
      if (Date.now() > deadline) throw new Error(`expected ${n} deliveries, got ${this.received.length}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
    const behaviour = this.plan.shift() ?? this.fallback;
    if (behaviour === 'close') {
      req.socket.destroy();
      return;
    }
    this.received.push({ headers: req.headers, body, json: JSON.parse(body), at: Date.now() });
    for (const wake of this.waiters.splice(0)) wake();
    if (behaviour === 'hang') return;
    const send = () => res.writeHead(behaviour.status, behaviour.headers ?? {}).end(behaviour.body ?? '');
    if (behaviour.delayMs) setTimeout(send, behaviour.delayMs);
    else send();
  }
}
