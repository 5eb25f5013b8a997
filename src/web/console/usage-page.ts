/**
 * Usage and plan (docs/console.md): this month's requests against the quota — the figure `/v1/me` reports, read
 * from the same counters — split per channel (REST, A2A, MCP, the explorer) and per day in a chart, and the plan's
 * limits and domains. The parts sum to the total: what the daily counts do not hold is shown as its own part.
 */
import type { FastifyInstance } from 'fastify';
import { monthlyPeriod } from '../../access/counters.js';
import { formatCount } from '../../lib/number-forms.js';
import { type Html, html, joined } from '../html.js';
import { page, sendHtml } from './html.js';
import { requireUser } from './signed-in.js';
import { CHANNELS, type DayCounts, noCounts, total, usageChart } from './usage-chart.js';

const UNSPLIT_NOTE =
  '; what was counted before this split began, or in the last second on another instance, is shown as not split';

export function registerUsagePage(scope: FastifyInstance): void {
  const { store, counters, dailyUsage, clock } = scope.signedInDeps;

  scope.get('/console/usage', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    const now = new Date(clock());
    const period = monthlyPeriod(now);
    await dailyUsage.flush().catch(() => {});
    const used = await counters.usage(who.account.id, period.key);
    const rows = await store.console.dailyUsage(who.account.id, period.start, period.end);
    const today = now.toISOString().slice(0, 10);
    const days: { day: string; counts: DayCounts }[] = [];
    for (
      let d = new Date(`${period.start}T00:00:00Z`);
      d.toISOString().slice(0, 10) <= today;
      d = new Date(d.getTime() + 86_400_000)
    ) {
      days.push({ day: d.toISOString().slice(0, 10), counts: noCounts() });
    }
    const byDay = new Map(days.map((d) => [d.day, d.counts]));
    const perChannel: DayCounts = noCounts();
    for (const row of rows) {
      const counts = byDay.get(row.day);
      if (counts) counts[row.channel] += row.count;
      perChannel[row.channel] += row.count;
    }
    // Charged before the daily counts began, or on another instance in the last second (not yet written).
    const unsplit = Math.max(0, used - total(perChannel));
    const { plan } = who;
    const quota = plan.requests_per_month;
    const share = quota ? Math.min(100, (used / quota) * 100) : 0;
    const limit = (n: number | null, unit: string) => (n === null ? 'unlimited' : `${formatCount(n)} ${unit}`);
    const body = html`
<div class="figures">
<div>This month <b id="used">${formatCount(used)}</b> of ${quota === null ? 'unlimited' : formatCount(quota)} requests
${
  quota
    ? html`<progress max="100" value="${share.toFixed(1)}" aria-label="share of the monthly quota used"></progress>`
    : ''
}</div>
<div>Remaining <b id="remaining">${
      quota === null ? 'unlimited' : formatCount(Math.max(0, quota - used))
    }</b> until ${period.end}</div>
${joined(
  CHANNELS.map(
    (c) => html`<div>${c.label} <b id="channel-${c.id}">${formatCount(perChannel[c.id])}</b> this month</div>`,
  ),
  '\n',
)}
${unsplit > 0 && html`<div>Not split <b id="channel-unsplit">${formatCount(unsplit)}</b> by channel</div>`}
</div>
<section>
<h2>Requests per day</h2>
<p class="legend">${CHANNELS.map((c) => html`<span><i class="${c.id}"></i>${c.label}</span>`)}</p>
${usageChart(days)}
<p class="muted">Calls of <code>me</code> are free and not counted. The month runs from ${period.start} to ${
      period.end
    } (UTC).
The total is the one <code>GET /v1/me</code> reports, and every request in it is in one part: REST (with bulk
files), A2A, MCP, or the explorer's views (each data request a picture makes)${unsplit > 0 ? UNSPLIT_NOTE : ''}.</p>
</section>
<section>
<h2>Plan: ${plan.name} <span class="pill">${plan.code}</span></h2>
<table><tbody>
<tr><th>Requests per minute</th><td id="per-minute">${limit(plan.requests_per_minute, 'a minute')}</td></tr>
<tr><th>Requests per month</th><td>${limit(quota, 'a month')}</td></tr>
<tr><th>Data domains</th><td id="domains">${
      plan.domains.length
        ? joined(
            plan.domains.map((d) => html`<span class="pill">${d}</span>`),
            ' ',
          )
        : 'none'
    }</td></tr>
<tr><th>History window of series</th><td>${
      plan.history_years === null ? 'all years' : `${plan.history_years} years`
    }</td></tr>
<tr><th>Alert window</th><td>${
      plan.alerts_history_days === null ? 'all matches' : `${plan.alerts_history_days} days`
    }</td></tr>
<tr><th>Data API (REST, A2A, MCP)</th><td>${plan.api_access ? 'included' : 'not included'}</td></tr>
</tbody></table>
</section>
<section>
<h2>Per day</h2>
<table><thead><tr><th>Day</th>${CHANNELS.map(
      (c) => html`<th class="num">${c.label}</th>`,
    )}<th class="num">Total</th></tr></thead><tbody>
${perDayRows(days)}
</tbody></table>
</section>`;
    return sendHtml(
      reply,
      page({ title: 'Usage and plan', who, csrf: await reply.generateCsrf(), section: 'usage', body }),
    );
  });
}

/** The days with requests, the latest first. */
function perDayRows(days: readonly { day: string; counts: DayCounts }[]): Html {
  const rows = days
    .filter((d) => total(d.counts) > 0)
    .reverse()
    .map(
      (d) =>
        html`<tr><td>${d.day}</td>${CHANNELS.map(
          (c) => html`<td class="num">${formatCount(d.counts[c.id])}</td>`,
        )}<td class="num">${formatCount(total(d.counts))}</td></tr>`,
    );
  if (rows.length > 0) return joined(rows, '\n');
  return html`<tr><td colspan="${CHANNELS.length + 2}" class="muted">No requests yet this month.</td></tr>`;
}
