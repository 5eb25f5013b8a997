/**
 * The alert rule form (docs/console.md, Alerts): a new rule or an own rule edited, with the CLI's checks and
 * messages (src/admin/alert-rules.ts `ruleDefinition`), and a preview before saving: the recent items the rule
 * would have matched (src/admin/alert-preview.ts), nothing recorded. Owners and admins only.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ruleChoices } from '../../admin/alert-choices.js';
import { PREVIEW_RECENT, previewRule, type RulePreview } from '../../admin/alert-preview.js';
import { editAlertRule, SUBSCRIPTION_NOT_EDITED } from '../../admin/alert-rule-edit.js';
import { createAlertRule, ruleDefinition } from '../../admin/alert-rules.js';
import type { Core } from '../../core/core.js';
import { AdminError } from '../../lib/admin-error.js';
import { formatCount, formatNumber } from '../../lib/number-forms.js';
import { matchesSynthetic } from '../../operations/alerts/resources.js';
import { html, joined } from '../html.js';
import { generatedMark } from './alert-matches-page.js';
import {
  EMPTY_RULE,
  FORM,
  type RuleFormValues,
  readRuleForm,
  ruleFields,
  ruleFormValues,
  ruleOptions,
} from './alert-rule-fields.js';
import { ALERT_EDITORS, alertsUser, ownRule } from './alerts-page.js';
import { redirectDone } from './done.js';
import { formOf } from './form-fields.js';
import { csrfField, message, page, sendHtml } from './html.js';
import { ConsoleRefusal, refusedForm } from './refusal.js';
import { requireRole, type SignedIn } from './signed-in.js';

export function registerAlertRulePage(scope: FastifyInstance, core: Core): void {
  const { store, clock } = scope.signedInDeps;

  scope.get('/console/alerts/new', async (request, reply) => {
    const who = await alertsUser(request, reply);
    if (!who) return reply;
    requireRole(who, ...ALERT_EDITORS);
    return form(reply, who, await reply.generateCsrf(), { values: EMPTY_RULE });
  });

  scope.get('/console/alerts/:id/edit', async (request, reply) => {
    const who = await alertsUser(request, reply);
    if (!who) return reply;
    requireRole(who, ...ALERT_EDITORS);
    const rule = await ownRule(store, who, (request.params as { id: string }).id);
    if (rule.template_id !== null) throw new ConsoleRefusal(400, SUBSCRIPTION_NOT_EDITED);
    const codes = new Map((await store.listMunicipalities()).map((m) => [m.id, m.code]));
    return form(reply, who, await reply.generateCsrf(), { values: ruleFormValues(rule, codes), ruleId: rule.id });
  });

  // One handler for both forms: the button pressed (`intent`) says preview or save.
  for (const path of ['/console/alerts/new', '/console/alerts/:id/edit']) {
    scope.post(path, async (request, reply) => {
      const who = await alertsUser(request, reply);
      if (!who) return reply;
      requireRole(who, ...ALERT_EDITORS);
      const id = (request.params as { id?: string }).id;
      const rule = id === undefined ? undefined : await ownRule(store, who, id);
      const fields = formOf(request);
      const values = readRuleForm(fields);
      const csrf = await reply.generateCsrf();
      try {
        const options = ruleOptions(values);
        if (fields.text('intent') === 'preview') {
          const definition = await ruleDefinition(store, options, FORM);
          const preview = await previewRule(store, { ...definition, account_id: who.account.id }, new Date(clock()));
          return form(reply, who, csrf, { values, ruleId: rule?.id, preview });
        }
        const saved = rule
          ? await editAlertRule(store, rule.id, options, FORM)
          : await createAlertRule(store, { ...options, account: who.account.id }, new Date(clock()), FORM);
        return redirectDone(reply, '/console/alerts', 'saved', { rule: saved.id });
      } catch (error) {
        if (error instanceof AdminError)
          return form(refusedForm(reply), who, csrf, { values, ruleId: rule?.id, error: error.message });
        throw error;
      }
    });
  }

  async function form(
    reply: FastifyReply,
    who: SignedIn,
    csrf: string,
    o: { values: RuleFormValues; ruleId?: number; error?: string; preview?: RulePreview },
  ): Promise<FastifyReply> {
    const action = o.ruleId === undefined ? '/console/alerts/new' : `/console/alerts/${o.ruleId}/edit`;
    const editing = o.ruleId !== undefined;
    return sendHtml(
      reply,
      page({
        title: editing ? 'Edit an alert rule' : 'New alert rule',
        who,
        csrf,
        section: 'alerts',
        body: html`${message('error', o.error)}${o.preview && (await previewSection(o.preview))}
<p class="muted">Fill in the fields of the type you choose; the others stay empty. The checks are those of
<code>munidata alerts rule create</code>, their messages in this form's words.${
          editing &&
          html` Saving a changed definition matches it again over the recent past; the matches already recorded stay.`
        }</p>
<form method="post" action="${action}" class="card">${csrfField(csrf)}
${ruleFields(o.values, await ruleChoices(store))}
<button type="submit" name="intent" value="preview" class="secondary">Preview</button>
<button type="submit" name="intent" value="save">${editing ? 'Save changes' : 'Save rule'}</button>
<a href="/console/alerts">Cancel</a></form>`,
      }),
    );
  }

  async function previewSection(preview: RulePreview) {
    const synthetic = await matchesSynthetic(store, await core.reference(), preview.matches);
    const rows = preview.matches.map(
      (m, i) =>
        html`<tr><td>${m.link ? html`<a href="${m.link}" rel="noreferrer">${m.title ?? m.link}</a>` : m.title}${
          synthetic[i] && generatedMark()
        }</td><td>${m.source_type}</td><td>${m.snippet}</td><td class="num">${formatNumber(m.score, 2)}</td></tr>`,
    );
    const count =
      preview.total > preview.matches.length
        ? `${n(preview.total)} recent items match; the newest ${preview.matches.length}:`
        : preview.total === 0
          ? 'No recent item matches.'
          : `${n(preview.total)} recent ${preview.total === 1 ? 'item matches' : 'items match'}.`;
    return html`<section aria-labelledby="preview"><h2 id="preview">Preview</h2>
<p>${count}</p>
<p class="muted" id="preview-scanned">${scanned(preview)} Nothing is recorded until you save.</p>${
      preview.total === 0 && html`<p>Why nothing matches:</p><ul id="preview-why">${whyNothing(preview)}</ul>`
    }${
      rows.length > 0 &&
      html`<table><thead><tr><th>Item</th><th>Source</th><th>Why</th><th class="num">Score</th></tr></thead>
<tbody>${joined(rows, '\n')}</tbody></table>`
    }</section>`;
  }
}

const n = formatCount;
const dates = (o: { first: string | null; last: string | null }) =>
  o.first === o.last ? `dated ${o.first}` : `dated ${o.first} to ${o.last}`;

/** What the preview read, in plain words (docs/alerts.md, "Preview"). */
export function scanned(p: RulePreview): string {
  const read =
    p.stopped === 'all'
      ? `Read all ${n(p.entries)} changes of items in the store, newest first.`
      : p.stopped === 'enough'
        ? `Read the store's latest ${n(p.entries)} changes of items, newest first` +
          (p.entries > PREVIEW_RECENT
            ? `: the latest ${n(PREVIEW_RECENT)}, then older ones until ${n(p.limit)} matched.`
            : ` (it reads older ones only while fewer than ${n(p.limit)} match).`)
        : `Read the store's latest ${n(p.entries)} changes of items, newest first, and stopped there: the preview ` +
          `reads at most ${n(p.bound)}, and found ${p.total === 0 ? 'no match' : `only ${n(p.total)}`} ` +
          `of the ${n(p.limit)} it shows. A saved rule is matched against the older ones too.`;
  const tested =
    p.tested.count === 0
      ? ' None of them is an item inside the alert window.'
      : ` Tested ${n(p.tested.count)} ${p.tested.count === 1 ? 'item' : 'items'} ${dates(p.tested)}.`;
  const skipped =
    p.tooOld > 0 ? ` Skipped ${n(p.tooOld)} ${p.tooOld === 1 ? 'item' : 'items'} older than the alert window.` : '';
  const window = p.window
    ? ` Alerts look back ${n(p.window.days)} days, to ${p.window.start}.`
    : ' Alerts look back without a limit.';
  return `${read}${tested}${skipped}${window}`;
}

/** Why a preview found nothing: each reason that holds. */
export function whyNothing(p: RulePreview) {
  const reasons: string[] = [];
  if (p.outside && p.window)
    reasons.push(
      `The store's items ${dates(p.outside)} (${n(p.outside.count)} changes) are older than the ${n(p.window.days)} ` +
        'days alerts look back: no rule matches them, saved or previewed.',
    );
  if (p.olderUnread)
    reasons.push(
      `Changes older than the latest ${n(p.entries)} were not read (the preview reads at most ` +
        `${n(p.bound)}). A saved rule is matched against them too (inside the alert window), so it may ` +
        'match items the preview did not see.',
    );
  if (p.tested.count > 0) reasons.push(`None of the ${n(p.tested.count)} items tested has what the rule asks for.`);
  return html`${reasons.map((r) => html`<li>${r}</li>`)}`;
}
