import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@billow/contract': fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url)),
    },
  },
  test: {
    // Migrates once per run; test servers start from a copy (see the file).
    globalSetup: ['packages/server/test/global-setup.ts'],
    include: ['packages/*/test/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
    pool: 'forks',
    // One process per core, reused across test files (isolate: false): loading the
    // server's modules once per worker instead of once per file halves the run. Tests
    // share no module state: each builds its own app and database, and restores mocks.
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
    // Generous: CLI and lifecycle tests start several processes, each opening the embedded database.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
