import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
const project = fileURLToPath(new URL('./types/tsconfig.json', import.meta.url));

it('types every call from the contract: right calls compile, wrong ones do not (types/usage.ts)', async () => {
  const result = await run(process.execPath, [tsc, '-p', project], { timeout: 120_000 }).catch((error: { stdout: string }) => error);
  expect(result.stdout).toBe('');
}, 150_000);
