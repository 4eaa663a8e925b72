import { Type, type Static } from 'typebox';
import { PageQuery, Paginated, Timestamp } from './common.js';

/** A sandbox clock that customers attached to it live by (ours, modelled on Stripe's test clocks). */
export const TestClock = Type.Object(
  {
    id: Type.String({ description: 'tc_…' }),
    object: Type.Literal('test_clock'),
    name: Type.Union([Type.String(), Type.Null()]),
    frozenTime: Timestamp,
    status: Type.Union([Type.Literal('ready'), Type.Literal('advancing'), Type.Literal('internal_failure')], {
      description: '`advancing` while an advance runs the due renewals, trial ends, dunning attempts and cancellations in time order; then `ready`',
    }),
    advancingTo: Type.Union([Timestamp, Type.Null()], { description: 'Where the running advance is heading' }),
    failure: Type.Union([Type.String(), Type.Null()]),
    customerCount: Type.Integer(),
    createdOn: Timestamp,
  },
  { title: 'TestClock' },
);
export type TestClock = Static<typeof TestClock>;

export const TestClockCreate = Type.Object(
  {
    name: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
    frozenTime: Type.Optional(
      Type.String({ format: 'date-time', description: 'Where the clock starts; the current time by default' }),
    ),
  },
  { additionalProperties: false, title: 'TestClockCreate' },
);
export type TestClockCreate = Static<typeof TestClockCreate>;

export const TestClockAdvance = Type.Object(
  {
    frozenTime: Type.String({ format: 'date-time', description: 'Later than the clock, at most two years ahead of it' }),
  },
  { additionalProperties: false, title: 'TestClockAdvance' },
);
export type TestClockAdvance = Static<typeof TestClockAdvance>;

export const TestClockPath = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const TestClockListQuery = Type.Object({ ...PageQuery.properties });
export const TestClockList = Paginated(TestClock, 'TestClockList');

/** Billow extension (decision 0087): an existing customer moves onto a clock. */
export const TestClockAttach = Type.Object(
  { customerId: Type.String({ minLength: 1, maxLength: 255, description: 'The customer to attach: one of the sandbox, in real time until now, with no subscription' }) },
  { additionalProperties: false, title: 'TestClockAttach' },
);
export type TestClockAttach = Static<typeof TestClockAttach>;

/** Billow extension (decision 0087): an invoice of a customer on the clock, what an advance billed. */
export const TestClockInvoice = Type.Object(
  {
    id: Type.String(),
    customerId: Type.String({ description: 'The customer it bills (its customerId)' }),
    subscriptionId: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union([Type.Literal('OPEN'), Type.Literal('PAID'), Type.Literal('PAYMENT_FAILED')]),
    currency: Type.String(),
    totalUnits: Type.Integer({ description: 'In minor units of the currency' }),
    attemptCount: Type.Integer(),
    periodStart: Type.Union([Timestamp, Type.Null()]),
    periodEnd: Type.Union([Timestamp, Type.Null()]),
    issuedOn: Timestamp,
    paidOn: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'TestClockInvoice' },
);
export type TestClockInvoice = Static<typeof TestClockInvoice>;
export const TestClockInvoiceList = Paginated(TestClockInvoice, 'TestClockInvoiceList');
