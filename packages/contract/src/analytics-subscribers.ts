import { Type, type Static } from 'typebox';
import { AnalyticsMrrQuery, MrrPeriod, MrrSeries, segmentFieldsOf } from './analytics.js';

/** Billow extension (issue 30, decision 0101; docs/analytics.md): active subscriptions, trials and trial-to-paid conversion, kept as subscriptions change. */

const Count = (description: string) => Type.Integer({ minimum: 0, description });
/** A period and a series are dated and framed as the MRR series' are. */
const { period, start: periodStart, end: periodEnd } = MrrPeriod.properties;
const { timeZone, interval: seriesInterval, start: seriesStart, end: seriesEnd, completeUntil } = MrrSeries.properties;

/** The range, interval, currency and format of the MRR series (only those: what the MRR series adds for amounts is not for counts), and a plan or a product. */
const { start, end, currency, format, interval } = AnalyticsMrrQuery.properties;
export const AnalyticsSubscribersQuery = Type.Object({
  start,
  end,
  currency,
  format,
  interval,
  ...segmentFieldsOf({
    plan: "the plan's subscriptions and trials, so a plan change moves a subscription (or its trial) from one plan's count to the other's",
    product: "those of the product's plans",
  }),
});
export type AnalyticsSubscribersQuery = Static<typeof AnalyticsSubscribersQuery>;

export const SubscriberPeriod = Type.Object(
  {
    period,
    start: periodStart,
    end: periodEnd,
    activeSubscriptionsStart: Count('Subscriptions whose MRR was above 0 when the period began'),
    activeSubscriptionsEnd: Count('Subscriptions whose MRR was above 0 when it ended (or now, for the period under way)'),
    trialsStart: Count('Subscriptions in their trial when the period began'),
    trialsEnd: Count('Subscriptions in their trial when it ended'),
    trialsStarted: Count('Trials that began in the period'),
    trialsEnded: Count('Trials that ended in the period: converted, cancelled, or ended without a way to pay'),
    trialsConverted: Count('Trials whose first paid period began in the period (the subscription went on active, or past due while its first invoice is retried)'),
    trialConversionRateBp: Type.Union([Type.Integer(), Type.Null()], {
      description: 'trialsConverted / trialsEnded, in basis points of one (10000 = 100 %); null when no trial ended in the period',
    }),
  },
  { title: 'SubscriberPeriod' },
);
export type SubscriberPeriod = Static<typeof SubscriberPeriod>;

export const SubscriberSeries = Type.Object(
  {
    timeZone,
    interval: seriesInterval,
    start: seriesStart,
    end: seriesEnd,
    completeUntil,
    currencies: Type.Array(
      Type.Object({
        currency: Type.String({ description: 'ISO 4217 code: the currency of the subscriptions counted' }),
        periods: Type.Array(SubscriberPeriod),
      }),
      { description: 'One series per currency the subscriptions are billed in, by currency code' },
    ),
    allCurrencies: Type.Array(SubscriberPeriod, {
      description: 'The same periods with every currency (of `currencies`) counted together; the rate is worked out again from the summed counts',
    }),
  },
  { title: 'SubscriberSeries' },
);
export type SubscriberSeries = Static<typeof SubscriberSeries>;
