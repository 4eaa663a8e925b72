/** The figure cards of the Analytics page: a figure this month beside last month's, some with a line of their months. */

export interface Card<P> {
  label: string;
  figure(p: P, currency: string): string;
  /** The number its sparkline draws over the months, when it has one. */
  trend?(p: P): number;
}

/** A small line of the months' values, drawn for the eye only: the tables hold the figures. */
function Sparkline({ values }: { values: number[] }) {
  if (values.length < 2) return null;
  const [low, high] = [Math.min(...values), Math.max(...values)];
  const points = values.map((v, i) => `${((i / (values.length - 1)) * 100).toFixed(1)},${(22 - ((v - low) / (high - low || 1)) * 20).toFixed(1)}`).join(' ');
  return (
    <svg className="spark" viewBox="0 0 100 24" preserveAspectRatio="none" aria-hidden="true" focusable="false">
      <polyline points={points} />
    </svg>
  );
}

/** The cards of the last two of `periods` (months, the last one under way). */
export function Cards<P>({ cards, periods, currency }: { cards: ReadonlyArray<Card<P>>; periods: P[]; currency: string }) {
  const [last, now] = [periods.at(-2), periods.at(-1)];
  if (!now) return null;
  return (
    <dl className="tiles">
      {cards.map(({ label, figure, trend }) => (
        <div key={label}>
          <dt>{label}, this month</dt>
          <dd>
            <span className="figure">{figure(now, currency)}</span>
            <span className="muted">Last month: {last ? figure(last, currency) : 'Not enough data yet'}</span>
            {trend ? <Sparkline values={periods.map(trend)} /> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
