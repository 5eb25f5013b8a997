/**
 * Alerts (docs/console.md): the account's own rules and its predefined subscriptions, each with a switch (enable,
 * disable) and deletion after a confirmation; a subscription is turned on for a place. Owners and admins change
 * them, members read. The same functions as `munidata alerts` (src/admin/alert-rules.ts, alert-rule-edit.ts).
 * The rule form is alert-rule-page.ts, the matches alert-matches-page.ts.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ruleChoices, ruleKeyNames } from '../../admin/alert-choices.js';
import { issueRuleFeed, revokeRuleFeed } from '../../admin/alert-feeds.js';
import { deleteRule } from '../../admin/alert-rule-edit.js';
import {
  AlreadySubscribed,
  listAccountRules,
  listTemplates,
  setRuleEnabled,
  subscribeToTemplate,
} from '../../admin/alert-rules.js';
import { AdminError } from '../../lib/admin-error.js';
import { formatNumber } from '../../lib/number-forms.js';
import { windowStart } from '../../operations/alerts/alert-matches.js';
import type { AlertRuleRecord, AlertTemplateRecord } from '../../store/signal-records.js';
import type { Store } from '../../store/store.js';
import type { Html } from '../html.js';
import { html, joined } from '../html.js';
import { FORM, placeFields, placeOptions, sourcesInWords, typeInWords } from './alert-rule-fields.js';
import { doneOf, redirectDone } from './done.js';
import { formOf, queryOf } from './form-fields.js';
import { firstSend, onceField } from './form-once.js';
import { confirmUnlessGone, type GoneAnswer, redirectGone } from './gone.js';
import { ACTIONS_HEADING, confirmPage, csrfField, date, message, page, sendHtml } from './html.js';
import { whenItRuns } from './next-run.js';
import { ConsoleRefusal, notFound, refusedForm } from './refusal.js';
import { ACCOUNT_EDITORS, canEdit, requireRole, requireUser, type SignedIn } from './signed-in.js';

/** Who may change alerts; everyone else of the account reads them. */
export const ALERT_EDITORS = ACCOUNT_EDITORS;

/** The signed-in user, on a plan that includes alerts (the section is not shown to others). */
export async function alertsUser(
  request: Parameters<typeof requireUser>[0],
  reply: FastifyReply,
): Promise<SignedIn | undefined> {
  const who = await requireUser(request, reply);
  if (who && !who.plan.domains.includes('alerts')) {
    throw new ConsoleRefusal(403, 'Your plan does not include alerts.');
  }
  return who;
}

export const canEditAlerts = canEdit;

/** What deleting a rule that is gone already answers (gone.ts): the list, saying so. */
const RULE_GONE: GoneAnswer = { list: '/console/alerts', done: 'deleted-already' };

/** A rule of the signed-in user's account: another account's id is as unknown as a missing one. */
export async function ownRule(store: Store, who: SignedIn, id: string): Promise<AlertRuleRecord> {
  const rule = await findOwnRule(store, who, id);
  if (!rule) throw notFound('alert rule');
  return rule;
}

/** The rule of the account whose id is `id`, or undefined: missing, or another account's (which reads the same). */
async function findOwnRule(store: Store, who: SignedIn, id: string): Promise<AlertRuleRecord | undefined> {
  const rule = /^\d{1,9}$/.test(id) ? await store.getAlertRule(Number(id)) : undefined;
  return rule?.account_id === who.account.id ? rule : undefined;
}

export function registerAlertsPage(scope: FastifyInstance): void {
  const { store, clock, baseUrl, pipelineIntervalS } = scope.signedInDeps;
  const matched = whenItRuns('match', pipelineIntervalS);

  scope.get('/console/alerts', async (request, reply) => {
    const who = await alertsUser(request, reply);
    if (!who) return reply;
    const done = doneOf(request);
    const rule =
      done && (await listAccountRules(store, who.account.id)).find((r) => String(r.id) === done.value('rule'));
    return send(reply, who, await reply.generateCsrf(), { notice: done && doneNotice(done.what, rule, done) });
  });

  /** What the page says after a change redirected to it (done.ts); the rule is the account's, when it still is. */
  function doneNotice(
    what: string,
    rule: AlertRuleRecord | undefined,
    done: { value: (name: string) => string },
  ): string | undefined {
    switch (what) {
      case 'feed-resent':
        return (
          'That form had been sent already, so no new feed URL was made: the URL shown before still works. A feed ' +
          'URL is shown only once: if you did not copy it, press Feed URL again for a new one (the old one stops).'
        );
      case 'subscribe-resent':
        return 'That form had been sent already, so no second subscription was made: it is in the list below.';
      case 'deleted':
        return `Deleted “${done.value('name')}” and its matches.`;
      case 'deleted-already':
        return 'The rule was already deleted.';
    }
    if (!rule) return undefined;
    switch (what) {
      case 'saved':
        return `Saved the rule “${rule.name}”.`;
      case 'enabled':
        return `“${rule.name}” is on: it is matched ${matched}, catching up on what it missed.`;
      case 'disabled':
        return `“${rule.name}” is off: it matches nothing until turned on again.`;
      case 'feed-stopped':
        return `The feed of “${rule.name}” is stopped.`;
      case 'no-feed':
        return `“${rule.name}” had no feed.`;
      case 'subscribed':
        return `Subscribed: “${rule.name}”.`;
      case 'subscribed-already':
        return `You have “${rule.name}” already, so nothing new was made${
          rule.enabled ? '' : ': it is off; Turn on in the list below starts it'
        }.`;
      default:
        return undefined;
    }
  }

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    scope.post(`/console/alerts/:id/${action}`, async (request, reply) => {
      const who = await alertsUser(request, reply);
      if (!who) return reply;
      requireRole(who, ...ALERT_EDITORS);
      const rule = await ownRule(store, who, (request.params as { id: string }).id);
      await setRuleEnabled(store, rule.id, enabled);
      return redirectDone(reply, '/console/alerts', enabled ? 'enabled' : 'disabled', { rule: rule.id });
    });
  }

  // A rule's Atom feed (docs/alerts.md, "Feeds"): a new secret URL, shown once, replaces the old; or it stops.
  // The form is sent once (form-once.ts): a reload of the answer would otherwise stop the URL just shown.
  scope.post('/console/alerts/:id/feed', async (request, reply) => {
    const who = await alertsUser(request, reply);
    if (!who) return reply;
    requireRole(who, ...ALERT_EDITORS);
    const rule = await ownRule(store, who, (request.params as { id: string }).id);
    const issued = await firstSend(request, () => issueRuleFeed(store, rule.id, baseUrl, new Date(clock())));
    if (!issued) return redirectDone(reply, '/console/alerts', 'feed-resent');
    const { url } = issued;
    const notice = `The Atom feed of “${rule.name}”, shown this once (a new URL stops this one): ${url}`;
    return send(reply, who, await reply.generateCsrf(), { notice });
  });

  scope.post('/console/alerts/:id/feed/revoke', async (request, reply) => {
    const who = await alertsUser(request, reply);
    if (!who) return reply;
    requireRole(who, ...ALERT_EDITORS);
    const rule = await ownRule(store, who, (request.params as { id: string }).id);
    const stopped = await revokeRuleFeed(store, rule.id);
    return redirectDone(reply, '/console/alerts', stopped ? 'feed-stopped' : 'no-feed', { rule: rule.id });
  });

  // A rule gone already (a second tab, a stale link) has nothing to confirm: the list says so, as the form would.
  scope.get('/console/alerts/:id/delete', async (request, reply) => {
    const who = await alertsUser(request, reply);
    if (!who) return reply;
    requireRole(who, ...ALERT_EDITORS);
    const rule = await findOwnRule(store, who, (request.params as { id: string }).id);
    return confirmUnlessGone(reply, rule, RULE_GONE, (rule, csrf) =>
      confirmPage({
        who,
        csrf,
        section: 'alerts',
        title: 'Delete an alert rule',
        question: html`Delete “${rule.name}” and every match recorded on it? This cannot be undone; to stop it for a
while, turn it off instead.`,
        action: `/console/alerts/${rule.id}/delete`,
        button: 'Delete this rule',
        back: '/console/alerts',
      }),
    );
  });

  scope.post('/console/alerts/:id/delete', async (request, reply) => {
    const who = await alertsUser(request, reply);
    if (!who) return reply;
    requireRole(who, ...ALERT_EDITORS);
    const rule = await findOwnRule(store, who, (request.params as { id: string }).id);
    // Gone already (the form sent twice, a second tab): what was asked is done, so back to the list saying so
    // (gone.ts). Another account's rule reads the same, and is neither touched nor named.
    if (!rule || !(await deleteRule(store, rule.id))) return redirectGone(reply, RULE_GONE);
    // The rule is gone: its name comes along for the notice.
    return redirectDone(reply, '/console/alerts', 'deleted', { name: rule.name });
  });

  scope.get('/console/alerts/subscribe', async (request, reply) => {
    const who = await alertsUser(request, reply);
    if (!who) return reply;
    requireRole(who, ...ALERT_EDITORS);
    const template = await ownTemplate(queryOf(request).text('template'));
    return subscribeForm(reply, who, await reply.generateCsrf(), template, {});
  });

  scope.post('/console/alerts/subscribe', async (request, reply) => {
    const who = await alertsUser(request, reply);
    if (!who) return reply;
    requireRole(who, ...ALERT_EDITORS);
    const form = formOf(request);
    const template = await ownTemplate(form.text('template'));
    const place = {
      scope: form.text('scope') || 'national',
      municipalities: form.text('municipalities'),
      district: form.text('district'),
    };
    const csrf = await reply.generateCsrf();
    try {
      const { municipalities, district } = placeOptions(place);
      // Sent once (form-once.ts): a double click sends two requests at the same moment, each finding no subscription.
      const created = await firstSend(request, () =>
        subscribeToTemplate(
          store,
          { account: who.account.id, template: template.key, municipalities, district },
          new Date(clock()),
          FORM,
        ),
      );
      if (!created) return redirectDone(reply, '/console/alerts', 'subscribe-resent');
      return redirectDone(reply, '/console/alerts', 'subscribed', { rule: created.id });
    } catch (error) {
      // Sent again (a second tab, the back button): the subscription is there, which is what was asked.
      if (error instanceof AlreadySubscribed)
        return redirectDone(reply, '/console/alerts', 'subscribed-already', { rule: error.rule.id });
      if (error instanceof AdminError)
        return subscribeForm(refusedForm(reply), who, csrf, template, { ...place, error: error.message });
      throw error;
    }
  });

  async function ownTemplate(key: string): Promise<AlertTemplateRecord> {
    const template = (await listTemplates(store)).find((t) => t.key === key);
    if (!template) throw new ConsoleRefusal(404, 'No such predefined subscription.');
    return template;
  }

  async function subscribeForm(
    reply: FastifyReply,
    who: SignedIn,
    csrf: string,
    template: AlertTemplateRecord,
    o: { scope?: string; municipalities?: string; district?: string; error?: string },
  ): Promise<FastifyReply> {
    const { districts } = await ruleChoices(store);
    const place = { scope: o.scope ?? 'national', municipalities: o.municipalities ?? '', district: o.district ?? '' };
    return sendHtml(
      reply,
      page({
        title: `Subscribe: ${template.name}`,
        who,
        csrf,
        section: 'alerts',
        body: html`${message('error', o.error)}<p>${template.description}</p>
<form method="post" action="/console/alerts/subscribe" class="card">${csrfField(csrf)}${onceField()}
<input type="hidden" name="template" value="${template.key}">
${placeFields(place, districts)}
<button type="submit">Turn on</button> <a href="/console/alerts">Cancel</a></form>`,
      }),
    );
  }

  async function send(
    reply: FastifyReply,
    who: SignedIn,
    csrf: string,
    o: { error?: string; notice?: string },
  ): Promise<FastifyReply> {
    const rules = await listAccountRules(store, who.account.id);
    const now = new Date(clock());
    const since = windowStart(now, who.plan.alerts_history_days, undefined);
    const counts = new Map((await store.alertMatchCounts(who.account.id, since)).map((c) => [c.rule_id, c]));
    // How many matches a rule recorded inside the plan's window, linked to them: whether it is catching anything.
    const matchesOf = (r: AlertRuleRecord) => {
      const count = counts.get(r.id);
      if (count === undefined) return html`<span class="muted">none yet</span>`;
      return html`<a href="/console/alerts/matches?rule=${r.id}">${formatNumber(count.count, 0)}</a><br><span
class="muted nowrap">latest ${date(count.latest)}</span>`;
    };
    const templates = await listTemplates(store);
    const names = new Map((await store.listMunicipalities()).map((m) => [m.id, m.name]));
    // Signal types, families and indicators by the names the rule form shows them with.
    const keyNames = await ruleKeyNames(store);
    const editor = canEditAlerts(who);
    const own = rules.filter((r) => r.template_id === null);
    const switchOf = (r: AlertRuleRecord) =>
      editor
        ? html`<form method="post" action="/console/alerts/${r.id}/${r.enabled ? 'disable' : 'enable'}">${csrfField(
            csrf,
          )}
<button type="submit" class="secondary" aria-label="${r.enabled ? 'Turn off' : 'Turn on'} ${r.name}">${
            r.enabled ? 'Turn off' : 'Turn on'
          }</button></form> ${feedForms(r)} <a href="/console/alerts/${r.id}/delete">Delete…</a>`
        : '';
    const feedForms = (r: AlertRuleRecord) =>
      html`<form method="post" action="/console/alerts/${r.id}/feed">${csrfField(csrf)}${onceField()}
<button type="submit" class="secondary" aria-label="New feed URL for ${r.name}">Feed URL</button></form>
<form method="post" action="/console/alerts/${r.id}/feed/revoke">${csrfField(csrf)}
<button type="submit" class="secondary" aria-label="Stop feed of ${r.name}">Stop feed</button></form>`;
    const state = (r: AlertRuleRecord) =>
      r.enabled ? html`<span class="pill live">on</span>` : html`<span class="pill paused">off</span>`;
    const ruleRows = own.map(
      (r) => html`<tr><td>${editor ? html`<a href="/console/alerts/${r.id}/edit">${r.name}</a>` : r.name}</td>
<td>${describeMatcher(r, keyNames)}</td><td>${sourcesInWords(r.source_types)}</td>
<td>${describePlace(r, names)}</td><td>${state(r)}</td><td class="num">${matchesOf(r)}</td><td>${date(
        r.created_at,
      )}</td><td>${switchOf(r)}</td></tr>`,
    );
    const templateRows = templates.map((t) => {
      const subs = rules.filter((r) => r.template_id === t.id);
      const about = html`<strong>${t.name}</strong><br><span class="muted">${t.description}</span>`;
      return html`<tr><td>${about}<br>${describeMatcher(t, keyNames)}</td>
<td>${
        subs.length > 0
          ? joined(
              subs.map(
                (r) => html`<p>${describePlace(r, names)} ${state(r)} · matches: ${matchesOf(r)} ${switchOf(r)}</p>`,
              ),
              '',
            )
          : html`<span class="muted">none</span>`
      }</td><td>${
        editor ? html`<a href="/console/alerts/subscribe?template=${t.key}" class="nowrap">Turn on…</a>` : ''
      }</td></tr>`;
    });
    const intro = editor
      ? html`<p><a href="/console/alerts/new">New rule…</a> · <a href="/console/alerts/matches">Matches</a></p>`
      : html`<p class="muted" role="note">Only the account's owner or an admin creates, changes and deletes alert rules;
you can read them. <a href="/console/alerts/matches">Matches</a></p>`;
    const head = html`<thead><tr><th>Name</th><th>Looks for</th><th>Reads</th><th>Where</th><th>State</th>
<th class="num">Matches</th><th>Created</th>${ACTIONS_HEADING}</tr></thead>`;
    return sendHtml(
      reply,
      page({
        title: 'Alerts',
        who,
        csrf,
        section: 'alerts',
        body: html`${message('error', o.error)}${message('notice', o.notice)}${intro}
<p class="muted">The matcher checks every rule that is on against what arrives and records each match once; the API
reads them (<code>alert_rules</code>, <code>alert_matches</code>). A new or changed rule is matched ${matched}.</p>
<h2>Your rules</h2>
<section><table>${head}<tbody>${
          ruleRows.length > 0 ? joined(ruleRows, '\n') : html`<tr><td colspan="8" class="muted">No rules yet.</td></tr>`
        }</tbody></table></section>
<h2>Predefined subscriptions</h2>
<section><table><thead><tr><th>Subscription</th><th>Yours, by place</th>${ACTIONS_HEADING}</tr></thead>
<tbody>${joined(templateRows, '\n')}</tbody></table></section>`,
      }),
    );
  }
}

/**
 * A rule's matcher in a few words: its type and parameters, signal types, families and indicators by `names` (as the
 * rule form names them; a key it does not know as it is).
 */
export function describeMatcher(
  r: Pick<AlertRuleRecord, 'matcher_type' | 'params'>,
  names: ReadonlyMap<string, string>,
): Html {
  const p = r.params;
  const named = (keys: readonly string[]) => keys.map((k) => names.get(k) ?? k).join(', ');
  const parts: string[] = [];
  if (p.keywords) parts.push(p.keywords.map((k) => `“${k}”`).join(', '));
  if (p.cpv_prefixes) parts.push(`CPV ${p.cpv_prefixes.join(', ')}`);
  if (p.nifs) parts.push(`NIF ${p.nifs.join(', ')}`);
  if (p.signal_families)
    parts.push(`${p.signal_families.length === 1 ? 'family' : 'families'} ${named(p.signal_families)}`);
  if (p.signal_types) parts.push(named(p.signal_types));
  if (p.min_confidence !== undefined) parts.push(`confidence ≥ ${formatNumber(p.min_confidence, 2)}`);
  if (p.indicator)
    parts.push(`${named([p.indicator])} ${p.above !== undefined ? `> ${bound(p.above)}` : `< ${bound(p.below)}`}`);
  return html`<span class="pill">${typeInWords(r.matcher_type)}</span> ${parts.join('; ')}`;
}

export function describePlace(
  r: Pick<AlertRuleRecord, 'target_scope' | 'municipality_ids' | 'district'>,
  names: ReadonlyMap<number, string>,
): string {
  if (r.target_scope === 'national') return 'The whole country';
  if (r.target_scope === 'district') return `District ${r.district ?? ''}`;
  return r.municipality_ids.map((id) => names.get(id) ?? String(id)).join(', ');
}

/** A rule's bound as the explorer writes a number (`12,5`), every decimal it was given kept. */
function bound(value: number | undefined): string {
  return formatNumber(value, 10);
}
