/**
 * The reference page at `/docs`: one self-contained HTML document (inline CSS, no script, no external asset)
 * generated from the registry, the error table and the domain list, so that it says what the service does.
 * It uses the same derivations as the OpenAPI document (parameters, example URLs), so the two cannot disagree.
 * The plans are the ones `migrate` seeds, the limit headers' example the OpenAPI document's; every page text goes
 * through the `html` tag (html.ts), and backtick spans in descriptions become <code>.
 */

import { DEFAULT_PLANS } from '../admin/default-plans.js';
import { AGENT_CARD_PATH } from '../channels/a2a/card.js';
import {
  downloadParameters,
  exampleRequestUrl,
  openApiPath,
  RATE_LIMIT_EXAMPLE,
  type RestParameter,
  restParameters,
} from '../channels/rest/openapi.js';
import { csvColumns } from '../core/csv-note.js';
import { isPaged, type JsonSchema } from '../core/json-schema.js';
import type { AnyOperation } from '../core/operation.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../core/schemas.js';
import { INTEGRITY_TYPES } from '../integrity/assess-contract.js';
import type { IntegrityType } from '../integrity/methodology.js';
import { ACCOUNT_TAG, ACCOUNT_TAG_DESCRIPTION, DOMAIN_NAMES, DOMAINS } from '../lib/domains.js';
import { ERROR_KINDS, type ErrorKind, problemTypeUrl } from '../lib/errors.js';
import { REAL_CONTRACTS_DESCRIPTION, REAL_SERIES_SOURCES } from '../lib/real-data.js';
import { SERVICE_API_VERSION } from '../lib/service.js';
import type { Registry } from '../operations/registry.js';
import type { PlanRecord } from '../store/records.js';
import { htmlDocument } from './document.js';
import { type Html, type HtmlValue, html, joined, trusted } from './html.js';

export function renderDocsPage(registry: Registry, baseUrl: string): string {
  const groups = operationGroups(registry);
  const sections = [
    introSection(baseUrl),
    authenticationSection(),
    startHereSection(baseUrl),
    plansSection(),
    limitsSection(),
    pagingSection(),
    csvSection(baseUrl),
    conditionalSection(),
    ...groups.map((g) => domainSection(g, baseUrl, registry)),
    integritySection(),
    errorsSection(baseUrl),
  ];
  const openApiLink = html`<a href="${baseUrl}/v1/openapi.json">OpenAPI 3.1 document</a>`;
  const body = html`<header><h1>munidata <small>REST API reference</small></h1>
<p>API version <code>${SERVICE_API_VERSION}</code> · ${openApiLink}</p></header>
${tableOfContents(groups)}
<main>
${joined(sections, '\n')}
</main>`;
  return htmlDocument('munidata — REST API reference', html`<style>${trusted(CSS)}</style>`, body).text;
}

// ---------------------------------------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------------------------------------

/** Text in which the descriptions' `backtick spans` become <code>. */
function prose(text: string): Html {
  const parts: HtmlValue[] = [];
  let at = 0;
  for (const span of text.matchAll(/`([^`]+)`/g)) {
    parts.push(text.slice(at, span.index), html`<code>${span[1]}</code>`);
    at = span.index + span[0].length;
  }
  parts.push(text.slice(at));
  return html`${parts}`;
}

/** An error kind as the text names it: a kind that is not in the error table does not compile. */
function kind(name: ErrorKind): Html {
  return html`<code>${name}</code>`;
}

function section(id: string, title: string, body: Html): Html {
  return html`<section id="${id}">\n<h2>${title}</h2>\n${body}\n</section>`;
}

/** `rowIds`: an anchor per row, for rows other pages link to (an integrity type's method). */
function table(headings: string[], rows: HtmlValue[][], rowIds?: readonly string[]): Html {
  const head = headings.map((h) => html`<th>${h}</th>`);
  const body = rows.map(
    (cells, i) => html`<tr${rowIds ? html` id="${rowIds[i]}"` : ''}>${cells.map((c) => html`<td>${c}</td>`)}</tr>`,
  );
  const tbody = html`<tbody>\n${joined(body, '\n')}\n</tbody>`;
  // Wide tables scroll inside their box on a narrow screen, so the page itself never scrolls sideways.
  return html`<div class="wide"><table>\n<thead><tr>${head}</tr></thead>\n${tbody}\n</table></div>`;
}

// ---------------------------------------------------------------------------------------------------------
// General sections (the rules every operation shares)
// ---------------------------------------------------------------------------------------------------------

function introSection(baseUrl: string): Html {
  const noModel = html`No language model is involved: every answer is a deterministic read.`;
  return section(
    'intro',
    'What this is',
    html`<p>munidata is a read-only data service over Portuguese municipal data: an indicator catalogue with
per-municipality series, snapshots and statistics, the 308 municipalities, municipal signals and signal cases, each
caller's alert rules and matches, and public procurement (contracts, entities, announcements, amendments). ${
      noModel
    }</p>
<p>This page documents the REST interface under <code>${baseUrl}/v1</code>. Every endpoint is <code>GET</code>
(any other method gets 405) and answers <code>application/json</code>; errors are
<code>application/problem+json</code>. A query parameter the endpoint does not know, or one of the wrong type or out
of range, gets 422 ${kind('validation-error')} naming it. The same operations, with the same key, plan and limits, are
also an A2A agent (card at <a href="${baseUrl}${AGENT_CARD_PATH}"><code>${AGENT_CARD_PATH}</code></a>,
JSON-RPC at <code>${baseUrl}/a2a</code>) and an MCP server (Streamable HTTP at <code>${baseUrl}/mcp</code>):
each operation's name below is its skill id and its tool name there. The machine-readable description is the
<a href="${baseUrl}/v1/openapi.json">OpenAPI document</a>.</p>
<p id="synthetic"><strong>Real data where a public copy exists, generated data elsewhere.</strong> A new
installation starts with the real data the project ships and generated data for the rest; no figure mixes them.</p>
${realAndGeneratedTable()}
<p>Every record that holds data says which it is: <code>synthetic: true</code> on generated data,
<code>false</code> on real data (OCDS releases carry it through the synthetic extension), and the titles of signals
and cases made from generated data begin with <code>[demo]</code>. <code>GET /v1/sources</code> lists each source
with its licence, coverage, record counts and last import; procurement lists and the aggregate take
<code>source=base</code> for real data only. More real data comes in with <code>munidata sync</code> and
<code>munidata import</code>; <code>munidata demo remove</code> deletes the generated data and keeps the real, and
<code>munidata serve --no-demo</code> runs on real data only.</p>`,
  );
}

/** What a first start serves as real and as generated (docs/data.md, "The first start"), from the loaders' lists. */
function realAndGeneratedTable(): Html {
  const real = [
    [html`${REAL_CONTRACTS_DESCRIPTION} (<code>source=base</code>)`, html`Portal BASE (IMPIC)`],
    ...Object.entries(REAL_SERIES_SOURCES).map(([key, source]) => [html`<code>${key}</code>`, html`${source}`]),
  ];
  const generated = html`Every other indicator series, the open calls for tenders (<code>source=demo</code>) and the
demo account; no contract is generated beside the real ones`;
  return html`<table>
<thead><tr><th>Data</th><th>What</th><th>Source</th></tr></thead>
<tbody>
${joined(
  real.map(([what, source]) => html`<tr><td>real data</td><td>${what}</td><td>${source}</td></tr>`),
  '\n',
)}
<tr><td>generated data</td><td>${generated}</td><td>munidata demo data (synthetic)</td></tr>
</tbody>
</table>`;
}

function authenticationSection(): Html {
  return section(
    'authentication',
    'Authentication',
    html`<p>Every endpoint needs an API key. Keys start with <code>sk_live_</code>. Send it as</p>
<pre tabindex="0">Authorization: Bearer sk_live_…</pre>
<p>or, for clients that cannot set <code>Authorization</code>, as <code>X-API-Key: sk_live_…</code>.
A missing, wrong, expired or revoked key gets 401 ${kind('invalid-auth')}.</p>
<p><strong>Never use a key from a browser page.</strong> Keys must stay on a server: any request that carries an
<code>Origin</code> header (which browsers add to cross-site requests) is refused with 403
${kind('origin-not-allowed')}. Call the API from your back end.</p>`,
  );
}

function startHereSection(baseUrl: string): Html {
  const getMe = html`<code>GET /v1/me</code>`;
  return section(
    'start-here',
    'Start here',
    html`<p>First call ${getMe}. It answers with the plan of the key, its scopes, the data domains the plan
includes, whether raw values are served, the limits and this month's usage. It uses no quota.</p>
<pre tabindex="0">curl -H "Authorization: Bearer $MUNIDATA_KEY" ${baseUrl}/v1/me</pre>
<p>An operation of a data domain the plan lacks gets 403 ${kind('domain-not-in-plan')}; one that needs a scope the
key lacks gets 403 ${kind('insufficient-scope')}. <code>/v1/me</code> shows both lists.</p>`,
  );
}

/**
 * The plans `migrate` seeds. `upgrade_url` in problems points here (`{base_url}/docs#plans`). Their limits are
 * data in the store, which an operator changes: the page gives no numbers.
 */
function plansSection(): Html {
  const noApi = html`no: every data call gets 403 ${kind('api-access-required')}; only <code>/v1/me</code> answers`;
  const domains = (plan: PlanRecord) =>
    plan.domains.length === 0
      ? 'none'
      : plan.domains.length === 1
        ? html`<code>${plan.domains[0]}</code> only`
        : joined(
            plan.domains.map((d) => html`<code>${d}</code>`),
            ', ',
          );
  const values = (plan: PlanRecord) =>
    !plan.api_access
      ? '—'
      : plan.raw_values
        ? 'raw values as published'
        : html`normalized: a 0–100 index instead of the value (<code>treatment</code> is <code>normalized</code>)`;
  const rows = DEFAULT_PLANS.map((plan) => [
    html`<code>${plan.code}</code>`,
    plan.api_access ? 'yes' : noApi,
    domains(plan),
    values(plan),
  ]);
  return section(
    'plans',
    'Plans',
    html`${table(['Plan', 'Data API', 'Data domains', 'Values'], rows)}
<p>The numbers (requests per minute, requests per month, years of series history, days of alert history) are set
per plan and can change; <code>GET /v1/me</code> shows those of your plan under <code>limits</code>.</p>`,
  );
}

function limitsSection(): Html {
  const freeOfQuota = trusted(
    '<li><strong>Free of quota:</strong> <code>/v1/me</code>, 304 answers (see conditional requests) ' +
      'and every error answer.</li>',
  );
  const historyYears = html`<code>history_years</code>`;
  return section(
    'limits',
    'Limits and quota',
    html`<ul>
<li><strong>Per-minute rate limit.</strong> Every request counts, including <code>/v1/me</code> and refused ones.
Over the limit: 429 ${kind('rate-limited')} with <code>Retry-After</code> (seconds to wait).</li>
<li><strong>Monthly quota.</strong> Each successful data request counts as one, per calendar month (UTC). When it is
used: 402 ${kind('quota-exceeded')} until the next month.</li>
${freeOfQuota}
<li>Each answer to a known key carries <code>RateLimit-Policy</code> (the per-minute and monthly limits, e.g.
<code>${RATE_LIMIT_EXAMPLE['ratelimit-policy']}</code>) and <code>RateLimit</code> (what remains and when it
resets, e.g. <code>${RATE_LIMIT_EXAMPLE.ratelimit}</code>), plus a <code>Request-Id</code>.</li>
<li>A series range reaching further back than the plan's ${historyYears} is clamped to that window, not refused.</li>
</ul>`,
  );
}

function pagingSection(): Html {
  return section(
    'paging',
    'Paging',
    html`<p>List endpoints take <code>limit</code> (default ${DEFAULT_LIMIT}, maximum ${
      MAX_LIMIT
    }) and <code>cursor</code>.
A <code>limit</code> of 0, negative, not an integer or above ${MAX_LIMIT} is 422 ${kind('validation-error')}, never
silently clamped. The answer is a page:</p>
<pre tabindex="0">{"items": [...], "next_cursor": "…", "has_more": true}</pre>
<p>Pass <code>next_cursor</code> as <code>cursor</code> with the same filters to get the next page; stop when
<code>has_more</code> is false. The next page's URL also comes in a <code>Link: &lt;…&gt;; rel="next"</code> header.
A cursor is bound to its endpoint and to its filters: using it elsewhere, with other filters, or edited, gets 400
${kind('invalid-cursor')}.</p>
<p>To keep a copy in step, the lists of contracts, signals, cases and alert matches take <code>updated_since</code>:
only what was added or changed after that instant, oldest change first (by <code>updated_at</code>, then
<code>id</code>). Page a first run from <code>1970-01-01T00:00:00Z</code> to its end, keep the last
<code>updated_at</code> you read, and pass it next time. Nothing is missed while data changes; a record changed after
you read it comes again, later in the run, as its new version.</p>`,
  );
}

function csvSection(baseUrl: string): Html {
  return section(
    'csv',
    'CSV',
    html`<p>List endpoints (those that answer a page or an array) also answer CSV (RFC 4180): send
<code>Accept: text/csv</code>. The filters, <code>limit</code> and <code>cursor</code> are the same, and so are
quota (one request), errors (still <code>application/problem+json</code>) and conditional requests (the CSV has its
own <code>ETag</code>; answers carry <code>Vary: Accept</code>). Other endpoints answer JSON whatever
<code>Accept</code> says. Quality values count: <code>text/csv;q=0.5, application/json</code> gets JSON, and
<code>*/*</code> or no <code>Accept</code> gets JSON. Where a header cannot be sent (a link, a spreadsheet's
“from web”), the query parameter <code>format=csv</code> asks the same, and wins over <code>Accept</code>;
<code>format=json</code> asks for JSON. The aggregate answers CSV too, one row per group.</p>
<pre tabindex="0">
curl -H "Authorization: Bearer $MUNIDATA_KEY" -H "Accept: text/csv" "${baseUrl}/v1/municipalities?limit=200"</pre>
<ul>
<li><code>format=csv-excel</code> is the same table for a spreadsheet set to Portuguese (Excel, LibreOffice):
<code>;</code> between fields, numbers with a decimal comma (<code>1234,5</code>), a text of digits alone (a
municipality code, a tax number, a CPV code) as <code>="0101"</code> so that its leading zeros stay, and a UTF-8
byte-order mark so that accents open right. Use <code>format=csv</code> for programs.</li>
<li>CSV answers carry <code>Content-Disposition: attachment; filename="…"</code>, named after the operation and
its path (<code>indicators-snapshot-population.csv</code>).</li>
<li>The answer is <code>text/csv; charset=utf-8; header=present</code>: UTF-8 (no byte-order mark), one
header row, then one row per item; every line ends with CRLF. An empty result is the header row alone.</li>
<li>Columns come from the item's schema, in its order, so they do not change with the data. A nested object becomes
dotted columns (<code>key.year</code>); a list of values is one column, joined by <code>|</code>; a list of
objects becomes dotted columns (<code>buyers.nif</code>, <code>buyers.name</code>), each joining the objects' values
by <code>|</code> in the same order. Inside such a list, <code>\\</code> and <code>|</code> are escaped as
<code>\\\\</code> and <code>\\|</code>.</li>
<li>Fields holding a comma, a double quote or a line break are quoted, with quotes doubled. <code>null</code> is an
empty field, an empty string is <code>""</code>; booleans are <code>true</code>/<code>false</code>; numbers are
written as in JSON (dot decimal).</li>
<li>Paging: a page that has a next one carries <code>Link: &lt;…&gt;; rel="next"</code> and
<code>Next-Cursor</code>; no such header means it was the last page.</li>
</ul>`,
  );
}

function conditionalSection(): Html {
  const ifNoneMatch = html`<code>If-None-Match</code>`;
  return section(
    'conditional-requests',
    'Conditional requests',
    html`<p>Every successful answer carries an <code>ETag</code>. Send it back as ${ifNoneMatch}: if the answer
has not changed you get <code>304 Not Modified</code> without a body, and it is free of quota.</p>`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Operations, grouped by data domain
// ---------------------------------------------------------------------------------------------------------

interface OperationGroup {
  readonly tag: string;
  readonly description: string;
  readonly operations: AnyOperation[];
}

/** `account` (me) first, then each data domain that has operations, in DOMAINS order. */
function operationGroups(registry: Registry): OperationGroup[] {
  const groups: OperationGroup[] = [
    {
      tag: ACCOUNT_TAG,
      description: ACCOUNT_TAG_DESCRIPTION,
      operations: registry.all.filter((op) => op.domain === null),
    },
    ...DOMAIN_NAMES.map((d) => ({
      tag: d,
      description: DOMAINS[d].description,
      operations: registry.all.filter((op) => op.domain === d),
    })),
  ];
  return groups.filter((g) => g.operations.length > 0);
}

function tableOfContents(groups: OperationGroup[]): Html {
  const general: [string, string][] = [
    ['intro', 'What this is'],
    ['authentication', 'Authentication'],
    ['start-here', 'Start here'],
    ['plans', 'Plans'],
    ['limits', 'Limits and quota'],
    ['paging', 'Paging'],
    ['csv', 'CSV'],
    ['conditional-requests', 'Conditional requests'],
  ];
  const item = (id: string, text: string) => html`<li><a href="#${id}">${text}</a></li>`;
  const operationItems = (op: AnyOperation) => [
    item(op.name, op.name),
    op.rest.download && item(op.rest.download.operationId, op.rest.download.operationId),
  ];
  const domainItems = groups.map(
    (g) => html`<li><a href="#domain-${g.tag}">${g.tag}</a><ul>${g.operations.map(operationItems)}</ul></li>`,
  );
  const generalItems = general.map(([id, text]) => item(id, text));
  const integrity = item('integrity', 'Integrity flags');
  return html`<nav><ul>${generalItems}${domainItems}${integrity}${item('errors', 'Errors')}</ul></nav>`;
}

function domainSection(group: OperationGroup, baseUrl: string, registry: Registry): Html {
  const scope =
    group.tag !== ACCOUNT_TAG && html` Scope: <code>${DOMAINS[group.tag as keyof typeof DOMAINS].scope}</code>.`;
  const blocks = group.operations.map(
    (op) => html`${operationBlock(op, baseUrl)}${downloadBlock(op, baseUrl, registry)}`,
  );
  return section(
    `domain-${group.tag}`,
    group.tag === ACCOUNT_TAG ? 'Account' : `Domain: ${group.tag}`,
    html`<p>${prose(group.description)}${scope}</p>\n${joined(blocks, '\n')}`,
  );
}

function operationBlock(op: AnyOperation, baseUrl: string): Html {
  const notes = [
    op.free && 'Free of quota.',
    isPaged(op) && html`Paged (see <a href="#paging">Paging</a>).`,
    csvNote(op),
    op.cache === 'caller' && 'Not cached: the answer depends on the caller.',
  ].filter((note) => note !== false && note !== undefined);
  const parameters = restParameters(op);
  const examples = op.examples.map(
    (e) => html`<li>${e.title}<br><code class="url">GET ${exampleRequestUrl(op, e, baseUrl)}</code></li>`,
  );
  return html`<article id="${op.name}">
<h3><span class="method">GET</span> <code>${openApiPath(op.rest.path)}</code></h3>
<p class="opname">Operation <code>${op.name}</code> — ${op.title}</p>
<p><strong>${prose(op.summary)}</strong></p>
<p>${prose(op.description)}</p>
${notes.length > 0 && html`<p class="notes">${joined(notes, ' ')}</p>`}
${parameters.length > 0 ? parameterTable(parameters) : html`<p>No parameters.</p>`}
${examples.length > 0 && html`<p>Examples:</p>\n<ul class="examples">\n${joined(examples, '\n')}\n</ul>`}
</article>`;
}

/** The REST-only file route of an operation that has one (the bulk download), with the parameters OpenAPI gives it. */
function downloadBlock(op: AnyOperation, baseUrl: string, registry: Registry): Html | undefined {
  const route = op.rest.download;
  if (route === undefined) return undefined;
  const [dataset] = downloadParameters(op, registry);
  const first = String(dataset.schema.enum?.[0] ?? 'contracts');
  const url = `${baseUrl}${route.path.replace(':dataset', first)}`;
  return html`
<article id="${route.operationId}">
<h3><span class="method">GET</span> <code>${openApiPath(route.path)}</code></h3>
<p class="opname">REST only — the files <code>${
    op.name
  }</code> lists (agents fetch them over HTTP with the same key)</p>
<p><strong>${prose(route.summary)}</strong></p>
<p>${prose(route.description)}</p>
${parameterTable(downloadParameters(op, registry))}
<p>Example:</p>
<ul class="examples">
<li>${first}, as a spreadsheet set to Portuguese opens it<br><code class="url">GET ${url}?format=csv-excel</code></li>
</ul>
</article>`;
}

/** List endpoints: their CSV columns (see the CSV section). */
function csvNote(op: AnyOperation): Html | undefined {
  const columns = csvColumns(op);
  if (columns === undefined) return undefined;
  const rows = op.csvRows !== undefined && html`, one row per element of <code>${op.csvRows}</code>`;
  const names = joined(
    columns.map((c) => html`<code>${c}</code>`),
    ', ',
  );
  const howToAsk = html`(<code>Accept: text/csv</code>, <code>format=csv</code> or <code>format=csv-excel</code>)`;
  return html`Also as <a href="#csv">CSV</a> ${howToAsk}${rows}, columns ${names}.`;
}

function parameterTable(parameters: RestParameter[]): Html {
  return table(
    ['Name', 'In', 'Type', 'Required', 'Description'],
    parameters.map((p) => [
      html`<code>${p.name}</code>`,
      p.in,
      html`${typeText(p.schema)}${p.repeatable && ' (repeat the parameter)'}`,
      p.required ? 'yes' : 'no',
      p.description === undefined ? '' : prose(p.description),
    ]),
  );
}

/** A short type description: `integer, 1–200, default 50`, `string, one of: a, b`, `array of string`. */
function typeText(schema: JsonSchema): Html {
  const parts: HtmlValue[] = [];
  if (schema.type === 'array' && schema.items) parts.push(html`array of ${typeText(schema.items)}`);
  else if (schema.type !== undefined) parts.push([schema.type].flat().join(' or '));
  else if (schema.anyOf) parts.push(joined(schema.anyOf.map(typeText), ' or '));
  if (typeof schema.format === 'string') parts.push(schema.format);
  if (schema.enum) {
    const values = schema.enum.map((v) => html`<code>${v as HtmlValue}</code>`);
    parts.push(html`one of: ${joined(values, ', ')}`);
  }
  const min = schema.minimum;
  const max = schema.maximum;
  if (min !== undefined && max !== undefined) parts.push(`${min} to ${max}`);
  else if (min !== undefined) parts.push(`at least ${min}`);
  else if (max !== undefined) parts.push(`at most ${max}`);
  if (typeof schema.maxItems === 'number') parts.push(`at most ${schema.maxItems} values`);
  if (schema.default !== undefined) parts.push(html`default <code>${JSON.stringify(schema.default)}</code>`);
  return parts.length > 0 ? joined(parts, ', ') : html`any`;
}

// ---------------------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------------------

/** The anchor of an integrity type's row: the explorer links each type to it (`/docs#integrity-single_bid`). */
export function integrityAnchor(type: string): string {
  return `integrity-${type}`;
}

/** The methodology of every integrity type, from the catalogue the checks run from (docs/integrity.md). */
function integritySection(): Html {
  const threshold = (x: IntegrityType['thresholds'][number], i: number) =>
    html`${i > 0 ? trusted('<br>') : ''}<code>${x.key}</code> ${x.value} ${x.unit} (${x.source})`;
  const thresholds = (t: IntegrityType) => (t.thresholds.length === 0 ? '—' : html`${t.thresholds.map(threshold)}`);
  const rows = INTEGRITY_TYPES.map((t) => [
    html`<code>${t.key}</code><br>${t.label_en}`,
    html`<code>${t.code}</code> v${t.version}`,
    html`${t.measures_en}${t.caveat_en ? html`<br><em>${t.caveat_en}</em>` : ''}`,
    joined(
      t.fields.map((f) => html`<code>${f}</code>`),
      ', ',
    ),
    thresholds(t),
    t.legal_basis ? html`${t.legal_basis.reference}: ${t.legal_basis.text_en}` : '—',
  ]);
  return section(
    'integrity',
    'Integrity flags',
    html`<p>Risk indicators on a contract — an indicator for a closer look, never an accusation.
<code>procurement_red_flags</code> answers every type in one of three states: <code>flagged</code>,
<code>not_flagged</code>, or <code>not_assessable</code> when the record lacks a field the type reads (the reason
names it). A flag never rests on a missing field. <code>procurement_entity_red_flags</code> runs them all on a
buyer's contracts in a period. The explorer shows them on a contract's page, on a buyer's page and on a map of the
share of each municipality's contracts flagged per type (<a href="/explore/integrity">/explore/integrity</a>).</p>
${table(
  ['Type', 'Code', 'What it measures', 'Reads', 'Thresholds (default, source)', 'Legal basis'],
  rows,
  INTEGRITY_TYPES.map((t) => integrityAnchor(t.key)),
)}`,
  );
}

function errorsSection(baseUrl: string): Html {
  const kinds = (Object.keys(ERROR_KINDS) as ErrorKind[]).sort((a, b) => ERROR_KINDS[a].status - ERROR_KINDS[b].status);
  const example = ERROR_KINDS['domain-not-in-plan'];
  const typeUrl = problemTypeUrl(baseUrl, 'domain-not-in-plan');
  return section(
    'errors',
    'Errors',
    html`<p>Errors are problem documents (RFC 9457), <code>application/problem+json</code>, with <code>type</code>,
<code>title</code>, <code>status</code> and, where useful, <code>detail</code>, <code>instance</code>,
<code>request_id</code> (the same as the <code>Request-Id</code> header), <code>feature_key</code>,
<code>upgrade_url</code> and <code>errors</code> (each offending parameter, with <code>field</code> and
<code>message</code>). The last segment of <code>type</code> is the kind; its URL describes it.</p>
<pre tabindex="0">
{"type": "${typeUrl}", "title": "${example.title}", "status": ${example.status}, "request_id": "req_…"}</pre>
${table(
  ['Kind', 'Status', 'Title', 'Description'],
  kinds.map((k) => [
    html`<a href="${problemTypeUrl(baseUrl, k)}"><code>${k}</code></a>`,
    ERROR_KINDS[k].status,
    ERROR_KINDS[k].title,
    prose(ERROR_KINDS[k].description),
  ]),
)}
<p>Retry 429 after <code>Retry-After</code> seconds, and 503 with growing intervals.</p>`,
  );
}

const CSS = `
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;margin:0;background:#fff}
header,main,nav{max-width:60rem;margin:0 auto;padding:0 1rem}
header{border-bottom:1px solid #d0d7de;padding-top:1rem}
h1 small{font-weight:400;color:#57606a;font-size:.6em}
h2{margin-top:2.5rem;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}
h3{margin-top:2rem;font-size:1.1rem}
nav ul{padding-left:1.2rem;margin:.3rem 0}
nav>ul{columns:2;padding-top:1rem}
nav a{overflow-wrap:anywhere}
@media (max-width:40rem){nav>ul{columns:1}}
.wide{overflow-x:auto}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
code{background:#f3f4f6;padding:.05em .3em;border-radius:4px;overflow-wrap:anywhere}
pre{background:#f3f4f6;padding:.7rem;border-radius:6px;overflow-x:auto}
code.url{word-break:break-all}
.method{background:#0969da;color:#fff;border-radius:4px;padding:.1em .4em;font-size:.85em}
.opname,.notes{color:#57606a}
article{border-left:3px solid #d0d7de;padding-left:1rem;margin:1.5rem 0}
table{border-collapse:collapse;width:100%;margin:.7rem 0;font-size:.92em}
th,td{border:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}
a{color:#0969da}
`;
