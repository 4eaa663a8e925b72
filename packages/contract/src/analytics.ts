import { Type, type Static, type TProperties, type TSchema } from 'typebox';
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

const CurrencyCode = (description: string) => Type.String({ pattern: '^[A-Z]{3}$', description });

/** One plan's or one product's book instead of the whole business's (decisions 0106, 0107), in the words of what a series counts. */
export const segmentFieldsOf = (words: { plan: string; product: string }) => ({
  plan: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: `Only this plan (its identifier, every version): ${words.plan}; not with product` })),
  product: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: `Only this product (its identifier): ${words.product}; not with plan` })),
});

const segmentFields = segmentFieldsOf({
  plan: "each customer's MRR on the plan, so a move to another plan is churn here",
  product: "each customer's MRR on the product's plans",
});

const reportingField = {
  reporting_currency: Type.Optional(
    CurrencyCode(
      'Also give the figures converted into this currency (ISO 4217), under `reporting`, with the rate of each currency and where it came from (decision 0102); default: no conversion',
    ),
  ),
};

export const AnalyticsMrrQuery = Type.Object({
  ...rangeFields('the series covers'),
  ...segmentFields,
  interval: Type.Optional(AnalyticsInterval),
  ...reportingField,
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

/** Billow extension (decision 0102): how one currency's amounts become amounts of the reporting currency. */
export const CONVERSION_SOURCES = ['reporting', 'seller', 'plans', 'none'] as const;
export type ConversionSource = (typeof CONVERSION_SOURCES)[number];
export const CurrencyConversion = Type.Object(
  {
    currency: CurrencyCode('The currency converted from'),
    rate: Type.Union([Type.String({ pattern: '^\\d+(\\.\\d+)?$' }), Type.Null()], {
      description: 'What one unit of it is worth in the reporting currency, as an exact decimal (e.g. "1.08"); null when it is not converted',
    }),
    source: Type.Union([Type.Literal('reporting'), Type.Literal('seller'), Type.Literal('plans'), Type.Literal('none')], {
      description:
        'reporting: it is the reporting currency (rate 1); seller: a rate the seller set (setOn, setBy); plans: derived from the plans priced in both ' +
        'currencies for the same period (the median of their ratios, to six significant digits; `plans` says how many); none: no rate, so it is left out of ' +
        'the converted figures, never mixed in',
    }),
    setOn: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the seller set the rate' }),
    setBy: Type.Union([Type.String(), Type.Null()], { description: "Who set it: the person's email, or the key's prefix" }),
    plans: Type.Union([Type.Integer(), Type.Null()], { description: 'How many plans the derived rate comes from' }),
  },
  { title: 'CurrencyConversion' },
);
export type CurrencyConversion = Static<typeof CurrencyConversion>;

export const ReportingConversion = Type.Object(
  {
    currency: CurrencyCode('The reporting currency'),
    rates: Type.Array(CurrencyConversion, { description: 'One per currency of the figures, by currency code' }),
    notConverted: Type.Array(Type.String(), { description: 'The currencies without a rate: their amounts are not in the converted figures' }),
    statement: Type.String({ description: 'The conversion in a sentence, e.g. "EUR at 1.08 USD, set by ana@example.com on 2026-11-01"' }),
  },
  { title: 'ReportingConversion' },
);
export type ReportingConversion = Static<typeof ReportingConversion>;

/** A series: per currency, the figures of each period, and what the periods are. */
const seriesOf = <P extends TSchema, E extends TProperties = Record<never, never>>(period: P, title: string, currencies: string, extra: E = {} as E) =>
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
      ...extra,
    },
    { title },
  );

/** With `reporting_currency`: a series' periods converted into it, and the conversion that states how (decision 0102). */
const reportingOf = <P extends TSchema>(period: P, counted: string) => ({
  reporting: Type.Optional(
    Type.Object(
      {
        conversion: ReportingConversion,
        periods: Type.Array(period, {
          description: `The periods in the reporting currency: each amount converts every converted currency's exact amount at its rate, sums them and rounds once; ${counted}`,
        }),
      },
      { description: 'With `reporting_currency`: the figures converted into it, and how' },
    ),
  ),
});

export const MrrSeries = seriesOf(MrrPeriod, 'MrrSeries', '', reportingOf(MrrPeriod, 'customers are counted per currency (one who pays in two currencies counts twice)'));
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
  ...segmentFields,
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

/** Billow extension (decision 0102): the reporting currency and the exchange rates the seller sets into it. */
export const ExchangeRateSet = Type.Object(
  {
    currency: CurrencyCode('The currency converted from'),
    rate: Type.String({ description: 'What one unit of it is worth in the reporting currency, an exact decimal such as "1.08"' }),
    setOn: Type.String({ format: 'date-time' }),
    setBy: Type.String({ description: "Who set it: the person's email, or the key's prefix" }),
  },
  { title: 'ExchangeRate' },
);

export const AnalyticsSettings = Type.Object(
  {
    reportingCurrency: Type.Union([CurrencyCode('The currency figures are converted into'), Type.Null()], { description: 'null until the seller chooses one' }),
    rates: Type.Array(ExchangeRateSet, { description: 'The rates the seller set into the reporting currency, by currency code' }),
    conversion: Type.Union([ReportingConversion, Type.Null()], {
      description: 'How each currency the environment sells in or earns in is converted today: the rates set, or derived from the plans, or none',
    }),
    updatedOn: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'AnalyticsSettings' },
);
export type AnalyticsSettings = Static<typeof AnalyticsSettings>;

export const AnalyticsSettingsUpdate = Type.Object(
  {
    reportingCurrency: Type.Union([Type.String({ maxLength: 3 }), Type.Null()], { description: 'An ISO 4217 code, or null for none (then `rates` must be empty or left out)' }),
    rates: Type.Optional(Type.Array(
      Type.Object({
        currency: Type.String({ maxLength: 3, description: 'An ISO 4217 code, other than the reporting currency' }),
        rate: Type.String({
          maxLength: 25,
          description: 'What one unit of it is worth in the reporting currency: a positive decimal, at most 12 digits before the point and 12 after, as a string',
        }),
      }),
      { maxItems: 200, description: 'Replaces the rates set into the reporting currency (left out: they are kept); a rate left unchanged keeps its date and who set it' },
    )),
  },
  { title: 'AnalyticsSettingsUpdate' },
);
export type AnalyticsSettingsUpdate = Static<typeof AnalyticsSettingsUpdate>;

/** Billow extension (issue 30, decision 0099): the cash and dunning figures, per currency and period. */
export const AnalyticsCashQuery = Type.Object({
  ...rangeFields('the series covers'),
  ...segmentFieldsOf({
    plan: "the payments, refunds and failed invoices of the plan's orders (its renewals, its plan changes, its one-time purchases)",
    product: "those of the orders of the product's plans",
  }),
  interval: Type.Optional(AnalyticsInterval),
  ...reportingField,
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

export const CashSeries = seriesOf(
  CashPeriod,
  'CashSeries',
  ' that moved money or failed a payment in the range',
  reportingOf(CashPeriod, 'the counts add up the payments of the converted currencies'),
);
export type CashSeries = Static<typeof CashSeries>;
