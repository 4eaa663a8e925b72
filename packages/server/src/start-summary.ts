/** The start-up summary: where Billow listens, on which database, and the demo keys. */
import type { FirstStart } from './bootstrap.js';
import type { Config, Role } from './config.js';
import type { DatabaseHandle } from './db/connect.js';
import { servesCoreApi, servesEdgeApi } from './edge-cache/roles.js';

/** What the printed base URLs serve, for the role of this process. */
function servedApis(role: Role): string {
  if (servesCoreApi(role) && servesEdgeApi(role)) return 'Core and Edge base URL (the official client\'s baseUrl and edgeApiUrl)';
  if (servesEdgeApi(role)) return 'Edge base URL (the official client\'s edgeApiUrl; this process serves no Core API)';
  if (servesCoreApi(role)) return 'Core base URL (the official client\'s baseUrl; this process serves no Edge API)';
  return 'Base URL (a worker serves no API: only /healthz, /readyz, /metrics and /docs)';
}

/** Where the email of the portal's sign-in codes goes (decision 0038). */
function mailLines(config: Config, sandboxInbox: string | null): string[] {
  const production = config.mail.smtpUrl
    ? `  production    sent by SMTP, from ${config.mail.from}`
    : '  production    not sent: BILLOW_SMTP_URL is not set, so production portals offer no sign-in by email';
  const sandbox = sandboxInbox
    ? `  sandbox       kept in the development inbox, ${sandboxInbox} (keep this link private)`
    : '  sandbox       kept in the development inbox (GET /sandbox/api/v1/mail/inbox/ answers its link)';
  return ['', '  Email', production, sandbox];
}

export function summary(
  url: string,
  firstStart: FirstStart,
  config: Config,
  database: Pick<DatabaseHandle, 'kind' | 'location' | 'replicaLocation'>,
  role: Role,
  { workers = 1, sandboxInbox = null }: { workers?: number; sandboxInbox?: string | null } = {},
): string {
  const lines = [
    '',
    `Billow is running on ${database.kind === 'pglite' ? `the embedded database (${database.location})` : `PostgreSQL (${database.location})`}.`,
    ...(database.replicaLocation ? [`Lists, analytics and Edge cache misses read from the replica (${database.replicaLocation}) once it has caught up.`] : []),
    '',
    ...(workers > 1 ? [`${workers} worker processes share this port (billow start --workers ${workers}).`, ''] : []),
    `  Environment   ${servedApis(role)}`,
    `  production    ${url}`,
    `  sandbox       ${url}/sandbox`,
    '',
    `  API reference ${url}/docs`,
    ...(servesCoreApi(role) ? mailLines(config, sandboxInbox) : []),
  ];
  if (firstStart.kind === 'existing') {
    lines.push('', 'Organizations already exist; create keys with `npx billow keys create --help`.');
  } else {
    const c = firstStart.credentials;
    lines.push(
      '',
      `${firstStart.kind === 'created' ? 'Created the demo organization' : 'Demo organization'} ${c.organizationId}:`,
      `  sandbox     server key  ${c.sandbox.serverKey}`,
      `              client key  ${c.sandbox.clientKey}`,
      `  production  server key  ${c.production.serverKey}`,
      `              client key  ${c.production.clientKey}`,
      '',
      ...(firstStart.kind === 'created'
        ? [
            `Sign in to the dashboard as ${firstStart.owner.email} (owner; the link works once, for a day):`,
            `  ${url}/dashboard/welcome?token=${firstStart.owner.signInToken}`,
            '',
          ]
        : [`A sign-in link for the dashboard: npx billow user create --org ${c.organizationId} --email <you> --role owner`, '']),
      `These keys are saved in ${config.credentialsFile} (readable only by you).`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export function displayUrl(config: Config, port: number): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

