import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that take 20 s or more (most start Billow processes, kill them, wait out leases, or
 * drive Chromium), with their seconds in a PGlite run of CI on 2026-11-29 (afternoon). Started
 * first, longest first, so that the two workers end together instead of one finishing a long
 * file alone.
 */
const SLOW_FILES: Record<string, number> = {
  'packages/cli/test/admin.test.ts': 145,
  'packages/server/test/keyed-crash.test.ts': 117,
  'packages/server/test/docs-examples.test.ts': 108,
  'packages/server/test/lifecycle.test.ts': 107,
  'packages/server/test/dashboard.browser.test.ts': 92,
  'packages/server/test/crash-recovery.test.ts': 89,
  'packages/server/test/keyed-crash-resources.test.ts': 73,
  'packages/cli/test/org-block.test.ts': 72,
  'packages/server/test/dashboard-pages.browser.test.ts': 63,
  'packages/cli/test/catalog.test.ts': 63,
  'packages/server/test/stripe-crash-recovery.test.ts': 62,
  'packages/server/test/edge-role.test.ts': 57,
  'packages/server/test/dashboard-developers.browser.test.ts': 56,
  'packages/cli/test/provider.test.ts': 48,
  'packages/server/test/webhook-crash.test.ts': 47,
  'packages/server/test/restart-takeover.test.ts': 47,
  'packages/server/test/dashboard-languages.browser.test.ts': 46,
  'packages/cli/test/users.test.ts': 46,
  'packages/cli/test/emails.test.ts': 45,
  'packages/cli/test/profile.test.ts': 44,
  'packages/server/test/page-headers.test.ts': 40,
  'packages/server/test/dashboard-promotion.browser.test.ts': 35,
  'packages/server/test/keyed-crash-provisioning.test.ts': 39,
  'packages/server/test/fuzz.test.ts': 38,
  'packages/server/test/invoice-number-crash.test.ts': 36,
  'packages/server/test/checkout/browser.test.ts': 32,
  'packages/server/test/ops.test.ts': 31,
  'packages/server/test/mail-receipts.test.ts': 29,
  'packages/server/test/auth.test.ts': 26,
  // PostgreSQL's pass only: a primary, a replica and two Billow nodes.
  'packages/cli/test/scale-out.test.ts': 25,
  'packages/cli/test/usage.test.ts': 23,
  'packages/server/test/portal/browser.test.ts': 22,
  'packages/server/test/checkout/browser-pricing.test.ts': 22,
  'packages/server/test/mail-languages.test.ts': 20,
  'packages/server/test/checkout/languages.browser.test.ts': 20,
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
    // expect.poll gives up after 1 s by default: too short for a page's first fetch on a loaded CI
    // machine (a dashboard table once showed 1 row of 3 when the second ran out). A poll that
    // succeeds still returns at once.
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default'],
  },
});
