import type { Measurement } from './load.js';

export const TARGETS = { getShareOfPgCeiling: 0.6, getP99Ms: 25 } as const;

export interface Results {
  get: Measurement;
  post: Measurement;
  jsonCeiling: Measurement;
  pgCeiling: Measurement;
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  return align === 'left' ? text.padEnd(width) : text.padStart(width);
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => pad(cell, widths[i] ?? 0, i === 0 ? 'left' : 'right')).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function measurementRow(m: Measurement): string[] {
  return [
    m.label,
    Math.round(m.requestsPerSecond).toLocaleString('en-US'),
    String(m.p50Ms),
    String(m.p975Ms),
    String(m.p99Ms),
    String(m.errors),
    m.serverCpuUsPerRequest === null ? '-' : Math.round(m.serverCpuUsPerRequest).toString(),
  ];
}

const ratio = (a: Measurement, b: Measurement) => a.requestsPerSecond / b.requestsPerSecond;

function cpuRatio(a: Measurement, b: Measurement): string {
  if (a.serverCpuUsPerRequest === null || b.serverCpuUsPerRequest === null) return '-';
  return `${(a.serverCpuUsPerRequest / b.serverCpuUsPerRequest).toFixed(2)}x`;
}
const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

export interface Verdicts {
  getShare: number;
  getShareMet: boolean;
  getP99Met: boolean;
}

export function verdicts(results: Results): Verdicts {
  const getShare = ratio(results.get, results.pgCeiling);
  return {
    getShare,
    getShareMet: getShare >= TARGETS.getShareOfPgCeiling,
    getP99Met: results.get.p99Ms < TARGETS.getP99Ms,
  };
}

/** The table of figures, the ratios, and the targets with met or MISSED. */
export function formatReport(results: Results): string {
  const { get, post, jsonCeiling, pgCeiling } = results;
  const v = verdicts(results);
  const figures = table(
    ['scenario', 'req/s', 'p50 ms', 'p97.5 ms', 'p99 ms', 'errors', 'server CPU µs/req'],
    [get, post, jsonCeiling, pgCeiling].map(measurementRow),
  );
  const ratios = table(
    ['ratio', 'value'],
    [
      ['req/s, GET (1) / Fastify + pg (4)', ratio(get, pgCeiling).toFixed(2)],
      ['req/s, GET (1) / Fastify JSON (3)', ratio(get, jsonCeiling).toFixed(2)],
      ['req/s, POST (2) / Fastify + pg (4)', ratio(post, pgCeiling).toFixed(2)],
      ['server CPU per request, GET (1) / (4)', cpuRatio(get, pgCeiling)],
    ],
  );
  const targets = [
    `GET at least ${TARGETS.getShareOfPgCeiling * 100}% of (4)'s requests per second: ` +
      `${(v.getShare * 100).toFixed(0)}% -> ${verdict(v.getShareMet)}`,
    `GET p99 under ${TARGETS.getP99Ms} ms: ${get.p99Ms} ms -> ${verdict(v.getP99Met)}`,
  ];
  return ['', figures, '', ratios, '', 'Targets', ...targets.map((t) => `  ${t}`), ''].join('\n');
}
