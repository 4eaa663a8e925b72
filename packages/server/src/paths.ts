/**
 * Where the files the server reads at run time lie, from this file: src/paths.ts under the
 * test runner, dist/paths.js or the bundle beside it (dist/*.bundle.js, decision 0114) when
 * built. Every such path is here, at the top of src/, so that all three resolve alike.
 */
import { fileURLToPath } from 'node:url';

const fromPackage = (relative: string) => fileURLToPath(new URL(`../${relative}`, import.meta.url));

/** The SQL migrations, shipped as source. */
export const MIGRATIONS_DIR = fromPackage('src/db/migrations/');
/**
 * The repository's docs/ folder: the guides served at /docs/guides. An installation without
 * it (a trimmed package) has none, and /docs/guides says so.
 */
export const DOCS_DIR = fromPackage('../../docs/');
/** Where `npm run build` leaves the dashboard (packages/dashboard/dist). */
export const DASHBOARD_DIST = fromPackage('../dashboard/dist/');
