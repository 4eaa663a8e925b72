import { Type, type Static } from 'typebox';
import { Timestamp } from './common.js';

/** Billow extension (decision 0080): the figures of the dashboard's Home page, for one environment. */

const Units = (description: string) => Type.Integer({ description: `${description}, in the currency's minor unit` });
const Currency = Type.String({ description: 'ISO 4217 code, e.g. USD' });

export const RevenueAmounts = Type.Object(
  {
    currency: Currency,
    paidUnits: Units('Money taken in the window: successful charges, tax included'),
    refundedUnits: Units('Money given back in the window: successful refunds'),
    netUnits: Units('paidUnits - refundedUnits'),
  },
  { title: 'RevenueAmounts' },
);

export const RevenueWindow = Type.Object(
  {
    start: Timestamp,
    end: Timestamp,
    currencies: Type.Array(RevenueAmounts, { description: 'One entry per currency that moved in the window, by currency code' }),
  },
  { title: 'RevenueWindow' },
);

export const MrrAmount = Type.Object(
  {
    currency: Currency,
    amountUnits: Units("The recurring revenue of a month: each active paid subscription's recurring amount, after its recurring discount and before tax, normalised to a month"),
    subscriptions: Type.Integer({ description: 'The subscriptions counted in it' }),
  },
  { title: 'MrrAmount' },
);

export const FailedPayment = Type.Object(
  {
    invoiceId: Type.String(),
    invoiceNumber: Type.Union([Type.String(), Type.Null()]),
    subscriptionId: Type.Union([Type.String(), Type.Null()]),
    customerId: Type.String({ description: "The customer's customerId" }),
    customerEmail: Type.Union([Type.String(), Type.Null()]),
    currency: Currency,
    amountUnits: Units('What the invoice asks for, tax included'),
    attemptCount: Type.Integer(),
    failureCode: Type.Union([Type.String(), Type.Null()]),
    failureMessage: Type.Union([Type.String(), Type.Null()]),
    nextPaymentAttempt: Type.Union([Timestamp, Type.Null()], { description: 'When dunning tries again; null: no attempt is planned' }),
    failedOn: Timestamp,
  },
  { title: 'FailedPayment' },
);

export const OverviewEvent = Type.Object(
  {
    id: Type.String({ description: 'The event id, also the webhook-id of its deliveries' }),
    type: Type.String({ description: 'e.g. customer.created, order.completed' }),
    objectType: Type.Union([Type.String(), Type.Null()], { description: "The kind of the event's object (customer, order, ...)" }),
    objectId: Type.Union([Type.String(), Type.Null()]),
    actor: Type.Union([Type.String(), Type.Null()], { description: 'Who caused it: null for the API and background work' }),
    customer: Type.Union(
      [
        Type.Object({
          customerId: Type.String(),
          name: Type.Union([Type.String(), Type.Null()]),
          email: Type.Union([Type.String(), Type.Null()]),
        }),
        Type.Null(),
      ],
      { description: 'Ours: the customer the event is about (archived ones too); null for an event about no customer (a product, a plan)' },
    ),
    createdOn: Timestamp,
  },
  { title: 'OverviewEvent' },
);

export const Overview = Type.Object(
  {
    timeZone: Type.String({ description: "The seller profile's time zone the day and the month are counted in (UTC when it sets none)" }),
    revenue: Type.Object({
      today: RevenueWindow,
      month: RevenueWindow,
    }),
    mrr: Type.Array(MrrAmount, { description: 'One entry per currency, by currency code' }),
    activeSubscriptions: Type.Integer({ description: 'Subscriptions active or past_due (one per subscription: superseded records are not counted)' }),
    trials: Type.Integer({ description: 'Subscriptions trialing' }),
    failedPayments: Type.Object({
      count: Type.Integer({ description: 'Invoices whose payment failed and that are still unpaid' }),
      newest: Type.Array(FailedPayment, { description: 'The 5 whose last attempt failed most recently' }),
    }),
    events: Type.Array(OverviewEvent, { description: 'The 10 newest events of the environment, newest first' }),
  },
  { title: 'Overview' },
);
export type Overview = Static<typeof Overview>;
export type OverviewEvent = Static<typeof OverviewEvent>;
export type FailedPayment = Static<typeof FailedPayment>;
