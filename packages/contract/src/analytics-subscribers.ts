import { Type, type Static } from 'typebox';
import { Timestamp } from './common.js';
import { AnalyticsInterval, AnalyticsMrrQuery } from './analytics.js';

/** Billow extension (issue 30, decision 0101; docs/analytics.md): active subscriptions, trials and trial-to-paid conversion, kept as subscriptions change. */

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const CalendarDate = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });

/** The range, interval, currency and format of the MRR series (only those: what the MRR series adds for amounts is not for counts). */
const { start, end, currency, format, interval } = AnalyticsMrrQuery.properties;
export const AnalyticsSubscribersQuery = Type.Object({ start, end, currency, format, interval });
export type AnalyticsSubscribersQuery = Static<typeof AnalyticsSubscribersQuery>;

export const SubscriberPeriod = Type.Object(
  {
    period: Type.String({ description: 'The period: its first day (YYYY-MM-DD), or YYYY-MM for a month' }),
    start: CalendarDate('Its first day'),
    end: CalendarDate('The day after its last day'),
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
    timeZone: Type.String({ description: "The seller profile's time zone the days are counted in (UTC when it sets none)" }),
    interval: AnalyticsInterval,
    start: CalendarDate('The first day of the first period'),
    end: CalendarDate('The day after the last day of the last period'),
    completeUntil: Timestamp,
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
