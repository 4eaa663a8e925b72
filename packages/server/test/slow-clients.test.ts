import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';

/**
 * Slow and stalled clients (slowloris and the like) on 127.0.0.1: they are answered 408
 * and disconnected after the configured timeouts, and the API keeps answering meanwhile.
 */
let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer({
    env: { BILLOW_HEADERS_TIMEOUT_MS: '2000', BILLOW_REQUEST_TIMEOUT_MS: '4000', BILLOW_KEEP_ALIVE_TIMEOUT_MS: '2000' },
  });
  org = await server.createOrg();
});
afterAll(() => server.close());

interface Stalled {
  /** When the server closed it, and how long after it was opened. */
  closed: Promise<{ at: number; afterMs: number }>;
  answer: () => string;
}

/** Opens a connection that sends `text` and then nothing more. */
function stall(text: string): Stalled {
  const { port } = new URL(server.url);
  const started = Date.now();
  let answer = '';
  const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
  socket.on('error', () => undefined);
  return { closed: new Promise((resolve) => socket.on('close', () => resolve({ at: Date.now(), afterMs: Date.now() - started }))), answer: () => answer };
}

describe('slow clients', () => {
  it('200 silent, half-sent and slow connections are closed after their timeouts while the API keeps answering', async () => {
    const stalled = [
      ...Array.from({ length: 70 }, () => stall('')),
      ...Array.from({ length: 70 }, () => stall('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')),
      ...Array.from({ length: 60 }, () =>
        stall(
          `POST /sandbox/api/v1/customers/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${org.sandbox.serverKey}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"customerId":',
        ),
      ),
    ];

    // The API answers while all 200 are still held open, not once the timeouts have dropped them
    // (an order of events, not a latency bound, so that a busy machine cannot fail it).
    for (let i = 0; i < 20; i++) {
      const res = await server.request('GET', '/sandbox/api/v1/customers/', { key: org.sandbox.serverKey });
      expect(res.status).toBe(200);
    }
    const answeredAt = Date.now();

    const closed = await Promise.all(stalled.map((s) => s.closed));
    expect(answeredAt).toBeLessThan(Math.min(...closed.map((c) => c.at)));
    expect(Math.max(...closed.map((c) => c.afterMs))).toBeLessThan(8_000);
    const timedOut = stalled.filter((s) => s.answer().startsWith('HTTP/1.1 408 '));
    expect(timedOut.length).toBeGreaterThanOrEqual(190);
    const body = timedOut[0]!.answer().split('\r\n\r\n')[1]!;
    expect(JSON.parse(body)).toEqual({ detail: expect.any(String), code: 'request_timeout' });
  });

  it('refuses a headers timeout longer than the request timeout at start', async () => {
    await expect(startTestServer({ env: { BILLOW_HEADERS_TIMEOUT_MS: '5000', BILLOW_REQUEST_TIMEOUT_MS: '1000' } })).rejects.toThrow(
      /BILLOW_HEADERS_TIMEOUT_MS may not be longer than BILLOW_REQUEST_TIMEOUT_MS/,
    );
  });
});
