/**
 * The MRR-movements chart (decision 0098): plain SVG drawn by React, no library and no style
 * attribute (colours come from the stylesheet's classes). New, expansion and reactivation are
 * stacked above zero, contraction and churned below, the MRR at each period's end is the line.
 * The figures are also in the table beside it, whose buttons open the same drill-downs.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { MrrMovementKind, MrrPeriod } from '@billow/contract';
import { money } from '../format';
import { KINDS, periodName, type Interval } from './analytics-words';

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

const MONTH = new Intl.DateTimeFormat(undefined, { month: 'short', timeZone: 'UTC' });
const DAY = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A label under the bars: the month or the day, with the year under it where the year starts (and first). */
function tickLines(period: MrrPeriod, interval: Interval, first: boolean): [string, string | null] {
  const at = new Date(`${period.start}T00:00:00Z`);
  const year = first || (interval === 'month' ? at.getUTCMonth() === 0 : at.getUTCMonth() === 0 && at.getUTCDate() <= (interval === 'week' ? 7 : 1));
  return [(interval === 'month' ? MONTH : DAY).format(at), year ? String(at.getUTCFullYear()) : null];
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

function scaleOf(periods: readonly MrrPeriod[]): Scale {
  const ups = periods.map((p) => p.movements.newUnits + p.movements.expansionUnits + p.movements.reactivationUnits);
  const downs = periods.map((p) => p.movements.contractionUnits + p.movements.churnedUnits);
  const step = niceStep(Math.max(1, ...ups, ...periods.map((p) => p.mrrEndUnits)) - Math.min(0, ...downs));
  const top = Math.ceil(Math.max(1, ...ups, ...periods.map((p) => p.mrrEndUnits)) / step) * step;
  const bottom = Math.floor(Math.min(0, ...downs) / step) * step;
  const ticks: number[] = [];
  for (let t = bottom; t <= top; t += step) ticks.push(t);
  return { y: (units) => TOP + ((top - units) / (top - bottom)) * (H - TOP - BOTTOM), ticks };
}

interface Segment {
  kind: MrrMovementKind;
  label: string;
  units: number;
  from: number;
  to: number;
}

/** The period's movements as stacked segments: those that raise MRR from 0 up, those that lower it from 0 down. */
function segmentsOf(period: MrrPeriod): Segment[] {
  let up = 0;
  let down = 0;
  return KINDS.flatMap(({ kind, label, units }) => {
    const value = units(period);
    if (value === 0) return [];
    const from = value > 0 ? up : down;
    if (value > 0) up += value;
    else down += value;
    return [{ kind, label, units: value, from, to: from + value }];
  });
}

export function MovementsChart({ periods, interval, currency, onPick }: { periods: MrrPeriod[]; interval: Interval; currency: string; onPick(period: MrrPeriod, kind: MrrMovementKind): void }) {
  const [box, W] = useWidth();
  const scale = scaleOf(periods);
  const band = (W - LEFT - RIGHT) / Math.max(1, periods.length);
  const every = Math.ceil(periods.length / Math.max(1, Math.floor((W - LEFT - RIGHT) / LABEL_ROOM)));
  const centre = (i: number) => LEFT + i * band + band / 2;
  const line = periods.map((p, i) => `${centre(i).toFixed(1)},${scale.y(p.mrrEndUnits).toFixed(1)}`).join(' ');
  return (
    <div className="chart-wrap" ref={box}>
    <svg className="chart" width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="mrr-chart-title">
      <title id="mrr-chart-title">{`MRR movements and MRR in ${currency}, by ${interval}; the same figures are in the table below`}</title>
      {scale.ticks.map((t) => (
        <g key={t}>
          <line className={t === 0 ? 'axis zero' : 'axis'} x1={LEFT} x2={W - RIGHT} y1={scale.y(t)} y2={scale.y(t)} />
          <text className="tick" x={LEFT - 6} y={scale.y(t) + 4} textAnchor="end">
            {money(t, currency)}
          </text>
        </g>
      ))}
      {periods.map((p, i) => (
        <g key={p.period}>
          {segmentsOf(p).map((s) => (
            <rect
              key={s.kind}
              className={`bar mv-${s.kind}`}
              x={LEFT + i * band + band * 0.2}
              width={band * 0.6}
              y={Math.min(scale.y(s.from), scale.y(s.to))}
              height={Math.max(1, Math.abs(scale.y(s.from) - scale.y(s.to)))}
              onClick={() => onPick(p, s.kind)}
            >
              <title>{`${s.label}, ${periodName(p, interval)}: ${money(s.units, currency)}`}</title>
            </rect>
          ))}
          {i % every === 0 ? <TickLabel x={centre(i)} lines={tickLines(p, interval, i === 0)} /> : null}
        </g>
      ))}
      <polyline className="mrr-line" points={line} />
      {periods.map((p, i) => (
        <circle key={p.period} className="mrr-dot" cx={centre(i)} cy={scale.y(p.mrrEndUnits)} r={3} />
      ))}
    </svg>
    </div>
  );
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
