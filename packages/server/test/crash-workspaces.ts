/**
 * What the tests that kill `billow start` processes share: a migrated template to copy
 * workspaces from, their cleanup after each test, and a start with failpoints set.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  api,
  assertBuilt,
  killServers,
  makeWorkspace,
  migratedTemplate,
  printedCredentials,
  startServer,
  type StartedServer,
  type Workspace,
} from '../../cli/test/support.js';

export type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: any }>;

/** Registers the file's hooks; the returned function makes a fresh workspace (its own database) for a test. */
export function crashWorkspaces(): () => Promise<Workspace> {
  let template: Workspace | null = null;
  const workspaces: Workspace[] = [];
  // A migrated embedded database takes a while to make on a busy machine.
  beforeAll(async () => {
    assertBuilt();
    template = await migratedTemplate();
  }, 300_000);
  afterAll(() => template?.cleanup());
  afterEach(async () => {
    await killServers();
    await Promise.all(workspaces.splice(0).map((w) => w.cleanup()));
  });
  return async () => {
    const w = await makeWorkspace({ emptyDatabase: true, copyOf: template });
    workspaces.push(w);
    return w;
  };
}

/** `billow start` on the workspace with the default leases, and `failpoints` armed when given. */
export async function startWithFailpoints(w: Workspace, failpoints: string | null): Promise<{ server: StartedServer; call: Call }> {
  const server = await startServer({ ...w, env: { ...w.env, ...(failpoints ? { BILLOW_FAILPOINTS: failpoints } : {}) } });
  const key = printedCredentials(server.stdout()).sandbox.serverKey;
  return { server, call: (method, path, body, headers) => api(`${server.sandboxUrl}/api/v1${path}`, method, { key, body, headers }) };
}
