import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';

const run = promisify(execFile);
const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
const project = fileURLToPath(new URL('./types/tsconfig.json', import.meta.url));
const samplesFile = fileURLToPath(new URL('./types/samples.generated.ts', import.meta.url));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** The `@billow/sdk` sample of every operation of the API reference, as one module for tsc. */
async function writeReferenceSamples(): Promise<number> {
  const { body: document } = await server.request('GET', '/api/v1/openapi.json');
  const samples: string[] = [];
  for (const item of Object.values(document.paths as Record<string, Record<string, { description?: string }>>)) {
    for (const operation of Object.values(item)) {
      const sample = /\*\*@billow\/sdk\*\*\n\n```ts\n([\s\S]*?)\n```/.exec(operation.description ?? '')?.[1];
      if (sample) samples.push(sample);
    }
  }
  const module = [
    '// Written by types.test.ts from the API reference (GET /api/v1/openapi.json); not kept in git.',
    "import { openAsBlob } from 'node:fs';",
    "import type { Billow } from '../../src/index.js';",
    'declare const billow: Billow;',
    'export async function referenceSamples(): Promise<void> {',
    ...samples.map((sample) => `  ${sample}`),
    '}',
  ].join('\n');
  await fs.promises.writeFile(samplesFile, `${module}\n`);
  return samples.length;
}

it("types every call from the contract (types/usage.ts), and every sample of the API reference compiles", async () => {
  const samples = await writeReferenceSamples();
  expect(samples).toBeGreaterThanOrEqual(145);
  const result = await run(process.execPath, [tsc, '-p', project], { timeout: 120_000 }).catch((error: { stdout: string }) => error);
  expect(result.stdout).toBe('');
}, 150_000);
