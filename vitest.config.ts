import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that each take a minute or more (they start Billow processes, kill them, wait out
 * leases), with their seconds in a PGlite run on 2026-11-29. Started first, longest first,
 * so that the two workers end together instead of one finishing a long file alone.
 */
const SLOW_FILES: Record<string, number> = {
  'packages/cli/test/users.test.ts': 111,
  'packages/server/test/docs-examples.test.ts': 97,
  'packages/server/test/lifecycle.test.ts': 95,
  'packages/cli/test/admin.test.ts': 93,
  'packages/server/test/dashboard.browser.test.ts': 91,
  'packages/server/test/keyed-crash-provisioning.test.ts': 85,
  'packages/cli/test/emails.test.ts': 78,
  'packages/server/test/crash-recovery.test.ts': 77,
  'packages/server/test/keyed-crash.test.ts': 70,
  'packages/server/test/keyed-crash-resources.test.ts': 66,
  'packages/server/test/media-through-billow.test.ts': 63,
  'packages/cli/test/catalog.test.ts': 60,
  'packages/server/test/stripe-crash-recovery.test.ts': 59,
  'packages/server/test/fuzz.test.ts': 58,
  'packages/server/test/dashboard-pages.browser.test.ts': 54,
  'packages/server/test/dashboard-developers.browser.test.ts': 54,
  'packages/server/test/auth.test.ts': 50,
  'packages/server/test/invoice-number-crash.test.ts': 49,
  'packages/server/test/webhook-crash.test.ts': 47,
  'packages/server/test/restart-takeover.test.ts': 46,
  'packages/cli/test/provider.test.ts': 45,
  'packages/cli/test/org-block.test.ts': 44,
  'packages/server/test/rate-limit.test.ts': 44,
  'packages/server/test/ops.test.ts': 39,
  'packages/server/test/invoice-numbers.test.ts': 36,
  'packages/cli/test/profile.test.ts': 36,
};

const ROOT = fileURLToPath(new URL('./', import.meta.url));

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const seconds = (file: TestSpecification) => SLOW_FILES[file.moduleId.replace(ROOT, '')] ?? 0;
    return [...sorted].sort((a, b) => seconds(b) - seconds(a));
  }
}

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
    // BILLOW_TEST_FORKS sets another number of workers; CI keeps 2 (with 3 on PostgreSQL, every file passed but
    // the pool's teardown reported an unhandled "Terminating worker thread", which fails the run).
    poolOptions: { forks: { maxForks: Number(process.env.BILLOW_TEST_FORKS) || 2, minForks: 1, isolate: false } },
    sequence: { sequencer: SlowFirst },
    // Generous: CLI and lifecycle tests start several processes, each opening the embedded database.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
