/**
 * Health probes under a burst: a liveness probe with a short timeout must get its
 * answer from a server that is only busy. Drives the built `billow` command.
 */
import fs from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killServers, makeWorkspace, migratedTemplate, startServer, type StartedServer, type Workspace } from '../../cli/test/support.js';

const BURST = 1_200;

function somaxconn(): number {
  try {
    return Number(fs.readFileSync('/proc/sys/net/core/somaxconn', 'utf8').trim());
  } catch {
    return BURST;
  }
}

/** Opens `count` connections and resolves, after `settleMs`, with those the kernel completed. */
async function openConnections(port: number, count: number, settleMs: number): Promise<{ connected: number; sockets: net.Socket[] }> {
  let connected = 0;
  const sockets = Array.from({ length: count }, () => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.on('connect', () => connected++);
    socket.on('error', () => {});
    return socket;
  });
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  return { connected, sockets };
}

describe('health probes', () => {
  let workspace: Workspace;
  let server: StartedServer;
  let template: Workspace | null = null;
  beforeAll(async () => {
    assertBuilt();
    template = await migratedTemplate();
    workspace = await makeWorkspace({ emptyDatabase: true, copyOf: template });
    server = await startServer(workspace);
  }, 180_000);
  afterAll(async () => {
    await killServers();
    await workspace?.cleanup();
    await template?.cleanup();
  });

  it('a burst of connections to a process that cannot accept them yet waits in the kernel instead of being dropped', async () => {
    const port = Number(new URL(server.url).port);
    // A stopped process accepts nothing: what the kernel completes meanwhile is what the listen backlog holds.
    process.kill(server.pid, 'SIGSTOP');
    let burst: Awaited<ReturnType<typeof openConnections>>;
    try {
      burst = await openConnections(port, BURST, 1_500);
    } finally {
      process.kill(server.pid, 'SIGCONT');
    }
    for (const socket of burst.sockets) socket.destroy();
    // Node's default backlog (511) completed 512 of them; the rest waited for the clients' SYN retries (1, 3, 7 s…).
    expect(burst.connected).toBeGreaterThanOrEqual(Math.min(BURST, somaxconn() + 1));
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });

  it('answers /healthz and HEAD /healthz as the route does, in both environments, and /readyz with the database', async () => {
    for (const base of [server.url, server.sandboxUrl]) {
      const get = await fetch(`${base}/healthz`);
      expect(get.status).toBe(200);
      expect(get.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(get.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(await get.json()).toEqual({ status: 'ok' });
      const head = await fetch(`${base}/healthz/`, { method: 'HEAD', headers: { 'x-request-id': 'probe-1' } });
      expect(head.status).toBe(200);
      expect(head.headers.get('x-request-id')).toBe('probe-1');
      expect(await head.text()).toBe('');
    }
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', database: 'reachable' });
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/billow_http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\} [1-9]/);
  });
});
