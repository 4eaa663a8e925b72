import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import type { EntitlementChanges } from '../edge-cache/change-feed.js';
import type { Clock } from '../lib/clock.js';

/**
 * What app.ts hands every module's factory (`<name>Module(app, context)` in each
 * module's module.ts). A module takes what it needs of it; parts that belong to
 * one module (its media store, the Edge cache) are typed by the module that uses
 * them, through a port of its own, so that no module imports another to be wired.
 */
export interface ModuleContext {
  db: Db;
  /** For reads that may be served by a replica (decision 0123): lists, analytics, Edge cache misses. Never for a write. */
  reads: Db;
  clock: Clock;
  config: Config;
  /** BILLOW_PUBLIC_URL, for links in answers to routes that take no key. */
  publicUrl: string | null;
  /** How services that change what a customer may use announce it (decision 0019). */
  entitlementChanges: EntitlementChanges;
}
