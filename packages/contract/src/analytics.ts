import { Type, type Static, type TSchema } from 'typebox';
import { PageQuery, Paginated, Timestamp } from './common.js';

/** Billow extension (issue 30, decision 0097; docs/analytics.md): revenue analytics, kept as subscriptions change. */

const Units = (description: string) => Type.Integer({ description: `${description}, in the currency's minor unit` });
const Rate = (description: string) =>
  Type.Union([Type.Integer(), Type.Null()], { description: `${description}, in basis points of one (10000 = 100 %); null when its denominator is 0` });
const CalendarDate = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });

export const AnalyticsInterval = Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')], {
  description: 'The length of each period: a day, a week (from Monday) or a calendar month, in the seller profile\'s time zone',
});

/** Billow extension: `format=csv` (or `Accept: text/csv`) answers a list or a series as CSV, with a header row and amounts in minor units. */
export const ANALYTICS_FORMATS = ['json', 'csv'] as const;
const ExportFormat = Type.Union(
  [Type.Literal('json'), Type.Literal('csv')],
  { description: 'json (the default) or csv: comma-separated values with a header row, amounts in minor units, rates in basis points; also chosen by `Accept: text/csv`' },
);

/** The days a series or a drill-down covers, its currency and its format. */
const rangeFields = (what: string) => ({
  start: Type.Optional(CalendarDate(`The first day ${what} (YYYY-MM-DD, the seller's time zone); default: the first day of the month 11 months before \`end\`'s`)),
  end: Type.Optional(CalendarDate(`The last day ${what} (YYYY-MM-DD, inclusive); default: today`)),
  currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'Only this currency (ISO 4217); default: every currency' })),
  format: Type.Optional(ExportFormat),
});

export const AnalyticsMrrQuery = Type.Object({
  ...rangeFields('the series covers'),
  interval: Type.Optional(AnalyticsInterval),
});
export type AnalyticsMrrQuery = Static<typeof AnalyticsMrrQuery>;

export const MrrMovements = Type.Object(
  {
    newUnits: Units('MRR of customers who paid for the first time'),
    expansionUnits: Units('MRR gained from paying customers (upgrades, more seats, a discount that ended)'),
    reactivationUnits: Units('MRR of customers who had churned and came back'),
    contractionUnits: Units('MRR lost from customers who still pay (downgrades), negative'),
    churnedUnits: Units('MRR of customers who stopped paying, negative'),
  },
  { title: 'MrrMovements', description: 'They add up to mrrEndUnits - mrrStartUnits, exactly' },
);

export const MrrPeriod = Type.Object(
  {
    period: Type.String({ description: 'The period: its first day (YYYY-MM-DD), or YYYY-MM for a month' }),
    start: CalendarDate('Its first day'),
    end: CalendarDate('The day after its last day'),
    mrrStartUnits: Units('MRR when the period began'),
    mrrEndUnits: Units('MRR when the period ended (or now, for the period under way)'),
    arrEndUnits: Units('12 x the MRR at the end, from the exact amount'),
    movements: MrrMovements,
    customers: Type.Object({
      start: Type.Integer({ description: 'Paying customers (MRR above 0) when the period began' }),
      end: Type.Integer({ description: 'Paying customers when it ended' }),
      new: Type.Integer(),
      reactivated: Type.Integer(),
      churned: Type.Integer(),
    }),
    customerChurnRateBp: Rate('Customers churned / paying customers at the start'),
    revenueChurnRateBp: Rate('(Churned + contraction MRR) / MRR at the start'),
    netRevenueRetentionBp: Rate('(MRR at the start + expansion - contraction - churned) / MRR at the start'),
    arpuUnits: Type.Union([Type.Integer(), Type.Null()], { description: 'MRR at the end / paying customers at the end, in minor units; null without customers' }),
    lifetimeValueUnits: Type.Union([Type.Integer(), Type.Null()], { description: 'ARPU / customer churn rate, in minor units; null before any churn' }),
  },
  { title: 'MrrPeriod' },
);

/** A series: per currency, the figures of each period, and what the periods are. */
const seriesOf = <P extends TSchema>(period: P, title: string, currencies: string) =>
  Type.Object(
    {
      timeZone: Type.String({ description: "The seller profile's time zone the days are counted in (UTC when it sets none)" }),
      interval: AnalyticsInterval,
      start: CalendarDate('The first day of the first period'),
      end: CalendarDate('The day after the last day of the last period'),
      completeUntil: Timestamp,
      currencies: Type.Array(
        Type.Object({
          currency: Type.String({ description: 'ISO 4217 code' }),
          periods: Type.Array(period),
        }),
        { description: `One series per currency${currencies}, by currency code; amounts are never converted between currencies` },
      ),
    },
    { title },
  );

export const MrrSeries = seriesOf(MrrPeriod, 'MrrSeries', '');
export type MrrSeries = Static<typeof MrrSeries>;
export type MrrPeriod = Static<typeof MrrPeriod>;

export const MRR_MOVEMENT_KINDS = ['new', 'expansion', 'reactivation', 'contraction', 'churned'] as const;
export type MrrMovementKind = (typeof MRR_MOVEMENT_KINDS)[number];
export const MrrMovementKindSchema = Type.Union(
  [Type.Literal('new'), Type.Literal('expansion'), Type.Literal('reactivation'), Type.Literal('contraction'), Type.Literal('churned')],
  { description: 'new, expansion, reactivation (they raise MRR), contraction or churned (they lower it); docs/analytics.md defines each' },
);

export const AnalyticsMovementsQuery = Type.Object({
  ...rangeFields('whose movements are listed'),
  kind: Type.Optional(MrrMovementKindSchema),
  ...PageQuery.properties,
});
export type AnalyticsMovementsQuery = Static<typeof AnalyticsMovementsQuery>;

export const MrrMovementItem = Type.Object(
  {
    customer: Type.Object({
      customerId: Type.String({ description: "The customer's identifier" }),
      name: Type.Union([Type.String(), Type.Null()]),
      email: Type.Union([Type.String(), Type.Null()]),
    }),
    subscriptionId: Type.String({ description: 'The subscription whose change made the movement' }),
    kind: MrrMovementKindSchema,
    currency: Type.String({ description: 'ISO 4217 code' }),
    amountUnits: Units(
      'The change of the customer\'s MRR, signed (negative for contraction and churned); kept exactly in 336ths of a minor unit and rounded half up once, here: ' +
        "the rounded amounts of a period's movements may differ by a unit or so from the period's figure, which rounds their exact sum",
    ),
    customerMrrAfterUnits: Units("The customer's MRR in this currency after the movement (rounded once from the exact amount)"),
    at: Timestamp,
    day: CalendarDate("The seller's day the movement counts in (its time zone)"),
  },
  { title: 'MrrMovement' },
);
export type MrrMovementItem = Static<typeof MrrMovementItem>;

export const MrrMovementList = Paginated(MrrMovementItem, 'MrrMovementList');
export type MrrMovementList = Static<typeof MrrMovementList>;

/** Billow extension (issue 30, decision 0099): the cash and dunning figures, per currency and period. */
export const AnalyticsCashQuery = Type.Object({
  ...rangeFields('the series covers'),
  interval: Type.Optional(AnalyticsInterval),
});
export type AnalyticsCashQuery = Static<typeof AnalyticsCashQuery>;

const Tally = (description: string) =>
  Type.Object(
    {
      count: Type.Integer({ description: 'How many' }),
      amountUnits: Units('Their amount, tax included'),
    },
    { description },
  );

export const CashPeriod = Type.Object(
  {
    period: Type.String({ description: 'The period: its first day (YYYY-MM-DD), or YYYY-MM for a month' }),
    start: CalendarDate('Its first day'),
    end: CalendarDate('The day after its last day'),
    collected: Tally('Successful payments on a day of the period'),
    refunded: Tally('Successful refunds on a day of the period; the amount is what went back, positive'),
    netUnits: Units('Collected minus refunded'),
    failed: Tally("Invoices whose first payment attempt failed on a day of the period (the period's cohort of failures)"),
    recovered: Tally('Of the failed ones, those paid since (by a dunning retry or by the customer), counted in the period of their failure'),
    lost: Tally('Of the failed ones, those whose dunning ended unpaid, counted in the period of their failure'),
    recoveryRateBp: Rate('Recovered amount / failed amount, of the failures of the period'),
  },
  { title: 'CashPeriod' },
);
export type CashPeriod = Static<typeof CashPeriod>;

export const CashSeries = seriesOf(CashPeriod, 'CashSeries', ' that moved money or failed a payment in the range');
export type CashSeries = Static<typeof CashSeries>;
