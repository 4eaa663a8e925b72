import type { Session } from '@billow/contract';
import { csrfTokenOf } from '../../lib/session-tokens.js';
import type { UserRow } from './repo.js';
import type { MemberRole } from '../../db/schema.js';

export function sessionView(
  user: UserRow,
  memberships: { organization_id: string; organization_name: string; role: MemberRole }[],
  token: string,
): Session {
  return {
    user: { id: user.id, email: user.email, name: user.name, totpEnabled: user.totp_enabled, language: user.language },
    memberships: memberships.map((m) => ({ organizationId: m.organization_id, organizationName: m.organization_name, role: m.role })),
    csrfToken: csrfTokenOf(token),
  };
}
