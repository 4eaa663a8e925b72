import type { OperationExample } from './operation-example.js';

/** The examples of the dashboard's sessions and account, the team, API keys and the audit log (values from real answers of the test suite, lists shortened to one item). */
export const DASHBOARD_EXAMPLES: Record<string, OperationExample> = {
  // Dashboard sessions
  'POST /dashboard/api/sign-in': {
    request: { email: 'developer@example.com', password: 'correct horse battery staple' },
    response: {
      user: {
        id: '61e89e5b-0bfd-4a79-8d2a-5c7c76828ac8',
        email: 'developer@example.com',
        name: 'A developer',
        totpEnabled: false,
        language: null,
      },
      memberships: [{ organizationId: '8ae75039-a387-43d7-899e-33a80180cd1a', organizationName: 'Notes Co', role: 'developer' }],
      csrfToken: 'a3HmP_VdIBjJJH7YiS_w227VLUAU9BGMKYqCoOQB3Q4',
    },
  },
  'POST /dashboard/api/sign-in/link': {
    request: { token: 'SAmJr4AbgHjEDPN79pSBqT67dzzaOP7ZrNn4xk4FWR7' },
    response: {
      user: { id: '050c2c64-497d-43f2-bac2-b522ff564a54', email: 'owner@example.com', name: 'Owner', totpEnabled: false, language: null },
      memberships: [{ organizationId: '1679440d-6bd0-400d-80ac-03874f1186f0', organizationName: 'Sprachen GmbH', role: 'owner' }],
      csrfToken: 'OhPOkSU2VRGK-q52VFoNkiWQ7TZZ-dCDLU1xYtKyTBg',
    },
  },
  'GET /dashboard/api/session': {
    response: {
      user: { id: '050c2c64-497d-43f2-bac2-b522ff564a54', email: 'owner@example.com', name: 'Owner', totpEnabled: false, language: 'de' },
      memberships: [{ organizationId: '1679440d-6bd0-400d-80ac-03874f1186f0', organizationName: 'Sprachen GmbH', role: 'owner' }],
      csrfToken: 'OhPOkSU2VRGK-q52VFoNkiWQ7TZZ-dCDLU1xYtKyTBg',
    },
  },
  // Dashboard account
  'POST /dashboard/api/password': { request: { currentPassword: 'correct horse battery staple', newPassword: 'a brand new password' } },
  'PUT /dashboard/api/language': { request: { language: 'de' } },
  'POST /dashboard/api/totp/setup': {
    response: {
      secret: '55NLMK5IVOQIK4NTRBQ62MNQYWRXT5I6',
      otpauthUrl: 'otpauth://totp/Billow:developer%40example.com?issuer=Billow&secret=55NLMK5IVOQIK4NTRBQ62MNQYWRXT5I6&algorithm=SHA1&digits=6&period=30',
    },
  },
  'POST /dashboard/api/totp/enable': { request: { code: '902634' } },
  'POST /dashboard/api/totp/disable': { request: { code: '492039' } },
  'GET /dashboard/api/sessions': {
    response: {
      results: [
        {
          id: 'b4eee650-5a25-47f0-93f5-66fd1280e456',
          createdOn: '2026-11-29T11:26:51.506Z',
          lastSeenOn: '2026-11-29T11:26:51.506Z',
          expiresOn: '2026-12-06T11:26:51.506Z',
          clientAddress: '203.0.113.7',
          userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
          current: true,
        },
      ],
    },
  },
  // Dashboard sign-in by email
  'POST /dashboard/api/invitations/accept': {
    request: { token: 'MlpYFEJZxIG30t6rgwQQVxWFqC3y8y8Zi6VecB3RRRu', name: 'Sam Support', password: 'correct horse battery staple' },
    response: {
      user: { id: 'b14f60ed-09df-41f6-b00c-cbc90df1907f', email: 'support@example.com', name: 'Sam Support', totpEnabled: false, language: null },
      memberships: [{ organizationId: 'c7bb6ce3-3a73-42a5-8935-f4c414c9797f', organizationName: 'Notes Co', role: 'support' }],
      csrfToken: 'Y2GOWEoWGQw9R0IF7hPboZsQu7cDsRY7yAUk9oPiyYU',
    },
  },
  'POST /dashboard/api/password-reset/request': { request: { email: 'viewer@example.com' } },
  'POST /dashboard/api/password-reset': { request: { token: 'jWk9tzUoHYAIu8ByV5WY3u5esjFN3qJSyWmbLJ8vPJh', password: 'a new long password' } },
  'POST /dashboard/api/sign-in/link/request': { request: { email: 'viewer@example.com' } },
  // Team
  'GET /api/v1/members/': {
    response: {
      count: 1,
      next: null,
      previous: null,
      results: [
        {
          id: 'f7fa9689-2a6f-4343-bf4a-a9eea123c2fc',
          userId: '2b9512ca-795b-4d07-a438-8421dfa9ff3d',
          email: 'founder@example.com',
          name: 'Founder',
          role: 'owner',
          createdOn: '2026-11-29T11:10:43.677Z',
        },
      ],
    },
  },
  'POST /api/v1/members/': {
    request: { email: 'invitee@example.com', role: 'support' },
    response: {
      id: 'd0ea4cea-ab3b-4645-9625-ecae835d360b',
      email: 'invitee@example.com',
      role: 'support',
      invitedBy: 'b7ca3e14-2237-4d00-9c93-3a918b6ff12e',
      createdOn: '2026-11-29T11:31:15.533Z',
      expiresOn: '2026-12-06T11:31:15.533Z',
    },
  },
  'PATCH /api/v1/members/{id}/': {
    request: { role: 'developer' },
    response: {
      id: '5b0c7a52-8f3e-4d2a-9c61-0e4f2b7d9a13',
      userId: '2b9512ca-795b-4d07-a438-8421dfa9ff3d',
      email: 'grace@example.com',
      name: 'Grace Hopper',
      role: 'developer',
      createdOn: '2026-11-29T11:12:40.511Z',
    },
  },
  'GET /api/v1/invitations/': {
    response: {
      count: 1,
      next: null,
      previous: null,
      results: [
        {
          id: '810525c1-78ae-4ac1-b8dd-308b1c54ee68',
          email: 'support@example.com',
          role: 'support',
          invitedBy: '2b9512ca-795b-4d07-a438-8421dfa9ff3d',
          createdOn: '2026-11-29T11:11:28.476Z',
          expiresOn: '2026-12-06T11:11:28.476Z',
        },
      ],
    },
  },
  // API keys
  'GET /api/v1/api-keys/': {
    response: {
      count: 3,
      next: null,
      previous: null,
      results: [
        {
          prefix: 'sk_test_8IEfZnec',
          kind: 'server',
          name: 'Deploys',
          environment: 'sandbox',
          createdOn: '2026-11-29T11:10:58.403Z',
          revokedOn: null,
        },
      ],
    },
  },
  'POST /api/v1/api-keys/': {
    request: { kind: 'server', name: '  CI deploys ' },
    response: {
      prefix: 'sk_test_b3ll6EFJ',
      kind: 'server',
      name: 'CI deploys',
      environment: 'sandbox',
      createdOn: '2026-11-29T11:28:22.118Z',
      revokedOn: null,
      key: 'sk_test_b3ll6EFJLYNI9gYGoKUvOqALvLBcxuhyY1Hi0MUL',
    },
  },
  'DELETE /api/v1/api-keys/{prefix}/': {
    response: {
      prefix: 'sk_test_b3ll6EFJ',
      kind: 'server',
      name: 'CI deploys',
      environment: 'sandbox',
      createdOn: '2026-11-29T11:28:22.118Z',
      revokedOn: '2026-11-29T11:28:22.453Z',
    },
  },
  // Audit log
  'GET /api/v1/audit-log/': {
    response: {
      results: [
        {
          id: '01a22700-b8dc-7367-bd47-b3d0d2eac0ee',
          actorType: 'user',
          actorId: '2b9512ca-795b-4d07-a438-8421dfa9ff3d',
          actorLabel: 'founder@example.com',
          action: 'invitation.created',
          resource: 'invitation',
          resourceId: '810525c1-78ae-4ac1-b8dd-308b1c54ee68',
          environment: null,
          before: null,
          after: { role: 'support', email: 'support@example.com' },
          clientAddress: '203.0.113.7',
          createdOn: '2026-11-29T11:11:28.476Z',
        },
      ],
      next: null,
    },
  },
};
