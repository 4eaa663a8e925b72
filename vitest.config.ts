import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@billow/contract': fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // Generous: CLI and lifecycle tests start several processes, each opening the embedded database.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
