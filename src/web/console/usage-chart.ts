/**
 * The usage chart: one stacked bar per day of the month, a colour per channel (REST, A2A, MCP, the explorer),
 * drawn as SVG on the server (no script, no chart library to serve). Each bar has a <title> for its figures.
 */

import { formatCount } from '../../lib/number-forms.js';
import { USAGE_CHANNELS, type UsageChannel } from '../../store/console/console-records.js';
import { type Html, html } from '../html.js';

/** A label for every channel a charge is counted under: a channel added there without one does not compile. */
const LABELS: Record<UsageChannel, string> = { rest: 'REST', a2a: 'A2A', mcp: 'MCP', explorer: 'Explorer' };

export const CHANNELS: readonly { id: UsageChannel; label: string }[] = USAGE_CHANNELS.map((id) => ({
  id,
  label: LABELS[id],
}));

export type DayCounts = Record<UsageChannel, number>;

export function noCounts(): DayCounts {
  return Object.fromEntries(USAGE_CHANNELS.map((id) => [id, 0])) as DayCounts;
}

export function usageChart(days: readonly { day: string; counts: DayCounts }[]): Html {
  const width = 760;
  const height = 220;
  const bottom = 24;
  // Room above the top line for its figure at the phone's label size (22 user units, console.css).
  const top = 26;
  const plotHeight = height - bottom - top;
  const max = Math.max(1, ...days.map((d) => total(d.counts)));
  const scale = niceCeiling(max);
  // Room left of the plot for the widest figure at the phone's label size (a digit is under 15 units there): a
  // fixed 44 units cut `500` and more at the picture's edge.
  const left = Math.max(44, Math.ceil(formatCount(scale).length * 15) + 10);
  const slot = (width - left - 6) / Math.max(1, days.length);
  const bar = Math.max(2, slot * 0.7);
  const grid = [0, 0.5, 1].map((f) => {
    const y = top + plotHeight - f * plotHeight;
    // A half of 1 is no count of requests: that line goes without a figure.
    const figure =
      Number.isInteger(scale * f) &&
      html`<text x="${left - 6}" y="${y + 4}" text-anchor="end">${formatCount(scale * f)}</text>`;
    return html`<line x1="${left}" x2="${width}" y1="${y}" y2="${y}" stroke="#d9dee6"/>${figure}`;
  });
  const bars = days.map((d, i) => {
    const x = left + i * slot + (slot - bar) / 2;
    let y = top + plotHeight;
    const parts = CHANNELS.map((c) => {
      const h = (d.counts[c.id] / scale) * plotHeight;
      y -= h;
      const size = html`width="${bar.toFixed(1)}" height="${h.toFixed(1)}"`;
      return h > 0 && html`<rect class="${c.id}" x="${x.toFixed(1)}" y="${y.toFixed(1)}" ${size}/>`;
    });
    const label = `${d.day}: ${CHANNELS.map((c) => `${c.label} ${formatCount(d.counts[c.id])}`).join(', ')}`;
    const dayOfMonth = Number(d.day.slice(8));
    const dayLabel =
      (i % 5 === 0 || i === days.length - 1) &&
      html`<text x="${(x + bar / 2).toFixed(1)}" y="${height - 6}" text-anchor="middle">${dayOfMonth}</text>`;
    return html`<g><title>${label}</title>${parts}</g>${dayLabel}`;
  });
  const viewBox = `0 0 ${width} ${height}`;
  const chartLabel = 'Requests per day and channel this month';
  return html`<svg class="chart" viewBox="${viewBox}" role="img" aria-label="${chartLabel}">${grid}${bars}</svg>`;
}

export function total(counts: DayCounts): number {
  return USAGE_CHANNELS.reduce((sum, id) => sum + counts[id], 0);
}

/** 1, 2 or 5 times a power of ten, at least `n`: round figures on the axis. */
function niceCeiling(n: number): number {
  const power = 10 ** Math.floor(Math.log10(n));
  for (const f of [1, 2, 5, 10]) if (f * power >= n) return f * power;
  return 10 * power;
}
