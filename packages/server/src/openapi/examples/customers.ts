import type { OperationExample } from './operation-example.js';

/** The examples of customers, test clocks, license keys, entitlements and usage (values from real answers of the test suite, lists shortened to one item). */
export const CUSTOMERS_EXAMPLES: Record<string, OperationExample> = {
  // Customers
  'GET /api/v1/customers/': {
    response: {
      count: 1,
      next: null,
      previous: null,
      results: [
        {
          id: 'ac9f59f5-897f-4a0d-b980-c73d3a2c0c79',
          customerId: 'cus_ada',
          name: null,
          email: 'ada@example.com',
          details: {},
          metadata: {},
          billingAddress: { country: 'US' },
          isArchived: false,
          createdOn: '2026-11-29T11:11:06.952Z',
          modifiedOn: '2026-11-29T11:11:06.952Z',
          locale: 'en',
        },
      ],
      countCapped: false,
    },
  },
  'POST /api/v1/customers/': {
    request: { customerId: 'cus_ada', email: 'ada@example.com', name: 'Ada', testClockId: 'tc_3nYgAER8Fj6Si5a1zCGbPNn3' },
    response: {
      id: 'ec89a1d3-24be-4b3f-a1ac-4e501720e2e3',
      customerId: 'cus_ada',
      name: 'Ada',
      email: 'ada@example.com',
      details: {},
      metadata: {},
      billingAddress: null,
      isArchived: false,
      createdOn: '2025-01-01T00:00:00.000Z',
      modifiedOn: '2025-01-01T00:00:00.000Z',
      testClockId: 'tc_3nYgAER8Fj6Si5a1zCGbPNn3',
    },
  },
  'GET /api/v1/customers/{customerId}/': {
    response: {
      id: 'bc6a8a06-82e9-43d3-8e6d-21cbd9755d83',
      customerId: 'cus_ada',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      details: {},
      metadata: {},
      billingAddress: { country: 'DE', line1: '1 Main St', line2: null, postalCode: '10115', city: 'Berlin', state: null },
      isArchived: false,
      createdOn: '2026-11-29T11:21:54.850Z',
      modifiedOn: '2026-11-29T11:21:55.228Z',
      taxIds: [{ type: 'eu_vat', value: 'DE136695976', country: 'DE', verification: { status: 'unchecked', checkedOn: null, name: null } }],
    },
  },
  'PATCH /api/v1/customers/{customerId}/': {
    request: { name: 'Ada' },
    response: {
      id: '478917f9-b9d8-4ba7-a078-b93e9d9bebff',
      customerId: 'cus_ada',
      name: 'Ada',
      email: 'ada@example.com',
      details: {},
      metadata: {},
      billingAddress: null,
      isArchived: false,
      createdOn: '2027-03-01T00:00:00.000Z',
      modifiedOn: '2027-03-01T00:00:00.000Z',
      testClockId: 'tc_3bgfIsnyGRA8p5JszYZLHBr3',
    },
  },
  'GET /api/v1/customers/{customerId}/events/': {
    response: {
      count: 12,
      next: 'https://billing.notes.example/sandbox/api/v1/customers/cus_clock/events/?page=2&page_size=10',
      previous: null,
      results: [
        {
          id: 'd85d0109-60bb-4183-9a8a-639042466f02',
          type: 'subscription.updated',
          objectType: 'subscription',
          objectId: 'bab79649-83db-444b-a001-28cd3a7172e6',
          actor: null,
          createdOn: '2026-12-29T11:11:18.607Z',
        },
      ],
    },
  },
  'GET /api/v1/customers/{customerId}/licenses/': {
    response: {
      licenses: [
        {
          id: 'fdd942b8-e994-43e0-855d-2dac75977ff8',
          licenseKey: 'LIC-1D2C1C40-AE03-4511-87C7-43EF2F623DCA',
          planName: 'Lifetime',
          enabled: true,
          expiresOn: null,
          activationLimit: 3,
          instances: [{ id: '094463de-5d9a-48a5-b178-9941da7d1b1a', name: 'Laptop', activatedOn: '2026-11-29T11:26:38.546Z', lastValidatedOn: null }],
        },
      ],
    },
  },
  // Test clocks
  'POST /api/v1/test-clocks/{id}/customers/': {
    request: { customerId: 'cus_ada' },
    response: {
      id: 'beaf3667-9489-4748-a371-e9a3294f84af',
      customerId: 'cus_ada',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      details: {},
      metadata: {},
      billingAddress: null,
      isArchived: false,
      createdOn: '2026-11-29T11:14:46.075Z',
      modifiedOn: '2026-11-29T11:14:47.394Z',
      testClockId: 'tc_6hJVKQNMBTf77AwhilzPggKT',
    },
  },
  'POST /api/v1/test-clocks/': {
    request: { name: 'Yearly report', frozenTime: '2025-01-01T00:00:00Z' },
    response: {
      id: 'tc_3nYgAER8Fj6Si5a1zCGbPNn3',
      object: 'test_clock',
      name: 'Yearly report',
      frozenTime: '2025-01-01T00:00:00.000Z',
      status: 'ready',
      advancingTo: null,
      failure: null,
      customerCount: 0,
      createdOn: '2026-11-29T11:18:53.654Z',
    },
  },
  'GET /api/v1/test-clocks/': { response: { count: 0, next: null, previous: 'https://billing.notes.example/sandbox/api/v1/test-clocks/?page=1', results: [] } },
  'GET /api/v1/test-clocks/{id}/': {
    response: {
      id: 'tc_3nYgAER8Fj6Si5a1zCGbPNn3',
      object: 'test_clock',
      name: 'Yearly report',
      frozenTime: '2025-01-01T00:00:00.000Z',
      status: 'advancing',
      advancingTo: '2025-01-05T00:00:00.000Z',
      failure: null,
      customerCount: 5,
      createdOn: '2026-11-29T11:18:53.654Z',
    },
  },
  'GET /api/v1/test-clocks/{id}/invoices/': {
    response: {
      count: 2,
      next: 'https://billing.notes.example/sandbox/api/v1/test-clocks/tc_wv62NoXy730bAx4clknmGLAM/invoices/?page_size=1&page=2',
      previous: null,
      results: [
        {
          id: 'INV-20360201000000-9OELQSAGF9',
          customerId: 'cus_ada',
          subscriptionId: '2b14dced-3caf-4163-b4fe-e80f445e6ed8',
          status: 'PAID',
          currency: 'USD',
          totalUnits: 1000,
          attemptCount: 1,
          periodStart: '2036-02-01T00:00:00.000Z',
          periodEnd: '2036-03-01T00:00:00.000Z',
          issuedOn: '2036-02-01T00:00:00.000Z',
          paidOn: '2036-02-01T00:00:00.000Z',
        },
      ],
    },
  },
  'POST /api/v1/test-clocks/{id}/advance/': {
    request: { frozenTime: '2025-01-05T00:00:00Z' },
    response: {
      id: 'tc_3nYgAER8Fj6Si5a1zCGbPNn3',
      object: 'test_clock',
      name: 'Yearly report',
      frozenTime: '2025-01-01T00:00:00.000Z',
      status: 'advancing',
      advancingTo: '2025-01-05T00:00:00.000Z',
      failure: null,
      customerCount: 5,
      createdOn: '2026-11-29T11:18:53.654Z',
    },
  },
  // License keys
  'POST /api/v1/license/activate/': {
    request: {
      licenseKey: 'LIC-03F8C734-5760-4636-B8E3-EE57AC5EDD1D',
      customerId: 'cus_ada',
      instanceName: 'Geo\'s MacBook',
      metadata: { os: 'macOS', app_version: '14.2', nested: { someKey: 1 } },
    },
    response: {
      instanceId: 'cf66b31c-cc41-47a2-ae96-247ee7f5b4ea',
      activatedAt: '2026-01-01T00:00:00.000Z',
      expiresOn: null,
      license: {
        id: '04d8ab41-bb17-4fa4-8c57-d69160ef5ad5',
        licenseKey: 'LIC-03F8C734-5760-4636-B8E3-EE57AC5EDD1D',
        activatedOn: '2026-01-01T00:00:00.000Z',
        expiresOn: null,
        activationUsage: 1,
        activationLimit: 3,
        enabled: true,
        customer: { customerId: 'cus_ada', name: 'Ada Lovelace', email: 'ada@example.com' },
        plan: {
          identifier: 'lifetime',
          name: 'Lifetime',
          description: '',
          version: 1,
          isLatest: true,
          product: {
            id: '384e9673-da87-4192-9bd9-80ed01821177',
            identifier: 'notes',
            name: 'Notes',
            taxCode: 'saas',
            createdOn: '2026-01-01T00:00:00.000Z',
            modifiedOn: '2026-01-01T00:00:00.000Z',
          },
        },
        subscription: null,
      },
    },
  },
  'POST /api/v1/license/deactivate/': {
    request: { licenseKey: 'LIC-1D2C1C40-AE03-4511-87C7-43EF2F623DCA', instanceId: 'a612a1f7-70b0-46a6-82f9-5e05ae08ad65' },
    response: { message: 'License instance deactivated successfully.', deactivatedAt: '2026-11-29T11:26:38.807Z' },
  },
  'POST /api/v1/license/validate/': {
    request: { licenseKey: 'LIC-4AEF80E1-D36A-4861-B6B5-A50128330989', instanceId: 'ad1198df-db1c-47e0-8ce6-5536db7b3d10' },
    response: {
      valid: false,
      code: 'EXPIRED',
      detail: 'This license has expired.',
      metadata: {},
      license: {
        id: '0e5d0221-5d51-4d5c-aa4f-18faf1377c93',
        licenseKey: 'LIC-4AEF80E1-D36A-4861-B6B5-A50128330989',
        activatedOn: '2026-01-30T00:00:00.000Z',
        expiresOn: '2026-01-31T00:00:00.000Z',
        activationUsage: 1,
        activationLimit: 2,
        enabled: true,
        customer: { customerId: 'cus_ada', name: 'Ada Lovelace', email: 'ada@example.com' },
        plan: {
          identifier: 'month-pass',
          name: 'Month pass',
          description: 'Month pass plan',
          version: 1,
          isLatest: true,
          product: {
            id: '384e9673-da87-4192-9bd9-80ed01821177',
            identifier: 'notes',
            name: 'Notes',
            taxCode: 'saas',
            createdOn: '2026-01-01T00:00:00.000Z',
            modifiedOn: '2026-01-01T00:00:00.000Z',
          },
        },
        subscription: null,
      },
    },
  },
  'POST /api/v1/customers/{customerId}/licenses/{licenseId}/instances/{instanceId}/deactivate/': {
    response: {
      licenseId: '9babb432-72cf-420f-88a0-4adde647e173',
      instanceId: '281f8451-a506-4171-b379-0bab0f606e08',
      deactivatedOn: '2026-11-29T11:26:39.722Z',
    },
  },
  // Entitlements
  'GET /api/v1/entitlements/changes/': {
    response:
      'retry: 2000\n\nid: 3f9a1c2e.41\ndata: {"type":"ready","resumed":false}\n\n' +
      'id: 3f9a1c2e.42\ndata: {"type":"customer","customerId":"cus_ada","entitlements":[{"featureId":"calls","featureType":"METER","hasAccess":true,' +
      '"resetAt":"2026-12-29 11:26:39","hardLimit":true,"usageLimit":1000,"currentUsage":13,"remaining":987}]}\n\n: keep-alive\n\nid: 3f9a1c2e.43\ndata: {"type":"environment"}\n\n',
  },
  'GET /api/v1/entitlements/changes/{customerId}/': {
    response:
      'retry: 2000\n\nid: 3f9a1c2e.42\ndata: {"type":"ready","resumed":false}\n\n' +
      'id: 3f9a1c2e.42\ndata: {"type":"snapshot","customerId":"cus_ada","entitlements":[{"featureId":"projects","featureType":"CUSTOMIZABLE","hasAccess":true,' +
      '"resetAt":null,"hardLimit":false,"usageLimit":10,"currentUsage":null,"remaining":null}]}\n\n',
  },
  'GET /api/v1/entitlements/': {
    response: {
      customerId: 'cus_ada',
      entitlements: [
        {
          featureId: 'projects',
          featureType: 'CUSTOMIZABLE',
          hasAccess: true,
          resetAt: null,
          hardLimit: false,
          usageLimit: 10,
          currentUsage: null,
          remaining: null,
        },
      ],
    },
  },
  // Usage
  'POST /api/v1/report/usage/': {
    request: { customerId: 'cus_ada', featureId: 'calls', value: 1500, behaviour: 'DELTA' },
    response: {
      value: 1500,
      customerId: 'cus_ada',
      featureId: 'calls',
      behaviour: 'DELTA',
      resourceId: null,
      orgId: '3218c4a6-abf2-43e4-8e24-2fd14da9c0d5',
      eventName: 'aggregated.usage',
      idempotencyKey: '01a4603bdc007258923a936de22690e3',
      timestamp: '2027-03-20 00:00:00.000000',
    },
  },
  'POST /api/v1/report/usage/batch/': {
    request: { reports: [{ customerId: 'cus_grace', featureId: 'calls', value: 5, behaviour: 'DELTA', idempotencyKey: 'b1' }] },
    response: { accepted: 4, duplicates: 0, rejected: 2, results: [{ idempotencyKey: 'b1', status: 'accepted' }] },
  },
  'POST /api/v1/report/event/': {
    request: {
      customerId: 'cus_grace',
      eventName: 'other',
      idempotencyKey: '161df3f5-7010-48e3-a1e2-2a7e938e38dd',
      timestamp: '2026-03-02 08:00:00',
      properties: { featureId: 'raw' },
    },
    response: {
      customerId: 'cus_grace',
      eventName: 'other',
      idempotencyKey: '161df3f5701048e3a1e22a7e938e38dd',
      timestamp: '2026-03-02 08:00:00.000000',
      properties: { featureId: 'raw' },
      resourceId: null,
      orgId: 'e25899da-aa98-4077-8975-6360190589a7',
    },
  },
};
