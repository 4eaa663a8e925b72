/** The figure cards of the Analytics page: a figure this month beside last month's, some with a line of their months. */
import { t, type MessageKey } from '../i18n/language';
import { Sparkline } from './Sparkline';

export interface Card<P> {
  label: MessageKey;
  figure(p: P, currency: string): string;
  /** The number its sparkline draws over the months, when it has one. */
  trend?(p: P): number;
  /** A line under the figure that says what it is made of. */
  detail?(p: P): string;
}

/** The cards of the last two of `periods` (months, the last one under way). */
export function Cards<P>({ cards, periods, currency, name }: { cards: ReadonlyArray<Card<P>>; periods: P[]; currency: string; name?: string }) {
  const [last, now] = [periods.at(-2), periods.at(-1)];
  if (!now) return null;
  return (
    <dl className="tiles" aria-label={name}>
      {cards.map(({ label, figure, trend, detail }) => (
        <div key={label}>
          <dt>{t('analytics.thisMonth', { label: t(label) })}</dt>
          <dd>
            <span className="figure">{figure(now, currency)}</span>
            {detail ? <span className="muted">{detail(now)}</span> : null}
            <span className="muted">{t('analytics.lastMonth', { figure: last ? figure(last, currency) : t('analytics.notEnough') })}</span>
            {trend ? <Sparkline values={periods.map(trend)} /> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
