import type { MemberRole } from '../../db/schema.js';

/**
 * What each role may do (docs/dashboard.md, "Roles"). A session is admitted to the API as
 * its organization's server key, then every request is checked against this table by the
 * route it reaches (decision 0076): the dashboard hides what a role may not do, but the
 * server is what refuses it.
 */
export type Permission = 'read' | 'customers' | 'catalog' | 'developers' | 'keys' | 'money' | 'settings' | 'team' | 'audit';

export const ROLE_PERMISSIONS: Record<MemberRole, readonly Permission[]> = {
  owner: ['read', 'customers', 'catalog', 'developers', 'keys', 'money', 'settings', 'team', 'audit'],
  admin: ['read', 'customers', 'catalog', 'developers', 'keys', 'money', 'settings', 'team', 'audit'],
  developer: ['read', 'customers', 'catalog', 'developers'],
  support: ['read', 'customers'],
  viewer: ['read'],
};

/** How each permission reads in a refusal: "The support role may not <…>". */
export const PERMISSION_WORDS: Record<Permission, string> = {
  read: 'read this',
  customers: 'change customers, subscriptions, payment methods or licenses',
  catalog: 'change the catalog, discounts, promotions or checkouts',
  developers: 'change webhooks, test clocks or uploads',
  keys: 'make or revoke API keys',
  money: 'refund, charge, or change invoices and credit notes',
  settings: "change the seller's profile, email settings, payment provider or reporting currency",
  team: 'manage the team (members and invitations)',
  audit: 'read the audit log',
};

/** Which permission a change under /api/v1/<first segment>/ needs. A segment not listed needs `settings`. */
const WRITES: Record<string, Permission> = {
  customers: 'customers',
  subscriptions: 'customers',
  'payment-methods': 'customers',
  portal: 'customers',
  license: 'customers',
  report: 'customers',
  catalog: 'catalog',
  discounts: 'catalog',
  promotions: 'catalog',
  'promotion-rules': 'catalog',
  checkout: 'catalog',
  monetization: 'catalog',
  media: 'developers',
  webhook: 'developers',
  'test-clocks': 'developers',
  // A key may do anything a server key may, money included: only the roles that may do all of it make or revoke one.
  'api-keys': 'keys',
  mail: 'developers',
  refunds: 'money',
  charges: 'money',
  invoices: 'money',
  'credit-notes': 'money',
  orders: 'money',
  transaction: 'money',
  'seller-profile': 'settings',
  'email-settings': 'settings',
  'payment-provider': 'settings',
  members: 'team',
  invitations: 'team',
};

/** Reads that need more than `read`. */
const READS: Record<string, Permission> = { 'audit-log': 'audit' };

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The permission a request needs, from its method and the route's URL pattern (e.g. /api/v1/refunds/). */
export function permissionFor(method: string, routeUrl: string): Permission {
  const segment = /^\/api\/v1\/([^/]+)/.exec(routeUrl)?.[1] ?? '';
  if (READ_METHODS.has(method)) return READS[segment] ?? 'read';
  return WRITES[segment] ?? 'settings';
}

export function roleMay(role: MemberRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}
