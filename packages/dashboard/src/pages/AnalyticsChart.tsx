/**
 * The analytics charts (decision 0098): plain SVG drawn by React, no library and no style
 * attribute (colours come from the stylesheet's classes). Each period is a column of bars
 * stacked above zero (what adds) and below it (what takes away), with an optional line over
 * them. The MRR movements chart stacks new, expansion and reactivation above zero, contraction
 * and churned below, the MRR at each period's end as the line; the cash chart stacks what was
 * collected above and refunded below, the net as the line. The figures are also in the table
 * beside each chart, whose buttons do what a click on a bar does.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { MrrMovementKind, MrrPeriod } from '@billow/contract';
import { money } from '../format';
import { KINDS, periodName, type Interval } from './analytics-words';
import { intlLocale, t } from '../i18n/language';

const H = 280;
/** Room a label under the bars takes, in pixels: fewer labels on a narrow screen. */
const LABEL_ROOM = 46;
const LEFT = 78;
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 34;

/** A round step that cuts the span into about four. */
function niceStep(span: number): number {
  const raw = span / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw) ?? 10 * power;
}

interface Scale {
  y(units: number): number;
  ticks: number[];
}


/** A label under the bars: the month or the day, with the year under it where the year starts (and first). */
function tickLines(period: { start: string }, interval: Interval, first: boolean): [string, string | null] {
  const at = new Date(`${period.start}T00:00:00Z`);
  const year = first || (interval === 'month' ? at.getUTCMonth() === 0 : at.getUTCMonth() === 0 && at.getUTCDate() <= (interval === 'week' ? 7 : 1));
  const format = new Intl.DateTimeFormat(intlLocale(), interval === 'month' ? { month: 'short', timeZone: 'UTC' } : { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return [format.format(at), year ? String(at.getUTCFullYear()) : null];
}

/** The width the chart has, in pixels, as its box changes (a phone turned, a window resized). */
function useWidth(): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(720);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const observer = new ResizeObserver(([entry]) => entry && setWidth(Math.max(280, Math.floor(entry.contentRect.width))));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** A period of a chart: its bars (signed amounts) and the value its line goes through, if it has one. */
export interface ChartColumn {
  period: { period: string; start: string };
  bars: ReadonlyArray<{ key: string; className: string; label: string; units: number; onPick?(): void }>;
  line?: number;
}

function scaleOf(columns: readonly ChartColumn[]): Scale {
  const sum = (c: ChartColumn, sign: 1 | -1) => c.bars.reduce((total, b) => (Math.sign(b.units) === sign ? total + b.units : total), 0);
  const ups = columns.map((c) => Math.max(sum(c, 1), c.line ?? 0));
  const downs = columns.map((c) => Math.min(sum(c, -1), c.line ?? 0));
  const step = niceStep(Math.max(1, ...ups) - Math.min(0, ...downs));
  const top = Math.ceil(Math.max(1, ...ups) / step) * step;
  const bottom = Math.floor(Math.min(0, ...downs) / step) * step;
  const ticks: number[] = [];
  for (let t = bottom; t <= top; t += step) ticks.push(t);
  return { y: (units) => TOP + ((top - units) / (top - bottom)) * (H - TOP - BOTTOM), ticks };
}

/** A column's bars as stacked segments: those that add from 0 up, those that take away from 0 down. */
function segmentsOf(column: ChartColumn) {
  let up = 0;
  let down = 0;
  return column.bars.flatMap((bar) => {
    if (bar.units === 0) return [];
    const from = bar.units > 0 ? up : down;
    if (bar.units > 0) up += bar.units;
    else down += bar.units;
    return [{ ...bar, from, to: from + bar.units }];
  });
}

/** A chart of stacked bars per period with an optional line, `title` saying what it shows to a screen reader. */
export function BarChart({ id, title, columns, interval, currency, lineClass }: { id: string; title: string; columns: ChartColumn[]; interval: Interval; currency: string; lineClass: string }) {
  const [box, W] = useWidth();
  const scale = scaleOf(columns);
  const band = (W - LEFT - RIGHT) / Math.max(1, columns.length);
  const every = Math.ceil(columns.length / Math.max(1, Math.floor((W - LEFT - RIGHT) / LABEL_ROOM)));
  const centre = (i: number) => LEFT + i * band + band / 2;
  const lined = columns.flatMap((c, i) => (c.line === undefined ? [] : [{ key: c.period.period, x: centre(i), y: scale.y(c.line) }]));
  return (
    <div className="chart-wrap" ref={box}>
    <svg className="chart" width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title`}>
      <title id={`${id}-title`}>{title}</title>
      {scale.ticks.map((tick) => (
        <g key={tick}>
          <line className={tick === 0 ? 'axis zero' : 'axis'} x1={LEFT} x2={W - RIGHT} y1={scale.y(tick)} y2={scale.y(tick)} />
          <text className="tick" x={LEFT - 6} y={scale.y(tick) + 4} textAnchor="end">
            {money(tick, currency)}
          </text>
        </g>
      ))}
      {columns.map((c, i) => (
        <g key={c.period.period}>
          {segmentsOf(c).map((s) => (
            <rect
              key={s.key}
              className={`bar ${s.className}`}
              x={LEFT + i * band + band * 0.2}
              width={band * 0.6}
              y={Math.min(scale.y(s.from), scale.y(s.to))}
              height={Math.max(1, Math.abs(scale.y(s.from) - scale.y(s.to)))}
              onClick={s.onPick}
            >
              <title>{t('analytics.barTitle', { label: s.label, period: periodName(c.period, interval), amount: money(s.units, currency) })}</title>
            </rect>
          ))}
          {i % every === 0 ? <TickLabel x={centre(i)} lines={tickLines(c.period, interval, i === 0)} /> : null}
        </g>
      ))}
      {lined.length > 0 ? <polyline className={lineClass} points={lined.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ')} /> : null}
      {lined.map((p) => (
        <circle key={p.key} className={`${lineClass}-dot`} cx={p.x} cy={p.y} r={3} />
      ))}
    </svg>
    </div>
  );
}

export function MovementsChart({ periods, interval, currency, onPick }: { periods: MrrPeriod[]; interval: Interval; currency: string; onPick(period: MrrPeriod, kind: MrrMovementKind): void }) {
  const columns = periods.map((p) => ({
    period: p,
    bars: KINDS.map(({ kind, label, units }) => ({ key: kind, className: `mv-${kind}`, label, units: units(p), onPick: () => onPick(p, kind) })),
    line: p.mrrEndUnits,
  }));
  const title = t('analytics.chartTitle', { currency, interval });
  return <BarChart id="mrr-chart" title={title} columns={columns} interval={interval} currency={currency} lineClass="mrr-line" />;
}

function TickLabel({ x, lines }: { x: number; lines: [string, string | null] }) {
  return (
    <text className="tick" x={x} y={H - BOTTOM + 14} textAnchor="middle">
      {lines[0]}
      {lines[1] ? (
        <tspan x={x} dy={13}>
          {lines[1]}
        </tspan>
      ) : null}
    </text>
  );
}
