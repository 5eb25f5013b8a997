/**
 * The pipeline's status for operators (docs/pipeline.md): a small read-only section a console page embeds, from the
 * same rows `/readyz` details — each step's run in progress (which instance holds its lease, since when, doing
 * what), its last run, its last success, how long it took and the items it counted, and its last error.
 * `pipelineSection(store, intervalS)` reads and renders it; the operators' page (pipeline-page.ts) shows it.
 */
import type { PipelineStepStatus } from '../../store/pipeline/pipeline-records.js';
import type { Store } from '../../store/store.js';
import { type Html, html } from '../html.js';

export async function pipelineSection(store: Pick<Store, 'pipeline'>, intervalS: number): Promise<Html> {
  return renderPipelineSection(await store.pipeline.listPipelineSteps(), intervalS);
}

export function renderPipelineSection(steps: readonly PipelineStepStatus[], intervalS: number): Html {
  const cycle =
    intervalS === 0
      ? 'Off on this instance (PIPELINE_INTERVAL_S=0): the commands do the work.'
      : `A cycle every ${intervalS} s on each instance; one instance at a time runs each step.`;
  return html`<section id="pipeline" aria-labelledby="pipeline-title">
<h2 id="pipeline-title">Pipeline</h2>
<p>${cycle}</p>
${
  steps.length === 0
    ? html`<p>No step has run yet.</p>`
    : html`<table>
<thead><tr><th scope="col">Step</th><th scope="col">Now</th><th scope="col">Last run</th>
<th scope="col">Last success</th><th scope="col">Items</th><th scope="col">Last error</th></tr></thead>
<tbody>${steps.map(stepRow)}</tbody>
</table>`
}
</section>`;
}

function stepRow(step: PipelineStepStatus): Html {
  const now =
    step.running_since === null
      ? 'idle'
      : html`running since <time>${step.running_since}</time>, its lease held by ${step.running_holder}${
          step.progress === null ? '' : html`: ${step.progress}`
        }`;
  const success =
    step.last_success_at === null
      ? 'never'
      : html`<time>${step.last_success_at}</time>${step.last_seconds === null ? '' : ` (${step.last_seconds} s)`}`;
  const error = step.last_error_at === null ? 'none' : html`<time>${step.last_error_at}</time>: ${step.last_error}`;
  const started = step.last_started_at === null ? 'never' : html`<time>${step.last_started_at}</time>`;
  return html`<tr><th scope="row">${step.step}</th><td>${now}</td><td>${started}</td><td>${success}</td>
<td>${summaryItems(step.last_summary)}</td><td>${error}</td></tr>`;
}

/** The counts of a step's last summary (its numbers, nested ones named by their path), zeros left out. */
export function summaryItems(summary: unknown, prefix = ''): string {
  if (typeof summary === 'number') return summary === 0 ? '' : `${prefix || 'count'} ${summary}`;
  if (summary === null || typeof summary !== 'object' || Array.isArray(summary)) return '';
  const parts = Object.entries(summary).map(([key, value]) => summaryItems(value, prefix ? `${prefix}.${key}` : key));
  return parts.filter((part) => part !== '').join(', ') || (prefix ? '' : 'nothing');
}
